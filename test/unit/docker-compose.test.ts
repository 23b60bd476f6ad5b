import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * docker-compose.yml, read as Docker Compose reads it (there is no Docker engine here to ask): no port of
 * Temporal (frontend, UI) or PostgreSQL may be published beyond the loopback interface. Anyone who reaches
 * Temporal's frontend or UI can terminate `job:` workflows or re-run deliveries; the databases hold everything.
 */
const COMPOSE = fileURLToPath(new URL('../../docker-compose.yml', import.meta.url));

/** Compose's variable interpolation with an empty environment: `${VAR:-default}` and `${VAR-default}` give the default. */
function interpolate(value: string): string {
  return value
    .replace(/\$\{(\w+)(?::?[-?]([^}]*))?\}/g, (_m, _name: string, fallback: string | undefined) => fallback ?? '')
    .replace(/\$\$/g, '$');
}

interface Published {
  hostIp: string;
  published: string;
  target: string;
}

/** Every published port of a service, short ("[ip:][host:]container[/proto]") or long syntax. */
function publishedPorts(ports: unknown): Published[] {
  if (ports === undefined) return [];
  expect(Array.isArray(ports)).toBe(true);
  return (ports as unknown[]).map((p) => {
    if (typeof p === 'object' && p !== null) {
      const long = p as { host_ip?: string; published?: string | number; target: string | number };
      return {
        hostIp: interpolate(String(long.host_ip ?? '')),
        published: interpolate(String(long.published ?? '')),
        target: String(long.target),
      };
    }
    const spec = interpolate(String(p)).replace(/\/(tcp|udp|sctp)$/, '');
    // An IPv6 host address is written in brackets: [::1]:8233:8080.
    const m = /^(?:(\[[^\]]+\]|[^:]*):)?(?:([^:]*):)?([^:]+)$/.exec(spec);
    expect(m, `port ${String(p)}`).not.toBeNull();
    const [, a, b, target] = m!;
    // Two parts are host:container; three are ip:host:container.
    return b === undefined
      ? { hostIp: '', published: a ?? '', target: target! }
      : { hostIp: (a ?? '').replace(/^\[|\]$/g, ''), published: b, target: target! };
  });
}

const LOOPBACK = new Set(['127.0.0.1', '::1']);

describe('docker-compose.yml', () => {
  const compose = parse(readFileSync(COMPOSE, 'utf8'), { merge: true }) as {
    services: Record<
      string,
      {
        image?: string;
        ports?: unknown;
        network_mode?: string;
        container_name?: string;
        depends_on?: Record<string, { condition: string }> | string[];
      }
    >;
  };
  const services = Object.entries(compose.services);

  it('publishes no port of Temporal or PostgreSQL beyond 127.0.0.1', () => {
    const guarded = services.filter(([, s]) => /^(postgres|temporalio\/)/.test(s.image ?? ''));
    expect(guarded.map(([name]) => name).sort()).toEqual([
      'postgres',
      'temporal',
      'temporal-namespace',
      'temporal-postgres',
      'temporal-schema',
      'temporal-ui',
    ]);
    for (const [name, service] of guarded) {
      expect(service.network_mode, name).toBeUndefined();
      for (const port of publishedPorts(service.ports))
        expect(
          LOOPBACK.has(port.hostIp),
          `${name} publishes ${port.published}:${port.target} on "${port.hostIp || 'all interfaces'}"`,
        ).toBe(true);
    }
  });

  it('keeps the Temporal frontend and UI reachable from the host itself (for an SSH tunnel)', () => {
    const byName = Object.fromEntries(services);
    expect(publishedPorts(byName['temporal']!.ports)).toEqual([
      { hostIp: '127.0.0.1', published: '7233', target: '7233' },
    ]);
    expect(publishedPorts(byName['temporal-ui']!.ports)).toEqual([
      { hostIp: '127.0.0.1', published: '8233', target: '8080' },
    ]);
  });

  it('publishes the API on loopback unless the operator chooses an address (a TLS proxy in front is the way in)', () => {
    const api = Object.fromEntries(services)['api']!;
    expect(publishedPorts(api.ports)).toEqual([{ hostIp: '127.0.0.1', published: '8080', target: '8080' }]);
  });

  it('reads the port syntaxes Compose accepts', () => {
    expect(
      publishedPorts([
        '8080:80',
        '127.0.0.1:8233:8080',
        '[::1]:7233:7233/tcp',
        '9000',
        { target: 80, published: 8081, host_ip: '127.0.0.1' },
        '${BIND:-127.0.0.1}:1:2',
      ]),
    ).toEqual([
      { hostIp: '', published: '8080', target: '80' },
      { hostIp: '127.0.0.1', published: '8233', target: '8080' },
      { hostIp: '::1', published: '7233', target: '7233' },
      { hostIp: '', published: '', target: '9000' },
      { hostIp: '127.0.0.1', published: '8081', target: '80' },
      { hostIp: '127.0.0.1', published: '1', target: '2' },
    ]);
  });

  it('runs the maintained Temporal server image after a one-shot schema setup, and the app after the namespace exists', () => {
    const byName = Object.fromEntries(services);
    expect(services.filter(([, s]) => /auto-setup/.test(s.image ?? ''))).toEqual([]);
    expect(byName['temporal']!.image).toMatch(/^temporalio\/server:/);
    expect(byName['temporal-schema']!.image).toMatch(/^temporalio\/admin-tools:/);
    expect(byName['temporal']!.depends_on).toEqual({
      'temporal-schema': { condition: 'service_completed_successfully' },
    });
    for (const app of ['api', 'worker'])
      expect(byName[app]!.depends_on).toMatchObject({
        'temporal-namespace': { condition: 'service_completed_successfully' },
      });
  });

  it('lets `docker compose up --scale worker=N` start several workers (no fixed name, no published port)', () => {
    const worker = Object.fromEntries(services)['worker']!;
    expect(worker.container_name).toBeUndefined();
    expect(publishedPorts(worker.ports)).toEqual([]);
  });
});
