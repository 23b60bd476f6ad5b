import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { TEMPORAL_SERVER_VERSION } from '../../../scripts/topology/temporal-server.js';
import { TOPOLOGY_STACK } from '../../../scripts/topology/stack.js';

/**
 * docker-compose.yml and the production topology check (scripts/topology/) describe the same Temporal stack: the same
 * server version, the same schema and namespace steps (deploy/temporal/*.sh, run by both), the same dynamic config.
 * And no step of the stack hides its failure.
 */
const root = new URL('../../../', import.meta.url);
const read = (path: string): string => readFileSync(fileURLToPath(new URL(path, root)), 'utf8');

interface Service {
  image?: string;
  entrypoint?: string[];
  command?: string[] | string;
  environment?: Record<string, string>;
  volumes?: string[];
}
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
const service = (name: string): Service => {
  const s = compose.services[name];
  expect(s, name).toBeDefined();
  return s!;
};
const version = TEMPORAL_SERVER_VERSION.replace(/^v/, '');

describe('docker-compose.yml and scripts/topology', () => {
  it('run the Temporal server and its admin tools at the exact patch version the topology check builds', () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(service('temporal').image).toBe(`temporalio/server:${version}`);
    for (const name of ['temporal-schema', 'temporal-namespace'])
      expect(service(name).image, name).toMatch(
        new RegExp(`^temporalio/admin-tools:${version.replace(/\./g, '\\.')}-`),
      );
  });

  it('create the schemas and the namespace with the same scripts from deploy/temporal', () => {
    for (const [name, script] of [
      ['temporal-schema', 'schema.sh'],
      ['temporal-namespace', 'namespace.sh'],
    ] as const) {
      const s = service(name);
      expect(s.volumes, name).toContain('./deploy/temporal:/paycore/deploy/temporal:ro');
      expect(s.entrypoint, name).toEqual(['/bin/sh', `/paycore/deploy/temporal/${script}`]);
      expect(s.command, name).toBeUndefined();
    }
    expect(service('temporal-schema').environment?.['SQL_PLUGIN']).toBe('postgres12');
    expect(service('temporal').environment?.['DB']).toBe('postgres12');
    expect(service('temporal').environment?.['DYNAMIC_CONFIG_FILE_PATH']).toBe(
      '/etc/temporal/config/dynamicconfig/paycore.yaml',
    );
    expect(service('temporal').volumes).toContain(
      './deploy/temporal/dynamicconfig:/etc/temporal/config/dynamicconfig:ro',
    );
  });

  it('hide no failure: no `|| true`, the flag temporal-sql-tool knows, and every step waits with a deadline', () => {
    for (const path of ['docker-compose.yml', 'deploy/temporal/schema.sh', 'deploy/temporal/namespace.sh']) {
      const text = read(path);
      expect(text, path).not.toMatch(/\|\|\s*true/);
      expect(text, path).not.toContain('--default-db');
    }
    const schema = read('deploy/temporal/schema.sh');
    expect(schema).toContain('create-database --defaultdb postgres');
    expect(schema).toMatch(/^set -eu$/m);
    const namespace = read('deploy/temporal/namespace.sh');
    expect(namespace).toMatch(/^set -eu$/m);
    for (const name of ['PaycoreCompany', 'PaycoreOperation', 'PaycoreStatus', 'PaycoreBatch'])
      expect(namespace).toContain(name);
  });

  it('the topology run (scripts/topology/run.ts) runs what compose runs', () => {
    const run = read('scripts/topology/run.ts');
    for (const name of [
      'schemaScript',
      'namespaceScript',
      'sqlPlugin',
      'dynamicConfig',
      'apiEntry',
      'workerEntry',
      'nodeEnv',
      'webhookAllowList',
    ])
      expect(run, name).toContain(`STACK.${name}`);
    expect(service('temporal-schema').entrypoint?.[1]).toBe(`/paycore/${TOPOLOGY_STACK.schemaScript}`);
    expect(service('temporal-namespace').entrypoint?.[1]).toBe(`/paycore/${TOPOLOGY_STACK.namespaceScript}`);
    expect(service('temporal-schema').environment?.['SQL_PLUGIN']).toBe(TOPOLOGY_STACK.sqlPlugin);
    expect(service('temporal').environment?.['DB']).toBe(TOPOLOGY_STACK.sqlPlugin);
    const dynamic = TOPOLOGY_STACK.dynamicConfig.split('/');
    expect(service('temporal').volumes).toContain(
      `./${dynamic.slice(0, -1).join('/')}:/etc/temporal/config/dynamicconfig:ro`,
    );
    expect(service('temporal').environment?.['DYNAMIC_CONFIG_FILE_PATH']).toBe(
      `/etc/temporal/config/dynamicconfig/${dynamic.at(-1)}`,
    );
    const compiled = (entry: string) => `dist/${entry.replace(/\.ts$/, '.js')}`;
    expect(service('worker').command).toEqual(['node', compiled(TOPOLOGY_STACK.workerEntry)]);
    expect(read('Dockerfile')).toContain(`CMD ["node", "${compiled(TOPOLOGY_STACK.apiEntry)}"]`);
    for (const name of ['api', 'worker']) {
      expect(service(name).environment?.['NODE_ENV'], name).toBe(TOPOLOGY_STACK.nodeEnv);
      const allowList = TOPOLOGY_STACK.webhookAllowList;
      expect(service(name).environment?.[allowList], name).toBe(`\${${allowList}:-}`);
    }
  });
});
