import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import type { temporal } from '@temporalio/proto';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { isPortOpen } from '../../adapters/infra/net.js';
import { SEARCH_ATTRIBUTE_NAMES } from '../../domain/search-attributes.js';
import { freePort } from '../../support/server-plan.js';
import { testServerLauncher } from '../tools/temporal-test-server.js';

/** `IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD`, as adapters/infra/temporal-dev-server.ts registers them. */
const KEYWORD = 2 as temporal.api.enums.v1.IndexedValueType;

/**
 * Temporal's time-skipping test server (installed by `scripts/setup.sh --tests`, test/tools/temporal-test-server.ts)
 * with the platform's search attributes registered: timers and activity retry back-offs of hours pass in
 * milliseconds while the test waits on a workflow's result, so a workflow's paths run in seconds with stub activities.
 *
 * The server is started here, not by `TestWorkflowEnvironment.createTimeSkipping`: the SDK gives the process it starts
 * five seconds to accept a connection (a fixed budget in sdk-core's ephemeral server), and this server is a JVM, which
 * on a busy 2-core CI machine took longer ("ephemeral server at 127.0.0.1:38613 did not start within 5s"). Here the
 * wait ends when the server accepts a connection, or when its process exits (its output is in the error).
 */
export async function timeSkippingEnvironment(): Promise<TestWorkflowEnvironment> {
  try {
    Runtime.install({ logger: new DefaultLogger('ERROR'), shutdownSignals: [] });
  } catch {
    // already installed in this test process
  }
  const server = await startTestServer();
  let env: TestWorkflowEnvironment;
  try {
    env = await onTimeSkippingServer(server.address);
  } catch (e) {
    await server.stop();
    throw e;
  }
  const teardown = env.teardown.bind(env);
  env.teardown = async () => {
    try {
      await teardown();
    } finally {
      await server.stop();
    }
  };
  oneResultAtATime(env);
  // The test server answers AddSearchAttributes (not ListSearchAttributes): register them all on its fresh namespace.
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(SEARCH_ATTRIBUTE_NAMES.map((name) => [name, KEYWORD])),
  });
  return env;
}

/**
 * A time-skipping environment on a test server already running at `address`. The SDK's public constructors either
 * start the server themselves (with the five-second budget above) or connect without the test service (no time
 * skipping); its own `create`, which both call, takes an existing server with the test service. It is private in the
 * typings only, so it is called through this one cast (the SDK version is pinned by the lockfile, and the tests of this
 * environment fail at once if it changes).
 */
async function onTimeSkippingServer(address: string): Promise<TestWorkflowEnvironment> {
  const sdk = TestWorkflowEnvironment as unknown as {
    create(opts: {
      server: { type: 'existing' };
      supportsTimeSkipping: boolean;
      address: string;
    }): Promise<TestWorkflowEnvironment>;
  };
  return sdk.create({ server: { type: 'existing' }, supportsTimeSkipping: true, address });
}

/** The test server's launcher on a free port, once it accepts connections. */
async function startTestServer(): Promise<{ address: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(testServerLauncher(), [String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `the time-skipping test server exited (${child.exitCode ?? child.signalCode}) before it listened:\n${output}`,
      );
    if (await isPortOpen('127.0.0.1', port)) return { address: `127.0.0.1:${port}`, stop };
    await Promise.race([sleep(100), exited]);
  }
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
