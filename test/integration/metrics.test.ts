import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { companyWithV1Webhook, uploadOne } from '../helpers/v1-journey.js';
import { createDelivery, getEndpoint } from '../../db/repositories/webhooks.repo.js';
import { samplePdf, sampleWav } from '../../support/sample-files.js';
import { startTestWorker, testGateway, uniqueTaskQueue } from '../helpers/temporal.js';
import { until } from '../helpers/until.js';
import { payingClient, startX402Chain, USDC, type X402Chain } from '../../support/x402-harness.js';
import { paidTestRouter, TEST_ROUTE } from '../helpers/x402-paid-route.js';
import { createMetrics } from '../../adapters/metrics/metrics.js';
import { startMetricsServer, type MetricsServer } from '../../adapters/metrics/server.js';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { createFileStore } from '../../adapters/storage/file-store.js';
import { createFileOperationRunners } from '../../adapters/media/operation-runners.js';
import { createSystemResolver } from '../../adapters/webhooks/http-delivery.js';
import { createX402Payments } from '../../api/x402/payment.middleware.js';
import { connectMcp, paymentRequiredOf, payingMcpClient } from '../../support/mcp-client.js';
import { createChainReader } from '../../adapters/chains/index.js';
import { createEvmReader } from '../../adapters/chains/evm/evm-reader.js';
import { createSolanaReader } from '../../adapters/chains/solana/solana-reader.js';
import { EVM_NETWORKS, type EvmNetwork } from '../../domain/networks.js';
import { createEvmTransferScanner } from '../../adapters/chains/evm/evm-transfer-scanner.js';
import { createWatcherActivities } from '../../activities/watcher.activities.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';

/*
 * GET /metrics of an API and of a worker, each its own registry and place (the API's listener behind METRICS_TOKEN, the
 * worker's own listener), scraped before and after a small journey: the counters moved by exactly what the journey did.
 */
const TOKEN = 'metrics-token-0123456789abcdefghijklmnop';
const logs = capturingLogger();
const secretBox = createSecretBox(generateSecretsKey());
const apiMetrics = createMetrics({ process: 'api' });
const workerMetrics = createMetrics({ process: 'worker' });
let tdb: TestDatabase;
let chain: X402Chain;
let gateway: WorkflowGateway;
let app: Awaited<ReturnType<typeof startTestApp>>;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
let workerListener: MetricsServer;
let store: ReturnType<typeof createFileStore>;

beforeAll(async () => {
  await Promise.all([createTestDatabase().then((d) => (tdb = d)), startX402Chain().then((c) => (chain = c))]);
  const storageDir = mkdtempSync(join(tmpdir(), 'metrics-store-'));
  const taskQueue = uniqueTaskQueue('metrics');
  gateway = await testGateway(taskQueue);
  const payments = createX402Payments({
    db: tdb.db,
    logger: logs.logger,
    paymentTimeoutSeconds: 120,
    authorizationState: chain.authorizationState,
    payTo: chain.payTo,
    facilitator: chain.facilitator,
  });
  // The paid MCP tools read the local Base (every EVM network points at it), as the e2e test of the MCP server does.
  const urls = Object.fromEntries(EVM_NETWORKS.map((n) => [n, [chain.node.url]])) as Record<EvmNetwork, string[]>;
  const confirmations = Object.fromEntries(EVM_NETWORKS.map((n) => [n, 2])) as Record<EvmNetwork, number>;
  app = await startTestApp({
    db: tdb.db,
    logger: logs.logger,
    chainReader: createChainReader({
      evm: createEvmReader({ rpcUrls: urls, requiredConfirmations: confirmations, timeoutMs: 30_000, retries: 0 }),
      solana: createSolanaReader({ endpoints: ['http://127.0.0.1:9'], timeoutMs: 500, retries: 0 }),
    }),
    payments,
    config: testConfig({ STORAGE_DIR: storageDir, METRICS_TOKEN: TOKEN }),
    workflows: gateway,
    secretBox,
    routers: [paidTestRouter(payments, { count: 0 })],
    metrics: apiMetrics,
  });
  worker = await startTestWorker(taskQueue, {
    db: tdb.db,
    logger: logs.logger,
    secretBox,
    resolver: createSystemResolver(),
    allowLoopbackForTests: true,
    processing: {
      store: (store = createFileStore(storageDir)),
      runners: createFileOperationRunners(),
      webhookDelaysMs: [200, 200, 200, 200, 200],
    },
    metrics: workerMetrics,
  });
  workerListener = await startMetricsServer({ metrics: workerMetrics, host: '127.0.0.1', port: 0, token: TOKEN });
}, 300_000);
let workerStopped: Promise<void> | undefined;
const stopWorker = () => (workerStopped ??= worker.stop());
afterAll(async () => {
  await workerListener?.close();
  if (worker) await stopWorker();
  await app?.close();
  await gateway?.close();
  await chain?.node.stop();
  await tdb?.drop();
});

type Labels = Record<string, string>;
/** One series' value in a Prometheus text exposition: the sample named `name` whose labels are exactly `labels` (besides `process`). */
function sample(text: string, name: string, labels: Labels): number {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const found: Labels = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) if (l[1] !== 'process') found[l[1]!] = l[2]!;
    const keys = Object.keys(labels);
    if (Object.keys(found).length === keys.length && keys.every((k) => found[k] === labels[k])) return Number(m[3]);
  }
  return 0;
}
const scrape = async (url: string) => {
  const res = await fetch(url, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
};
const apiScrape = () => scrape(`${app.url}/metrics`);
const workerScrape = () => scrape(workerListener.url);

describe('GET /metrics', () => {
  it('is served only behind the token: on the API listener and on the worker listener', async () => {
    for (const url of [`${app.url}/metrics`, workerListener.url]) {
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { Authorization: 'Bearer wrong-token' } })).status).toBe(401);
    }
    // Without METRICS_TOKEN the API serves no /metrics at all (METRICS_PORT serves it apart).
    const plain = await startTestApp({ db: tdb.db, logger: logs.logger });
    try {
      expect((await fetch(`${plain.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('counts a journey exactly: requests by route template, the job and its webhook in the worker, x402 outcomes', async () => {
    const beforeApi = await apiScrape();
    const beforeWorker = await workerScrape();

    // A company with a key and a /v1 webhook whose receiver answers 503 once, then 200.
    const { companyId, auth, receiver, hookId } = await companyWithV1Webhook(tdb.db, secretBox, {
      name: 'Metrics',
      ownerEmail: 'm@metrics.example',
      secret: 'whsec_metrics',
      respond: (_r, i) => (i === 0 ? 503 : 200),
    });
    const uploadId = await uploadOne(app.url, auth, await samplePdf(1), 'a.pdf');
    const submitted = await fetch(`${app.url}/v1/jobs`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'Idempotency-Key': 'metrics-job-1' },
      body: JSON.stringify({
        operation: 'pdf-rotate',
        upload_ids: [uploadId],
        options: { angle: 90 },
        webhook_id: hookId,
      }),
    });
    expect(submitted.status).toBe(202);
    const jobId = ((await submitted.json()) as { id: string }).id;
    let polls = 0;
    await until('the job to complete', async () => {
      polls++;
      const job = (await (await fetch(`${app.url}/v1/jobs/${jobId}`, { headers: auth })).json()) as { status: string };
      return job.status === 'completed' ? true : undefined;
    });
    await receiver.waitForRequests(2);
    // An audio job: its engine runs (ffprobe, ffmpeg) are counted by the worker.
    const wavId = await uploadOne(app.url, auth, sampleWav(2), 'tone.wav');
    const audioRes = await fetch(`${app.url}/v1/jobs`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'Idempotency-Key': 'metrics-audio-1' },
      body: JSON.stringify({ operation: 'audio-trim', upload_ids: [wavId], options: { end: 1 } }),
    });
    expect(audioRes.status).toBe(202);
    const audioId = ((await audioRes.json()) as { id: string }).id;
    await until('the audio job to complete', async () => {
      polls++;
      const job = (await (await fetch(`${app.url}/v1/jobs/${audioId}`, { headers: auth })).json()) as {
        status: string;
      };
      return job.status === 'completed' ? true : undefined;
    });
    // A batch of two items, one of them a PDF damaged after it was measured: one child completes, one fails (its
    // reservation released), the batch ends partial.
    const badId = await uploadOne(app.url, auth, await samplePdf(1), 'bad.pdf');
    writeFileSync(store.pathOf(badId), readFileSync(store.pathOf(badId)).subarray(0, 40));
    const batchRes = await fetch(`${app.url}/v1/batches`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'Idempotency-Key': 'metrics-batch-1' },
      body: JSON.stringify({ operation: 'pdf-rotate', upload_ids: [uploadId, badId], options: { angle: 180 } }),
    });
    expect(batchRes.status).toBe(202);
    const batchId = ((await batchRes.json()) as { id: string }).id;
    await until('the batch to end', async () => {
      const b = (await (await fetch(`${app.url}/v1/batches/${batchId}`, { headers: auth })).json()) as {
        status: string;
      };
      return b.status === 'partial' ? true : undefined;
    });
    const quotes = await tdb.db('jobs').where({ company_id: companyId }).select('status', 'quoted_credits');
    const quoted = (status: string) =>
      quotes.filter((j) => j.status === status).reduce((sum, j) => sum + Number(j.quoted_credits), 0);
    const quotedAll = () => quotes.reduce((sum, j) => sum + Number(j.quoted_credits), 0);
    expect(quotes.map((j) => j.status).sort()).toEqual(['completed', 'completed', 'completed', 'failed']);
    expect((await fetch(`${app.url}/v1/jobs/job_${'A'.repeat(20)}`, { headers: auth })).status).toBe(404);
    expect((await fetch(`${app.url}/v1/no-such-route/raw-path-marker`, { headers: auth })).status).toBe(404);

    // x402: unpaid (402), the paying client's own challenge request (402), paid (200), the same payment again (402
    // payment_replayed).
    const paidUrl = `${app.url}/x402${TEST_ROUTE.path}?tx_hash=0x${'ab'.repeat(32)}`;
    expect((await fetch(paidUrl)).status).toBe(402);
    const signature = await payingClient(chain.payer).sign(paidUrl);
    expect((await fetch(paidUrl, { headers: { 'PAYMENT-SIGNATURE': signature } })).status).toBe(200);
    expect((await fetch(paidUrl, { headers: { 'PAYMENT-SIGNATURE': signature } })).status).toBe(402);

    // The worker's delivery ends after the receiver answered: wait for its count, then read both once.
    await until('the delivery to be counted', async () =>
      sample(await workerScrape(), 'paycore_webhook_deliveries_total', { interface: 'v1', outcome: 'delivered' }) >
      sample(beforeWorker, 'paycore_webhook_deliveries_total', { interface: 'v1', outcome: 'delivered' })
        ? true
        : undefined,
    );
    const afterApi = await apiScrape();
    const afterWorker = await workerScrape();
    const moved = (before: string, after: string, name: string, labels: Labels) =>
      sample(after, name, labels) - sample(before, name, labels);
    const api = (name: string, labels: Labels) => moved(beforeApi, afterApi, name, labels);
    const wrk = (name: string, labels: Labels) => moved(beforeWorker, afterWorker, name, labels);
    const http = (route: string, method: string, status: number, iface = 'v1') =>
      api('paycore_http_requests_total', { interface: iface, route, method, status: String(status) });

    expect(http('/v1/uploads', 'POST', 201)).toBe(3);
    expect(http('/v1/jobs', 'POST', 202)).toBe(2);
    expect(http('/v1/jobs/:id', 'GET', 200)).toBe(polls);
    expect(http('/v1/jobs/:id', 'GET', 404)).toBe(1);
    expect(http('unmatched', 'GET', 404)).toBe(1);
    expect(afterApi).not.toContain('raw-path-marker');
    expect(
      api('paycore_http_request_duration_seconds_count', {
        interface: 'v1',
        route: '/v1/jobs',
        method: 'POST',
        status: '202',
      }),
    ).toBe(2);
    const paidRoute = `/x402${TEST_ROUTE.path}`;
    expect(http(paidRoute, 'GET', 402, 'x402')).toBe(3);
    expect(http(paidRoute, 'GET', 200, 'x402')).toBe(1);
    expect(api('paycore_x402_payments_total', { route: paidRoute, outcome: 'unpaid' })).toBe(2);
    expect(api('paycore_x402_payments_total', { route: paidRoute, outcome: 'paid' })).toBe(1);
    expect(api('paycore_x402_payments_total', { route: paidRoute, outcome: 'replayed' })).toBe(1);
    expect(api('paycore_x402_payments_total', { route: paidRoute, outcome: 'refused' })).toBe(0);
    // The scrapes themselves: the one before, and the ones of this test's `until` never reached the API.
    expect(http('/metrics', 'GET', 200, 'root')).toBe(1);

    expect(wrk('paycore_jobs_finished_total', { operation: 'pdf-rotate', outcome: 'completed' })).toBe(2);
    expect(wrk('paycore_batches_finished_total', { outcome: 'partial' })).toBe(1);
    expect(wrk('paycore_batches_finished_total', { outcome: 'completed' })).toBe(0);
    // Submitted in the API (the two jobs and the batch's two children) and their quotes reserved there, once each.
    expect(api('paycore_jobs_submitted_total', { operation: 'pdf-rotate' })).toBe(3);
    expect(api('paycore_jobs_submitted_total', { operation: 'audio-trim' })).toBe(1);
    expect(api('paycore_credits_total', { movement: 'reserved' })).toBe(quotedAll());
    // The completed jobs' quotes were charged, the failed one's released.
    expect(wrk('paycore_credits_total', { movement: 'charged' })).toBe(quoted('completed'));
    expect(wrk('paycore_credits_total', { movement: 'released' })).toBe(quoted('failed'));
    expect(quoted('failed')).toBeGreaterThan(0);
    expect(wrk('paycore_jobs_finished_total', { operation: 'pdf-rotate', outcome: 'failed' })).toBe(1);
    expect(wrk('paycore_job_queue_wait_seconds_count', { operation: 'pdf-rotate' })).toBe(3);
    expect(wrk('paycore_job_processing_seconds_count', { operation: 'pdf-rotate', outcome: 'completed' })).toBe(2);
    expect(wrk('paycore_webhook_attempts_total', { interface: 'v1', outcome: 'retry' })).toBe(1);
    expect(wrk('paycore_webhook_attempts_total', { interface: 'v1', outcome: 'delivered' })).toBe(1);
    expect(wrk('paycore_webhook_deliveries_total', { interface: 'v1', outcome: 'delivered' })).toBe(1);
    expect(wrk('paycore_webhook_deliveries_total', { interface: 'v1', outcome: 'failed' })).toBe(0);
    // Engine runs: the audio job's one ffmpeg run, the trim (its source was measured by the API at upload; the PDF
    // jobs run none), counted and timed in the worker.
    expect(wrk('paycore_engine_runs_total', { engine: 'ffmpeg', outcome: 'ok' })).toBe(1);
    expect(wrk('paycore_engine_run_seconds_count', { engine: 'ffmpeg', outcome: 'ok' })).toBe(1);
    expect(wrk('paycore_engine_runs_total', { engine: 'ffmpeg', outcome: 'failed' })).toBe(0);
    // Scrape-time gauges (API): nothing queued, running or waiting for delivery once the journey ended; both states and
    // both interfaces are always served.
    for (const state of ['queued', 'processing']) {
      expect(afterApi).toMatch(new RegExp(`^paycore_jobs_in_state\\{state="${state}"[^}]*\\} 0$`, 'm'));
    }
    for (const iface of ['v1', 'proof']) {
      expect(afterApi).toMatch(new RegExp(`^paycore_webhook_backlog\\{interface="${iface}"[^}]*\\} 0$`, 'm'));
      expect(afterApi).toMatch(
        new RegExp(`^paycore_webhook_delivery_lag_seconds\\{interface="${iface}"[^}]*\\} 0$`, 'm'),
      );
    }

    // Each process exposes its own: the API counted no job or delivery, the worker no HTTP request.
    expect(sample(afterApi, 'paycore_jobs_finished_total', { operation: 'pdf-rotate', outcome: 'completed' })).toBe(0);
    expect(afterWorker).not.toContain('paycore_http_requests_total{');
    expect(afterApi).not.toContain(TOKEN);
    expect(logs.text()).not.toContain(TOKEN);
    await receiver.close();
  });

  it('counts MCP paid tool calls by tool and outcome: unpaid, paid, replayed, not charged', async () => {
    const [sender, to] = [chain.node.accounts[5]!, chain.node.accounts[6]!];
    await chain.node.mint(USDC, sender.address, 2_500_000n);
    const tx = await chain.node.transfer(USDC, sender, to.address, 2_500_000n);
    await chain.node.mine(2);
    const before = await apiScrape();
    const mcp = await connectMcp(app.url);
    try {
      const wallet = payingMcpClient(mcp, chain.payer);
      // callPaid: the challenge (unpaid), then the paid call (paid).
      expect((await wallet.callPaid('verify_native_usdc', { tx_hash: tx })).isError).toBeFalsy();
      // The same payment again: replayed.
      const replay = await wallet.call('verify_native_usdc', { tx_hash: tx }, wallet.payments[0]);
      expect(paymentRequiredOf(replay)?.error).toBe('payment_replayed');
      // A transaction the chain does not know: the tool fails after the payment was verified, nothing is charged.
      const missing = await wallet.callPaid('verify_native_usdc', { tx_hash: `0x${'9e'.repeat(32)}` });
      expect(missing.isError).toBe(true);
      expect(JSON.parse((missing.content[0] as { text: string }).text)).toMatchObject({ charged: false });
    } finally {
      await mcp.close();
    }
    const after = await apiScrape();
    const tool = (outcome: string) =>
      sample(after, 'paycore_mcp_tool_calls_total', { tool: 'verify_native_usdc', outcome }) -
      sample(before, 'paycore_mcp_tool_calls_total', { tool: 'verify_native_usdc', outcome });
    expect(tool('unpaid')).toBe(2);
    expect(tool('paid')).toBe(1);
    expect(tool('replayed')).toBe(1);
    expect(tool('not_charged')).toBe(1);
    expect(tool('refused')).toBe(0);
  });

  it("serves the payment watcher's lag behind each chain's final head, in blocks and in seconds, at scrape time", async () => {
    const confirmations = Object.fromEntries(EVM_NETWORKS.map((n) => [n, 2])) as Record<EvmNetwork, number>;
    const watcher = createWatcherActivities({
      db: tdb.db,
      evm: createEvmTransferScanner({
        rpcUrls: { base: [chain.node.url] },
        requiredConfirmations: confirmations,
        timeoutMs: 30_000,
        retries: 0,
      }),
    });
    const lagOf = (text: string) => ({
      blocks: sample(text, 'paycore_watcher_lag_blocks', { network: 'base' }),
      seconds: sample(text, 'paycore_watcher_lag_seconds', { network: 'base' }),
    });
    // A first scan starts at the final head: caught up.
    const firstStarted = Date.now();
    expect((await watcher.scanNetwork({ network: 'base', maxBlocks: 4 })).caughtUp).toBe(true);
    const firstDone = Date.now();
    const caughtUp = lagOf(await apiScrape());
    expect(caughtUp.blocks).toBe(0);
    expect(caughtUp.seconds).toBeLessThanOrEqual((Date.now() - firstStarted) / 1000 + 1);
    // Ten new final blocks, a scan of four of them: six behind, and behind since the first scan caught up.
    await chain.node.mine(10);
    const behind = await watcher.scanNetwork({ network: 'base', maxBlocks: 4 });
    expect(behind.caughtUp).toBe(false);
    const scrapeStarted = Date.now();
    const lag = lagOf(await apiScrape());
    expect(lag.blocks).toBe(6);
    expect(lag.seconds).toBeGreaterThanOrEqual((scrapeStarted - firstDone) / 1000 - 1);
    expect(lag.seconds).toBeLessThanOrEqual((Date.now() - firstStarted) / 1000 + 1);
    // The rest scanned: caught up again.
    const againStarted = Date.now();
    expect((await watcher.scanNetwork({ network: 'base', maxBlocks: 100 })).caughtUp).toBe(true);
    const again = lagOf(await apiScrape());
    expect(again.blocks).toBe(0);
    expect(again.seconds).toBeLessThanOrEqual((Date.now() - againStarted) / 1000 + 1);
    // Only watched networks are served.
    expect(await apiScrape()).not.toMatch(/^paycore_watcher_lag_blocks\{network="solana"/m);
  });

  it('counts cancels and their released credits, and serves the gauges above zero at exact values', async () => {
    // No worker from here on: submitted jobs stay queued, and a queued webhook delivery stays pending.
    await stopWorker();
    const beforeApi = await apiScrape();
    const { companyId, auth, receiver, hookId } = await companyWithV1Webhook(tdb.db, secretBox, {
      name: 'Metrics gauges',
      ownerEmail: 'g@metrics.example',
      secret: 'whsec_gauges',
    });
    const uploadId = await uploadOne(app.url, auth, await samplePdf(1), 'g.pdf');
    const post = async (path: string, key: string, body: unknown) => {
      const res = await fetch(`${app.url}${path}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { id: string; cancelled_job_ids?: string[] } };
    };
    const rotate = { operation: 'pdf-rotate', upload_ids: [uploadId], options: { angle: 90 } };
    const kept = await post('/v1/jobs', 'gauges-kept', rotate);
    const cancelled = await post('/v1/jobs', 'gauges-cancelled', rotate);
    const batch = await post('/v1/batches', 'gauges-batch', { ...rotate, upload_ids: [uploadId, uploadId] });
    expect([kept.status, cancelled.status, batch.status]).toEqual([202, 202, 202]);
    expect((await post(`/v1/jobs/${cancelled.body.id}/cancel`, 'c1', {})).status).toBe(200);
    // A second cancel of the same job is 409 and releases nothing again.
    expect((await post(`/v1/jobs/${cancelled.body.id}/cancel`, 'c2', {})).status).toBe(409);
    const batchCancel = await post(`/v1/batches/${batch.body.id}/cancel`, 'c3', {});
    expect(batchCancel.status).toBe(200);
    expect(batchCancel.body.cancelled_job_ids).toHaveLength(2);

    // A webhook delivery held back (no dispatcher runs now), queued 90 seconds ago.
    const endpoint = (await getEndpoint(tdb.db, hookId))!;
    const { delivery } = await createDelivery(tdb.db, {
      endpoint,
      eventId: 'evt_gauges_1',
      eventType: 'job.completed',
      body: Buffer.from('{}'),
      maxAttempts: 3,
    });
    await tdb
      .db('webhook_deliveries')
      .where({ id: delivery.id })
      .update({ created_at: tdb.db.raw("now() - interval '90 seconds'") });
    const heldSince = Date.now();

    const afterApi = await apiScrape();
    const api = (name: string, labels: Labels) => sample(afterApi, name, labels) - sample(beforeApi, name, labels);
    const quotes = await tdb.db('jobs').where({ company_id: companyId }).select('status', 'quoted_credits');
    expect(quotes.map((j) => j.status).sort()).toEqual(['cancelled', 'cancelled', 'cancelled', 'queued']);
    const quoted = (status: string) =>
      quotes.filter((j) => j.status === status).reduce((sum, j) => sum + Number(j.quoted_credits), 0);
    expect(quoted('cancelled')).toBeGreaterThan(0);

    expect(api('paycore_jobs_submitted_total', { operation: 'pdf-rotate' })).toBe(4);
    expect(api('paycore_credits_total', { movement: 'reserved' })).toBe(quoted('cancelled') + quoted('queued'));
    // Cancelled in the API: the job and the batch's two items, once each, their quotes released there.
    expect(api('paycore_jobs_cancelled_total', { operation: 'pdf-rotate' })).toBe(3);
    expect(api('paycore_credits_total', { movement: 'released' })).toBe(quoted('cancelled'));

    // The scrape-time gauges, above zero: the one job still queued, the one delivery held back and its age.
    expect(sample(afterApi, 'paycore_jobs_in_state', { state: 'queued' })).toBe(1);
    expect(sample(afterApi, 'paycore_jobs_in_state', { state: 'processing' })).toBe(0);
    expect(sample(afterApi, 'paycore_webhook_backlog', { interface: 'v1' })).toBe(1);
    expect(sample(afterApi, 'paycore_webhook_backlog', { interface: 'proof' })).toBe(0);
    const lag = sample(afterApi, 'paycore_webhook_delivery_lag_seconds', { interface: 'v1' });
    expect(lag).toBeGreaterThanOrEqual(90);
    expect(lag).toBeLessThanOrEqual(90 + (Date.now() - heldSince) / 1000 + 1);
    expect(sample(afterApi, 'paycore_webhook_delivery_lag_seconds', { interface: 'proof' })).toBe(0);
    await receiver.close();
  });
});
