import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import type { temporal } from '@temporalio/proto';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { SEARCH_ATTRIBUTE_NAMES } from '../../domain/search-attributes.js';
import { testServerLauncher } from '../tools/temporal-test-server.js';

/** `IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD`, as adapters/infra/temporal-dev-server.ts registers them. */
const KEYWORD = 2 as temporal.api.enums.v1.IndexedValueType;

/**
 * Temporal's time-skipping test server (installed by `scripts/setup.sh --tests`, test/tools/temporal-test-server.ts)
 * with the platform's search attributes registered: timers and activity retry back-offs of hours pass in
 * milliseconds while the test waits on a workflow's result, so a workflow's paths run in seconds with stub activities.
 */
export async function timeSkippingEnvironment(): Promise<TestWorkflowEnvironment> {
  try {
    Runtime.install({ logger: new DefaultLogger('ERROR'), shutdownSignals: [] });
  } catch {
    // already installed in this test process
  }
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: testServerLauncher() } },
  });
  // The test server answers AddSearchAttributes (not ListSearchAttributes): register them all on its fresh namespace.
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(SEARCH_ATTRIBUTE_NAMES.map((name) => [name, KEYWORD])),
  });
  return env;
}

/**
 * Runs `body` while a worker with the run's workflow bundle (test/global-setup.ts) and the given activities polls a
 * task queue of its own; the worker stops when `body` settles.
 */
export async function withWorker<T>(
  env: TestWorkflowEnvironment,
  activities: object,
  body: (taskQueue: string) => Promise<T>,
): Promise<T> {
  const taskQueue = `time-skipping-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    activities,
  });
  return worker.runUntil(body(taskQueue));
}
