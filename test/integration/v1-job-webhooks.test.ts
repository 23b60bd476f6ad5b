import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileOperationRunners } from '../../adapters/media/operation-runners.js';
import type { OperationRunners } from '../../adapters/media/runner-contract.js';
import { InvalidSourceError } from '../../adapters/providers/provider-errors.js';
import { DELIVERY_PROFILES } from '../../domain/webhooks.js';
import * as jobsRepo from '../../db/repositories/jobs.repo.js';
import { terminalEventId } from '../../db/repositories/v1-events.repo.js';
import {
  createEndpoint,
  listAttempts,
  setEndpointStatus,
  type WebhookEndpoint,
} from '../../db/repositories/webhooks.repo.js';
import { ProcessingHarness, type JobJson, type TestCompany } from '../helpers/processing.js';
import { Conformance, obj } from '../helpers/openapi-conformance.js';
import { startReceiver, verifyReceived, type ReceivedRequest } from '../helpers/receiver.js';
import { samplePdf } from '../../support/sample-files.js';

/**
 * `/v1` job webhooks (spec section 6, docs/webhooks.md "/v1 job and batch events") on real PostgreSQL, Temporal, a
 * worker and a local receiver that verifies every signature with the webhook's secret: `job.completed` and
 * `job.failed` recorded with the job's terminal transition and delivered once by the dispatcher, retried in `delivery:<id>` after
 * a 5xx on the (shortened) /v1 schedule, and nothing more for a disabled webhook. No secret in logs or histories.
 */

/** Held `pdf-extract` runs: the test decides when each finishes. */
const gates: Array<() => void> = [];
const real = createFileOperationRunners();
const runners: OperationRunners = {
  ...real,
  'pdf-number': async () => {
    throw new InvalidSourceError('the PDF could not be numbered');
  },
  'pdf-extract': async (input) => {
    await new Promise<void>((release) => gates.push(release));
    return real['pdf-extract'](input);
  },
};

const DELAYS_MS = [50, 50, 50, 50, 50];
const h = new ProcessingHarness();
let acme: TestCompany;
let document: Conformance;
let seq = 0;

beforeAll(async () => {
  await h.start({ runners, webhookDelaysMs: DELAYS_MS });
  acme = await h.company('Hooks');
  document = new Conformance((await (await fetch(`${h.app.url}/v1/openapi.json`)).json()) as Record<string, unknown>);
});
afterAll(() => h.stop());

async function webhook(company: TestCompany, url: string): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const secret = `whsec_test_${++seq}_${Math.random().toString(36).slice(2)}`;
  const endpoint = await createEndpoint(h.tdb.db, {
    interface: 'v1',
    tenantId: company.id,
    url,
    events: [],
    secretSealed: h.secretBox.seal(secret),
  });
  return { endpoint, secret };
}

interface DeliveryRow {
  id: string;
  status: string;
  attempts: number;
  event_id: string;
  event_type: string;
  body: Buffer;
}

/** The deliveries of the job's terminal event (recorded in the transaction that ended the job). */
const deliveriesOf = (jobId: string): Promise<DeliveryRow[]> =>
  h.tdb.db('webhook_deliveries').where({ event_id: terminalEventId({ jobId }) });

/** Waits (polling, with a deadline) until the job's delivery has ended, then until the job's workflow has closed. */
async function settled(jobId: string): Promise<DeliveryRow> {
  const until = Date.now() + 120_000;
  for (;;) {
    const rows = await deliveriesOf(jobId);
    if (rows.length === 1 && (rows[0]!.status === 'delivered' || rows[0]!.status === 'failed')) {
      await h.gateway.client.workflow.getHandle(`job:${jobId}`).result();
      return rows[0]!;
    }
    if (Date.now() > until) throw new Error(`delivery of ${jobId}: ${JSON.stringify(rows.map((r) => r.status))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The documented request body schema of the webhook `type`. */
const eventSchema = (type: string) =>
  obj(obj(obj(obj(obj(obj(document.doc['webhooks'])[type])['post'])['requestBody'])['content'])['application/json'])[
    'schema'
  ];

function expectSignedEvent(req: ReceivedRequest, secret: string, type: string): Record<string, unknown> {
  expect(verifyReceived(req, secret)).toEqual({ ok: true });
  expect(req.headers['content-type']).toBe('application/json');
  expect(req.headers['x-service-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
  expect(req.headers['x-service-delivery-id']).toBeUndefined(); // /proof's headers only
  const body = JSON.parse(req.body.toString()) as Record<string, unknown>;
  expect(req.headers['x-service-event-id']).toBe(body['id']);
  document.expectValid(eventSchema(type), body, `${type} body`);
  const headers = obj(obj(obj(document.doc['webhooks'])[type])['post'])['parameters'] as Array<{
    name: string;
    schema: unknown;
  }>;
  for (const p of headers) document.expectValid(p.schema, req.headers[p.name.toLowerCase()], `header ${p.name}`);
  return body;
}

/** The `job` of the event: the job as `GET /v1/jobs/{id}` shows it, minus options and file names. */
function expectedJob(job: JobJson) {
  return {
    id: job.id,
    status: job.status,
    operation: job.operation,
    batch_id: null,
    upload_ids: job.upload_ids,
    estimated_credits: job.estimated_credits,
    charged_credits: job.charged_credits,
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
    error: job.error,
    error_code: job.error_code,
    result: job.result
      ? {
          files: job.result.files.map((f, index) => ({
            index,
            download_path: f.download_path,
            bytes: f.bytes,
            content_type: f.content_type,
          })),
          expires_at: job.result.expires_at,
        }
      : null,
  };
}

describe('job.completed and job.failed', () => {
  it('job.completed: delivered once, signed, {id, type, created_at, job} without the password or the file name', async () => {
    const receiver = await startReceiver(() => 200);
    const { endpoint, secret } = await webhook(acme, receiver.url);
    const password = 'Pdf-Password-Never-Sent-7781';
    const pdf = await h.upload(acme.key, 'Salary review Q4 - confidential.pdf', await samplePdf(2));
    const submitted = await h.submitOk(acme.key, {
      operation: 'pdf-protect',
      upload_ids: [pdf],
      options: { password },
      webhook_id: endpoint.id,
    });
    expect(submitted.webhook_id).toBe(endpoint.id);
    const job = await h.waitForJob(acme.key, submitted.id);
    expect(job.status).toBe('completed');
    const delivery = await settled(job.id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, event_type: 'job.completed' });

    expect(receiver.requests).toHaveLength(1);
    const body = expectSignedEvent(receiver.requests[0]!, secret, 'job.completed');
    expect(body).toEqual({
      id: terminalEventId({ jobId: job.id }),
      type: 'job.completed',
      created_at: job.finished_at,
      job: expectedJob(job),
    });
    // What a receiver gets leaks nothing the company did not choose to share.
    const raw = receiver.requests[0]!.body.toString();
    for (const privateText of [password, 'Salary', 'confidential', secret]) expect(raw).not.toContain(privateText);
    // The result path still needs the API key.
    const path = (body['job'] as { result: { files: Array<{ download_path: string }> } }).result.files[0]!
      .download_path;
    expect((await fetch(`${h.app.url}${path}`)).status).toBe(401);
    expect((await h.download(acme.key, path)).status).toBe(200);
    await receiver.close();
  });

  it('job.failed: delivered once with the error and its code, nothing charged', async () => {
    const receiver = await startReceiver(() => 204);
    const { endpoint, secret } = await webhook(acme, receiver.url);
    const pdf = await h.upload(acme.key, 'will-fail.pdf', await samplePdf(1));
    const submitted = await h.submitOk(acme.key, {
      operation: 'pdf-number',
      upload_ids: [pdf],
      webhook_id: endpoint.id,
    });
    const job = await h.waitForJob(acme.key, submitted.id);
    expect(job).toMatchObject({ status: 'failed', error_code: 'invalid_source' });
    expect(await settled(job.id)).toMatchObject({ status: 'delivered', attempts: 1, event_type: 'job.failed' });
    expect(receiver.requests).toHaveLength(1);
    const body = expectSignedEvent(receiver.requests[0]!, secret, 'job.failed');
    expect(body).toEqual({
      id: terminalEventId({ jobId: job.id }),
      type: 'job.failed',
      created_at: job.finished_at,
      job: expectedJob(job),
    });
    expect(body['job']).toMatchObject({ charged_credits: 0, result: null, error: 'the PDF could not be numbered' });
    await receiver.close();
  });

  it('a job without webhook_id records no event', async () => {
    const pdf = await h.upload(acme.key, 'quiet.pdf', await samplePdf(1));
    const job = await h.submitOk(acme.key, { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 90 } });
    expect(job.webhook_id).toBeNull();
    await h.waitForJob(acme.key, job.id);
    await h.gateway.client.workflow.getHandle(`job:${job.id}`).result();
    expect(await deliveriesOf(job.id)).toEqual([]);
  });
});

describe('retries and disabling', () => {
  it('a 500 is retried on the /v1 schedule (shortened here) with the same event id and fresh signatures, then delivered', async () => {
    const receiver = await startReceiver((_req, i) => (i < 2 ? 500 : 200));
    const { endpoint, secret } = await webhook(acme, receiver.url);
    const pdf = await h.upload(acme.key, 'retry.pdf', await samplePdf(1));
    const job = await h.submitOk(acme.key, {
      operation: 'pdf-rotate',
      upload_ids: [pdf],
      options: { angle: 180 },
      webhook_id: endpoint.id,
    });
    const delivery = await settled(job.id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3 });
    expect(receiver.requests).toHaveLength(3);
    for (const req of receiver.requests) expectSignedEvent(req, secret, 'job.completed');
    expect(new Set(receiver.requests.map((r) => r.headers['x-service-event-id'])).size).toBe(1);
    expect(receiver.requests.every((r) => r.body.equals(receiver.requests[0]!.body))).toBe(true);
    expect((await listAttempts(h.tdb.db, delivery.id)).map((a) => [a.attemptNo, a.outcome, a.statusCode])).toEqual([
      [1, 'retry', 500],
      [2, 'retry', 500],
      [3, 'delivered', 200],
    ]);
    // The workflow waited per the injected schedule; production's /v1 profile is 6 attempts 60/120/240/480/960 s apart.
    expect(DELIVERY_PROFILES.v1).toMatchObject({ maxAttempts: 6, delaysSeconds: [60, 120, 240, 480, 960] });
    await receiver.close();
  });

  it('a webhook disabled between attempts gets nothing more (checked at each attempt)', async () => {
    let endpointId = '';
    const receiver = await startReceiver(async () => {
      await setEndpointStatus(h.tdb.db, endpointId, 'disabled'); // disabled while the first attempt is on the wire
      return 503;
    });
    const { endpoint } = await webhook(acme, receiver.url);
    endpointId = endpoint.id;
    const pdf = await h.upload(acme.key, 'disable.pdf', await samplePdf(1));
    const job = await h.submitOk(acme.key, {
      operation: 'pdf-rotate',
      upload_ids: [pdf],
      options: { angle: 90 },
      webhook_id: endpoint.id,
    });
    const delivery = await settled(job.id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 2 });
    expect(receiver.requests).toHaveLength(1);
    expect((await listAttempts(h.tdb.db, delivery.id)).map((a) => [a.outcome, a.errorClass])).toEqual([
      ['retry', null],
      ['terminal', 'endpoint_disabled'],
    ]);
    await receiver.close();
  });

  it('a webhook disabled while its job runs gets no event at all (checked when the event is recorded)', async () => {
    const receiver = await startReceiver(() => 200);
    const { endpoint } = await webhook(acme, receiver.url);
    const pdf = await h.upload(acme.key, 'held.pdf', await samplePdf(2));
    const job = await h.submitOk(acme.key, {
      operation: 'pdf-extract',
      upload_ids: [pdf],
      options: { pages: '1' },
      webhook_id: endpoint.id,
    });
    const until = Date.now() + 120_000;
    while (gates.length === 0) {
      if (Date.now() > until) throw new Error('the held job never started');
      await new Promise((r) => setTimeout(r, 50));
    }
    await setEndpointStatus(h.tdb.db, endpoint.id, 'disabled');
    gates.shift()!();
    expect((await h.waitForJob(acme.key, job.id)).status).toBe('completed');
    await h.gateway.client.workflow.getHandle(`job:${job.id}`).result();
    expect(await deliveriesOf(job.id)).toEqual([]);
    expect(receiver.requests).toHaveLength(0);
    await receiver.close();
  });
});

describe('exactly once with the terminal transition', () => {
  it('the event and the terminal update are one transaction: when recording the event fails, the job is not completed or charged', async () => {
    const receiver = await startReceiver(() => 200);
    const { endpoint } = await webhook(acme, receiver.url);
    const pdf = await h.upload(acme.key, 'atomic.pdf', await samplePdf(2));
    const job = await h.submitOk(acme.key, {
      operation: 'pdf-extract',
      upload_ids: [pdf],
      options: { pages: '1' },
      webhook_id: endpoint.id,
    });
    const until = Date.now() + 120_000;
    while (gates.length === 0) {
      if (Date.now() > until) throw new Error('the held job never started');
      await new Promise((r) => setTimeout(r, 50));
    }
    const wallet = await h.wallet(acme.id);
    // The outbox insert fails inside the terminal transaction...
    await h.tdb.db.raw(
      `CREATE FUNCTION refuse_delivery() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'outbox unavailable'; END $$`,
    );
    await h.tdb.db.raw(
      'CREATE TRIGGER refuse_delivery BEFORE INSERT ON webhook_deliveries FOR EACH ROW EXECUTE FUNCTION refuse_delivery()',
    );
    try {
      await expect(jobsRepo.completeJob(h.tdb.db, job.id, [], new Date(), new Date())).rejects.toThrow(
        /outbox unavailable/,
      );
    } finally {
      await h.tdb.db.raw('DROP TRIGGER refuse_delivery ON webhook_deliveries');
      await h.tdb.db.raw('DROP FUNCTION refuse_delivery()');
    }
    // ...so the job is still processing, nothing was charged, and no event exists.
    expect((await h.tdb.db('jobs').where({ id: job.id }).first('status')).status).toBe('processing');
    expect(await h.wallet(acme.id)).toEqual(wallet);
    expect(await deliveriesOf(job.id)).toEqual([]);
    // The worker's own completion then commits the update and its one event together.
    gates.shift()!();
    expect(await settled(job.id)).toMatchObject({ status: 'delivered', attempts: 1, event_type: 'job.completed' });
    expect(receiver.requests).toHaveLength(1);
    await receiver.close();
  });

  it('a repeated terminal update (an activity retried after its commit) records no second event, and a later failJob none either', async () => {
    const receiver = await startReceiver(() => 200);
    const { endpoint } = await webhook(acme, receiver.url);
    const pdf = await h.upload(acme.key, 'twice.pdf', await samplePdf(1));
    const job = await h.submitOk(acme.key, {
      operation: 'pdf-rotate',
      upload_ids: [pdf],
      options: { angle: 90 },
      webhook_id: endpoint.id,
    });
    const delivery = await settled(job.id);
    const now = new Date();
    expect(await jobsRepo.completeJob(h.tdb.db, job.id, [], now, now)).toBe(false);
    expect(await jobsRepo.failJob(h.tdb.db, job.id, { code: 'processing_error', message: 'x' }, now)).toBe(false);
    expect((await deliveriesOf(job.id)).map((d) => d.id)).toEqual([delivery.id]);
    expect(await h.tdb.db('webhook_deliveries').where({ endpoint_id: endpoint.id })).toHaveLength(1);
    expect(receiver.requests).toHaveLength(1);
    await receiver.close();
  });
});

describe('batch events', () => {
  /** Submits a batch of one upload per item and waits for its workflow, then for every delivery of the batch's webhook. */
  async function runBatch(body: Record<string, unknown>): Promise<{ batchId: string; jobIds: string[] }> {
    // The 202 waits for the commit, not for Temporal (answerFirst): the workflow is started a moment after the answer,
    // so the handle is asked for once the app's start in flight has settled (h.settled), not at once.
    const res = await h.settled(
      fetch(`${h.app.url}/v1/batches`, {
        method: 'POST',
        headers: {
          ...h.auth(acme.key),
          'Content-Type': 'application/json',
          'Idempotency-Key': `batch-hook-${++seq}-${Date.now()}`,
        },
        body: JSON.stringify(body),
      }),
    );
    expect(res.status).toBe(202);
    const batch = (await res.json()) as { id: string; jobs: Array<{ id: string }> };
    await h.gateway.client.workflow.getHandle(`batch:${batch.id}`).result();
    return { batchId: batch.id, jobIds: batch.jobs.map((j) => j.id) };
  }

  async function deliveriesSettled(endpointId: string, count: number): Promise<DeliveryRow[]> {
    const until = Date.now() + 120_000;
    for (;;) {
      const rows = (await h.tdb
        .db('webhook_deliveries')
        .where({ endpoint_id: endpointId })
        .orderBy('created_at')) as DeliveryRow[];
      if (rows.length >= count && rows.every((r) => r.status === 'delivered' || r.status === 'failed')) return rows;
      if (Date.now() > until)
        throw new Error(`deliveries of ${endpointId}: ${JSON.stringify(rows.map((r) => [r.event_type, r.status]))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it("webhook_mode both: batch.completed with its progress, and each child's job.completed naming the batch", async () => {
    const receiver = await startReceiver(() => 200);
    const { endpoint, secret } = await webhook(acme, receiver.url);
    const a = await h.upload(acme.key, 'a.pdf', await samplePdf(1));
    const b = await h.upload(acme.key, 'b.pdf', await samplePdf(2));
    const { batchId, jobIds } = await runBatch({
      operation: 'pdf-rotate',
      upload_ids: [a, b],
      options: { angle: 90 },
      webhook_id: endpoint.id,
      webhook_mode: 'both',
    });
    const rows = await deliveriesSettled(endpoint.id, 3);
    expect(rows.map((r) => r.event_type).sort()).toEqual(['batch.completed', 'job.completed', 'job.completed']);
    expect(rows.every((r) => r.status === 'delivered' && r.attempts === 1)).toBe(true);
    expect(receiver.requests).toHaveLength(3);
    const bodies = receiver.requests.map((req) =>
      expectSignedEvent(req, secret, JSON.parse(req.body.toString()).type as string),
    );
    const batchEvent = bodies.find((x) => x['type'] === 'batch.completed')!;
    expect(batchEvent['id']).toBe(terminalEventId({ batchId }));
    expect(batchEvent['job']).toBeNull();
    expect(batchEvent['batch']).toMatchObject({
      id: batchId,
      status: 'completed',
      webhook_mode: 'both',
      progress: { total: 2, queued: 0, processing: 0, completed: 2, failed: 0, cancelled: 0 },
      items: jobIds.map((id, index) => ({ index, job_id: id, status: 'completed', error_code: null })),
    });
    const charged = (batchEvent['batch'] as { credits: { charged: number; released: number; reserved: number } })
      .credits;
    expect(charged.reserved).toBe(0);
    expect(charged.released).toBe(0);
    for (const jobEvent of bodies.filter((x) => x['type'] === 'job.completed'))
      expect((jobEvent['job'] as { batch_id: string }).batch_id).toBe(batchId);
    await receiver.close();
  });

  it('webhook_mode batch (the default): only batch.failed when every child fails, nothing per child', async () => {
    const receiver = await startReceiver(() => 200);
    const { endpoint, secret } = await webhook(acme, receiver.url);
    const a = await h.upload(acme.key, 'n1.pdf', await samplePdf(1));
    const b = await h.upload(acme.key, 'n2.pdf', await samplePdf(1));
    const { batchId } = await runBatch({ operation: 'pdf-number', upload_ids: [a, b], webhook_id: endpoint.id });
    const rows = await deliveriesSettled(endpoint.id, 1);
    expect(rows.map((r) => r.event_type)).toEqual(['batch.failed']);
    const body = expectSignedEvent(receiver.requests[0]!, secret, 'batch.failed');
    expect(body['batch']).toMatchObject({
      id: batchId,
      status: 'failed',
      webhook_mode: 'batch',
      progress: { total: 2, completed: 0, failed: 2 },
    });
    // Ending the batch again (a retried activity) records nothing more.
    expect(await h.tdb.db('webhook_deliveries').where({ event_id: terminalEventId({ batchId }) })).toHaveLength(1);
    await receiver.close();
  });

  it('a batch whose webhook_id names nothing of the company is 404 naming webhook_id, and nothing is created', async () => {
    const other = await h.company('HooksOther');
    const foreign = await webhook(other, 'https://hooks.example.com/x');
    const a = await h.upload(acme.key, 'f.pdf', await samplePdf(1));
    const before = await h.tdb.db('batches').count<{ count: string }[]>('* as count');
    for (const path of ['/v1/batches/estimate', '/v1/batches']) {
      const res = await fetch(`${h.app.url}${path}`, {
        method: 'POST',
        headers: {
          ...h.auth(acme.key),
          'Content-Type': 'application/json',
          'Idempotency-Key': `batch-foreign-${++seq}`,
        },
        body: JSON.stringify({
          operation: 'pdf-rotate',
          upload_ids: [a],
          options: { angle: 90 },
          webhook_id: foreign.endpoint.id,
        }),
      });
      expect(res.status).toBe(404);
      expect(JSON.stringify(await res.json())).toContain('webhook_id');
    }
    expect(await h.tdb.db('batches').count<{ count: string }[]>('* as count')).toEqual(before);
  });
});

describe('no secret in logs or events', () => {
  it('neither signing secrets nor job passwords appear in the logs, the stored bodies or the delivery workflow histories', async () => {
    const secrets = (await h.tdb.db('webhook_endpoints').select('secret_sealed')).map((r) =>
      h.secretBox.open(r.secret_sealed as string),
    );
    expect(secrets.length).toBeGreaterThan(0);
    const logs = h.logs.text();
    const bodies = (await h.tdb.db('webhook_deliveries').select('body', 'id')) as Array<{ body: Buffer; id: string }>;
    // Deliveries retried after their first attempt have a workflow delivery:<id> (the others never had one).
    const retried = (await h.tdb.db('webhook_deliveries').where('attempts', '>', 1).select('id')) as Array<{
      id: string;
    }>;
    expect(retried.length).toBeGreaterThan(0);
    const histories: string[] = [];
    for (const d of retried)
      histories.push(JSON.stringify(await h.gateway.client.workflow.getHandle(`delivery:${d.id}`).fetchHistory()));
    for (const s of [...secrets, 'Pdf-Password-Never-Sent-7781']) {
      expect(logs).not.toContain(s);
      for (const b of bodies) expect(b.body.toString()).not.toContain(s);
      for (const text of histories) expect(text).not.toContain(s);
    }
  });
});
