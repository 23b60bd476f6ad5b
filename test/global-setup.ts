import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../config/schema.js';
import { stderrProgress } from '../adapters/infra/progress.js';
import { ensureInfrastructure, type Infrastructure } from '../cli/infrastructure.js';
import { workflowsPath } from '../workers/worker.js';
import { planServers, type ServerPlan } from '../support/server-plan.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseAdminUrl: string;
    temporalAddress: string;
    temporalNamespace: string;
    workflowBundlePath: string;
  }
}

let infra: Infrastructure | undefined;
let plan: ServerPlan | undefined;

/**
 * Brings up a real PostgreSQL server and a real Temporal server for the whole run (configured ones are reused;
 * servers it starts itself get free ports and DATA_DIR/test, see support/server-plan.ts), and bundles the workflows
 * once. Each test file then gets its own database and its own task queue (test/helpers).
 */
export async function setup(project: TestProject): Promise<void> {
  plan = await planServers(process.env, 'test', stderrProgress);
  try {
    let config;
    for (let attempt = 1; ; attempt++) {
      config = loadConfig({ ...process.env, ...(await plan.overrides()), NODE_ENV: 'test' });
      try {
        infra = await ensureInfrastructure(config, stderrProgress, { fsync: false });
        break;
      } catch (e) {
        // A port that was free a moment ago may have been taken before the server bound it: new ports, once more.
        if (!plan.choosesPorts || attempt >= 3) throw e;
        stderrProgress(`test servers did not start (${String(e).slice(0, 200)}); trying other free ports`);
      }
    }
    const bundlePath = resolve(config.dataDir, 'test-workflow-bundle.js');
    mkdirSync(config.dataDir, { recursive: true });
    stderrProgress('bundling workflows for the test run');
    const { code } = await bundleWorkflowCode({ workflowsPath: workflowsPath() });
    writeFileSync(bundlePath, code);
    project.provide('databaseAdminUrl', infra.adminDatabaseUrl ?? infra.databaseUrl);
    project.provide('temporalAddress', infra.temporalAddress);
    project.provide('temporalNamespace', config.temporal.namespace);
    project.provide('workflowBundlePath', bundlePath);
  } catch (e) {
    await teardown();
    throw e;
  }
}

export async function teardown(): Promise<void> {
  await infra?.stop();
  infra = undefined;
  plan?.release();
  plan = undefined;
}
