import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../config/schema.js';
import { stderrProgress } from '../adapters/infra/progress.js';
import { ensureInfrastructure, type Infrastructure } from '../cli/infrastructure.js';
import { workflowsPath } from '../workers/worker.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseAdminUrl: string;
    temporalAddress: string;
    temporalNamespace: string;
    workflowBundlePath: string;
  }
}

let infra: Infrastructure | undefined;

/**
 * Brings up (or reuses) a real PostgreSQL server and a real Temporal server for the whole run, and bundles the
 * workflows once. Each test file then gets its own database and its own task queue (test/helpers).
 */
export async function setup(project: TestProject): Promise<void> {
  const config = loadConfig({ ...process.env, NODE_ENV: 'test' });
  infra = await ensureInfrastructure(config, stderrProgress, { fsync: false });
  const bundlePath = resolve(config.dataDir, 'test-workflow-bundle.js');
  mkdirSync(config.dataDir, { recursive: true });
  stderrProgress('bundling workflows for the test run');
  const { code } = await bundleWorkflowCode({ workflowsPath: workflowsPath() });
  writeFileSync(bundlePath, code);
  project.provide('databaseAdminUrl', infra.adminDatabaseUrl ?? infra.databaseUrl);
  project.provide('temporalAddress', infra.temporalAddress);
  project.provide('temporalNamespace', config.temporal.namespace);
  project.provide('workflowBundlePath', bundlePath);
}

export async function teardown(): Promise<void> {
  await infra?.stop();
}
