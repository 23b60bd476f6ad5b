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
  oneResultAtATime(env);
  // The test server answers AddSearchAttributes (not ListSearchAttributes): register them all on its fresh namespace.
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(SEARCH_ATTRIBUTE_NAMES.map((name) => [name, KEYWORD])),
  });
  return env;
}

/**
 * Makes the environment's client await workflow results one at a time. The test server keeps one count of
 * time-skipping locks for the whole server (one held from the start; `result()` unlocks it while it waits and locks
 * again after). Two results awaited at once unlock twice from that one lock: the second unlock takes the lock of a
 * timer task the server is running, whose own release then fails ("Unbalanced lock and unlock calls" in the server's
 * log), and both re-locks leave the count one higher than before. From then on time no longer skips for the rest of
 * the file: a 30-second timer takes 30 real seconds and a 48-hour outage never ends (the 300-s timeouts of the
 * outage tests on a busy machine). A result awaited while another is pending now starts after it.
 */
function oneResultAtATime(env: TestWorkflowEnvironment): void {
  const workflow = env.client.workflow;
  const result = workflow.result.bind(workflow) as (...args: unknown[]) => Promise<unknown>;
  let turn: Promise<unknown> = Promise.resolve();
  (workflow as { result: (...args: unknown[]) => Promise<unknown> }).result = (...args) => {
    const mine = turn.then(() => result(...args));
    turn = mine.catch(() => undefined);
    return mine;
  };
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
