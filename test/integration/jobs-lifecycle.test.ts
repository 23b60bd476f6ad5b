import { existsSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { createFileOperationRunners } from '../../adapters/media/operation-runners.js';
import type { OperationRunners } from '../../adapters/media/runner-contract.js';
import { ProviderUnavailableError, ProviderUnusableError } from '../../adapters/providers/provider-errors.js';
import { JOB_LIMITS } from '../../domain/jobs.js';
import { ProcessingHarness, type TestCompany } from '../helpers/processing.js';
import { samplePdf } from '../../support/sample-files.js';

/**
 * Job states that need the worker away or misbehaving: unfinished jobs (upload deletion, queue limit),
 * provider outages across a worker restart, lost workflow starts, and retention.
 */
const h = new ProcessingHarness();
let acme: TestCompany;

beforeAll(async () => {
  await h.start({ startWorkers: false });
  acme = await h.company('Lifecycle');
});
// Each test starts the workers it needs (with its own runners); a test that fails midway leaves none to the next.
afterEach(() => h.stopWorkers());
afterAll(() => h.stop());

const terminate = (jobId: string) => h.gateway.client.workflow.getHandle(`job:${jobId}`).terminate('test: parked job');

describe('unfinished jobs', () => {
  it('a source of a queued job cannot be deleted (409) until the job has ended', async () => {
    const pdf = await h.upload(acme.key, 'in-use.pdf', await samplePdf(2));
    const job = await h.submitOk(acme.key, { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 180 } });
    const del = await fetch(`${h.app.url}/v1/uploads/${pdf}`, { method: 'DELETE', headers: h.auth(acme.key) });
    expect(del.status).toBe(409);
    expect(await del.json()).toMatchObject({ code: 'conflict', detail: expect.stringContaining('unfinished job') });
    expect(
      (await fetch(`${h.app.url}/v1/jobs/${job.id}`, { method: 'DELETE', headers: h.auth(acme.key) })).status,
    ).toBe(409);

    await h.startWorker();
    expect((await h.waitForJob(acme.key, job.id)).status).toBe('completed');
    await h.stopWorkers();
    expect(
      (await fetch(`${h.app.url}/v1/uploads/${pdf}`, { method: 'DELETE', headers: h.auth(acme.key) })).status,
    ).toBe(204);
    // The finished job's result outlives its source.
    const done = await h.getJob(acme.key, job.id);
    expect((await h.download(acme.key, done.result!.files[0]!.download_path)).status).toBe(200);
  });

  it(`at most ${JOB_LIMITS.pendingPerCompany} pending jobs per company: one more is 429, and nothing is reserved for it`, async () => {
    const busy = await h.company('Busy');
    const pdf = await h.upload(busy.key, 'q.pdf', await samplePdf(1));
    const body = { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 90 } };
    const ids: string[] = [];
    for (let i = 0; i < JOB_LIMITS.pendingPerCompany; i++) ids.push((await h.submitOk(busy.key, body)).id);
    const over = await h.submit(busy.key, body);
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('10');
    expect(await over.json()).toMatchObject({
      code: 'queue_full',
      detail: expect.stringContaining(`${JOB_LIMITS.pendingPerCompany} pending jobs`),
    });
    expect(await h.wallet(busy.id)).toEqual({
      available: 1000 - 2 * JOB_LIMITS.pendingPerCompany,
      reserved: 2 * JOB_LIMITS.pendingPerCompany,
    });
    // Other companies are not affected.
    const other = await h.company('NotBusy');
    const theirs = await h.upload(other.key, 'o.pdf', await samplePdf(1));
    const ok = await h.submitOk(other.key, { ...body, upload_ids: [theirs] });
    await Promise.all([...ids, ok.id].map(terminate));
  });
});

describe('provider outage', () => {
  it('keeps the job queued with its reservation through a worker restart, then charges once', async () => {
    let calls = 0;
    const real = createFileOperationRunners();
    const flaky: OperationRunners = {
      ...real,
      'pdf-rotate': async (input) => {
        calls++;
        if (calls <= 2) throw new ProviderUnavailableError('the PDF engine is temporarily unavailable');
        return real['pdf-rotate'](input);
      },
    };
    const pdf = await h.upload(acme.key, 'outage.pdf', await samplePdf(3));
    const before = await h.wallet(acme.id);
    const job = await h.submitOk(acme.key, { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 270 } });
    // Restart the job's workflow with short outage waits (production waits 30 s, doubling).
    await terminate(job.id);
    await h.gateway.client.workflow.start('processingJobWorkflow', {
      workflowId: `job:${job.id}`,
      taskQueue: h.taskQueue,
      args: [{ jobId: job.id, outageDelaysMs: [4000, 300] }],
    });

    await h.startWorker(flaky);
    // The first call fails; the workflow then puts the job back in the queue (queued, with a retry time).
    const deadline = Date.now() + 60_000;
    const requeued = async () => {
      if (calls < 1) return false;
      const row = await h.tdb.db('jobs').where({ id: job.id }).first('status', 'retry_at');
      return row.status === 'queued' && row.retry_at !== null;
    };
    while (!(await requeued())) {
      if (Date.now() > deadline) throw new Error('the job was not requeued after the outage');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await h.getJob(acme.key, job.id)).toMatchObject({ status: 'queued', charged_credits: null });
    expect(await h.wallet(acme.id)).toEqual({ available: before.available - 2, reserved: before.reserved + 2 });
    await h.stopWorkers(); // the worker goes away during the outage wait

    await h.startWorker(flaky);
    const done = await h.waitForJob(acme.key, job.id);
    expect(done).toMatchObject({ status: 'completed', charged_credits: 2 });
    expect(calls).toBe(3);
    expect(await h.gateway.client.workflow.getHandle(`job:${job.id}`).result()).toMatchObject({
      status: 'completed',
      outages: 2,
    });
    expect(await h.wallet(acme.id)).toEqual({ available: before.available - 2, reserved: before.reserved });
    expect(
      await h.tdb
        .db('credit_ledger')
        .join('credit_reservations', 'credit_reservations.id', 'credit_ledger.reservation_id')
        .where({ job_id: job.id })
        .orderBy('credit_ledger.id')
        .select('kind'),
    ).toEqual([{ kind: 'reserve' }, { kind: 'charge' }]);
    expect((await h.tdb.db('jobs').where({ id: job.id }).first()).attempts).toBe(3);
    await h.stopWorkers();
  });
});

describe('a provider this server cannot use', () => {
  it('fails the job at once as processing_error (no retries), releases the reservation, and names no setting', async () => {
    let calls = 0;
    const real = createFileOperationRunners();
    const refused: OperationRunners = {
      ...real,
      'pdf-rotate': () => {
        calls++;
        return Promise.reject(new ProviderUnusableError('PDF_ENGINE_API_KEY was refused (401)'));
      },
    };
    await h.startWorker(refused);
    const pdf = await h.upload(acme.key, 'refused.pdf', await samplePdf(1));
    const before = await h.wallet(acme.id);
    const job = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 90 } })).id,
    );
    expect(job).toMatchObject({
      status: 'failed',
      error_code: 'processing_error',
      charged_credits: 0,
      error: expect.stringContaining('the reservation was released'),
    });
    expect(JSON.stringify(job)).not.toContain('PDF_ENGINE_API_KEY');
    expect(calls).toBe(1);
    expect(await h.wallet(acme.id)).toEqual(before);
    expect(
      h.logs.lines.some((l) => l.includes('cannot be used as configured') && l.includes('PDF_ENGINE_API_KEY')),
    ).toBe(true);
    await h.stopWorkers();
  });
});

describe('lost workflow start', () => {
  it('the maintenance run starts job:<id> for a queued job that never got its workflow', async () => {
    const pdf = await h.upload(acme.key, 'lost.pdf', await samplePdf(1));
    const job = await h.submitOk(acme.key, { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 90 } });
    await terminate(job.id); // as if the start after commit had failed
    await h.tdb
      .db('jobs')
      .where({ id: job.id })
      .update({ created_at: h.tdb.db.raw("now() - interval '10 minutes'") });
    await h.startWorker();
    const maintenance = await h.gateway.client.workflow.execute('maintenanceWorkflow', {
      workflowId: `maintenance-test-${job.id}`,
      taskQueue: h.taskQueue,
      args: [],
    });
    expect(maintenance).toMatchObject({ restartedJobs: 1 });
    expect((await h.waitForJob(acme.key, job.id)).status).toBe('completed');
    await h.stopWorkers();
  });
});

describe('retention', () => {
  it('purges sources and results after 7 days: downloads and quotes answer 410, accounting stays', async () => {
    const pdf = await h.upload(acme.key, 'old.pdf', await samplePdf(2));
    await h.startWorker();
    const job = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 90 } })).id,
    );
    expect(
      (
        await PDFDocument.load(await (await h.download(acme.key, job.result!.files[0]!.download_path)).arrayBuffer())
      ).getPageCount(),
    ).toBe(2);

    // A queued job's source is in flight: retention keeps it even past expiry.
    const inFlightPdf = await h.upload(acme.key, 'in-flight.pdf', await samplePdf(1));
    await h.stopWorkers();
    const queued = await h.submitOk(acme.key, {
      operation: 'pdf-rotate',
      upload_ids: [inFlightPdf],
      options: { angle: 90 },
    });
    await terminate(queued.id); // parked: it stays queued while retention runs

    const eightDaysAgo = h.tdb.db.raw("now() - interval '8 days'");
    await h.tdb
      .db('jobs')
      .where({ id: job.id })
      .update({ results_expire_at: h.tdb.db.raw("now() - interval '1 day'") });
    await h.tdb
      .db('uploads')
      .whereIn('id', [pdf, inFlightPdf])
      .update({ created_at: eightDaysAgo, expires_at: h.tdb.db.raw("now() - interval '1 day'") });
    const resultPath = h.store.pathOf(
      (await h.tdb.db('jobs').where({ id: job.id }).first()).result_files[0].storage_id,
    );
    expect(existsSync(resultPath)).toBe(true);

    await h.startWorker();
    const purged = await h.gateway.client.workflow.execute('retentionWorkflow', {
      workflowId: `retention-test-${job.id}`,
      taskQueue: h.taskQueue,
      args: [],
    });
    expect(purged).toEqual({ sources: 1, results: 1 });
    expect(existsSync(resultPath)).toBe(false);
    expect(existsSync(h.store.pathOf(pdf))).toBe(false);
    expect(existsSync(h.store.pathOf(inFlightPdf))).toBe(true);

    const gone = await h.download(acme.key, job.result!.files[0]!.download_path);
    expect(gone.status).toBe(410);
    expect(await gone.json()).toMatchObject({ code: 'gone', detail: expect.stringContaining('expired') });
    const quote = await fetch(`${h.app.url}/v1/estimate`, {
      method: 'POST',
      headers: { ...h.auth(acme.key), 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 90 } }),
    });
    expect(quote.status).toBe(410);
    expect(await h.getJob(acme.key, job.id)).toMatchObject({ status: 'completed', charged_credits: 2 });
    expect(await h.tdb.db('credit_reservations').where({ job_id: job.id, status: 'charged' })).toHaveLength(1);

    // The in-flight job still runs on its kept source; a second retention run then removes nothing twice.
    await h.gateway.client.workflow.start('processingJobWorkflow', {
      workflowId: `job:${queued.id}`,
      taskQueue: h.taskQueue,
      args: [{ jobId: queued.id }],
    });
    expect((await h.waitForJob(acme.key, queued.id)).status).toBe('completed');
    const again = await h.gateway.client.workflow.execute('retentionWorkflow', {
      workflowId: `retention-test2-${job.id}`,
      taskQueue: h.taskQueue,
      args: [],
    });
    expect(again).toEqual({ sources: 1, results: 0 });
    expect(existsSync(h.store.pathOf(inFlightPdf))).toBe(false);
  });
});
