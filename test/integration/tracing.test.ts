import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { bundleWorkflowCode } from '@temporalio/worker';
import { activeTracing, startTracing } from '../../adapters/tracing/tracing.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { companyWithV1Webhook, uploadOne } from '../helpers/v1-journey.js';
import { sampleWav } from '../../support/sample-files.js';
import { TEST_DELIVERY_TIMEOUTS, testGateway, uniqueTaskQueue } from '../helpers/temporal.js';
import { until } from '../helpers/until.js';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { createFileStore } from '../../adapters/storage/file-store.js';
import { createFileOperationRunners } from '../../adapters/media/operation-runners.js';
import { createSystemResolver } from '../../adapters/webhooks/http-delivery.js';
import { createPlatformWorker, workflowsPath, type PlatformWorker } from '../../workers/worker.js';
import { OTEL_WORKFLOW_INTERCEPTORS } from '../../workers/temporal-tracing.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';
import type { NativeConnection } from '@temporalio/worker';

/*
 * One trace from the HTTP request that submits a job, through its workflow start, the workflow and its activity, to the
 * engine child process (ffmpeg) and the webhook POST, exported in process (InMemorySpanExporter); its id is on the
 * job's row, in the workflow's memo and in the log lines of that work.
 */
const exporter = new InMemorySpanExporter();
const logs = capturingLogger();
const secretBox = createSecretBox(generateSecretsKey());
let tdb: TestDatabase;
let gateway: WorkflowGateway;
let app: Awaited<ReturnType<typeof startTestApp>>;
let worker: PlatformWorker;
let connection: NativeConnection;
let running: Promise<void>;

beforeAll(async () => {
  // First, as the entry points do: the app, the gateway and the worker below are built traced.
  startTracing({ serviceName: 'paycore-test', env: {}, spanProcessor: new SimpleSpanProcessor(exporter) });
  const [db, bundle] = await Promise.all([
    createTestDatabase(),
    bundleWorkflowCode({ workflowsPath: workflowsPath(), workflowInterceptorModules: [OTEL_WORKFLOW_INTERCEPTORS] }),
  ]);
  tdb = db;
  const storageDir = mkdtempSync(join(tmpdir(), 'tracing-store-'));
  const taskQueue = uniqueTaskQueue('tracing');
  gateway = await testGateway(taskQueue);
  app = await startTestApp({
    db: tdb.db,
    logger: logs.logger,
    config: testConfig({ STORAGE_DIR: storageDir }),
    workflows: gateway,
    secretBox,
  });
  ({ worker, connection } = await createPlatformWorker({
    address: inject('temporalAddress'),
    namespace: inject('temporalNamespace'),
    taskQueue,
    activityDeps: {
      db: tdb.db,
      logger: logs.logger,
      secretBox,
      resolver: createSystemResolver(),
      allowLoopbackForTests: true,
      timeouts: TEST_DELIVERY_TIMEOUTS,
      processing: { store: createFileStore(storageDir), runners: createFileOperationRunners() },
    },
    workflowBundle: { code: bundle.code },
    shutdownGraceMs: 5000,
  }));
  running = worker.run();
}, 300_000);
afterAll(async () => {
  if (worker?.getState() === 'RUNNING') worker.shutdown();
  await running;
  await connection?.close();
  await app?.close();
  await gateway?.close();
  await activeTracing()?.shutdown();
  await tdb?.drop();
});

const hex = (s: ReadableSpan) => s.spanContext().spanId;
/** The chain of spans from `span` up to its root, as names. */
function ancestry(spans: ReadableSpan[], span: ReadableSpan): ReadableSpan[] {
  const byId = new Map(spans.map((s) => [hex(s), s]));
  const chain = [span];
  for (let p = span.parentSpanId; p && byId.has(p); p = byId.get(p)!.parentSpanId) chain.push(byId.get(p)!);
  return chain.reverse();
}

describe('traces', () => {
  it('one trace runs from POST /v1/jobs through the workflow and its activity to ffmpeg and the webhook POST', async () => {
    const { auth, receiver, hookId } = await companyWithV1Webhook(tdb.db, secretBox, {
      name: 'Traced',
      ownerEmail: 't@traced.example',
      secret: 'whsec_traced',
    });
    const uploadId = await uploadOne(app.url, auth, sampleWav(2), 'tone.wav');
    const submitted = await fetch(`${app.url}/v1/jobs`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'Idempotency-Key': 'traced-job-1' },
      body: JSON.stringify({
        operation: 'audio-trim',
        upload_ids: [uploadId],
        options: { end: 1 },
        webhook_id: hookId,
      }),
    });
    const submittedBody = (await submitted.json()) as { id: string };
    expect(submitted.status, JSON.stringify(submittedBody)).toBe(202);
    const jobId = submittedBody.id;
    await until(
      'the job to complete',
      async () => {
        const job = (await (await fetch(`${app.url}/v1/jobs/${jobId}`, { headers: auth })).json()) as {
          status: string;
        };
        return job.status === 'completed' ? true : undefined;
      },
      240_000,
    );
    await receiver.waitForRequests(1);

    // The job's row names its trace; the webhook POST carries it (W3C traceparent).
    const row = (await tdb.db('jobs').where({ id: jobId }).first()) as { trace_id: string | null };
    expect(row.trace_id).toMatch(/^[0-9a-f]{32}$/);
    const traceId = row.trace_id!;
    const traceparent = String(receiver.requests[0]!.headers['traceparent']);
    expect(traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-0[01]$`));
    // The workflow's memo too (Temporal UI).
    const described = await gateway.client.workflow.getHandle(`job:${jobId}`).describe();
    expect(await described.memo).toMatchObject({ traceId });

    // The workflow's span ends with the workflow, a moment after the job's row says completed.
    const ended = (name: string) =>
      exporter.getFinishedSpans().some((s) => s.name === name && s.spanContext().traceId === traceId);
    await until('the webhook POST and workflow spans to end', () =>
      ended('webhook POST') && ended('RunWorkflow:processingJobWorkflow') ? true : undefined,
    );
    const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
    const engine = spans.find((s) => s.name === 'engine ffmpeg');
    expect(engine, spans.map((s) => s.name).join(', ')).toBeDefined();
    const path = ancestry(spans, engine!);
    const chain = path.map((s) => s.name);
    // request → workflow start → workflow → activity → engine
    const at = (re: RegExp) => chain.findIndex((n) => re.test(n));
    // (The test's own fetch is a client span above it: undici is instrumented in this process too.)
    const request = path.findIndex((s) => s.kind === SpanKind.SERVER);
    const start = at(/^StartWorkflow:processingJobWorkflow$/);
    const workflow = at(/^RunWorkflow:processingJobWorkflow$/);
    const activity = at(/^RunActivity:runJobOperation$/);
    const run = chain.length - 1;
    expect(request, chain.join(' > ')).toBeGreaterThanOrEqual(0);
    expect(start).toBeGreaterThan(request);
    expect(workflow).toBeGreaterThan(start);
    expect(activity).toBeGreaterThan(workflow);
    expect(run).toBeGreaterThan(activity);
    // The request span is the server's, named by its route template.
    const server = path[request]!;
    expect({ name: server.name, kind: server.kind, route: server.attributes['http.route'] }).toEqual({
      name: 'POST /v1/jobs',
      kind: SpanKind.SERVER,
      route: '/v1/jobs',
    });
    // The webhook POST is a span of the same trace, and the receiver's traceparent names it (or its HTTP child).
    const post = spans.find((s) => s.name === 'webhook POST')!;
    const postTree = spans.filter((s) => ancestry(spans, s).includes(post)).map(hex);
    expect(postTree).toContain(traceparent.split('-')[2]);

    // The log lines of that work carry the trace id: the request's line (API) and the webhook attempt's (worker).
    const lines = logs.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const submitLine = lines.find((l) => l['msg'] === 'request' && l['method'] === 'POST' && l['path'] === '/v1/jobs');
    expect(submitLine?.['trace_id']).toBe(traceId);
    const attemptLine = lines.find((l) => l['msg'] === 'webhook attempt');
    expect(attemptLine?.['trace_id'], JSON.stringify(attemptLine)).toBe(traceId);
    await receiver.close();
  });
});
