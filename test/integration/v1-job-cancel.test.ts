import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileOperationRunners } from '../../adapters/media/operation-runners.js';
import type { OperationRunner } from '../../adapters/media/runner-contract.js';
import { cancelQueuedBatchJobs } from '../../db/repositories/job-cancel.repo.js';
import { claimJobSlot, failJob } from '../../db/repositories/jobs.repo.js';
import { ProcessingHarness, type JobJson, type TestCompany } from '../helpers/processing.js';
import { samplePdf } from '../../support/sample-files.js';

/**
 * POST /v1/jobs/{id}/cancel on real PostgreSQL and Temporal: a queued job is cancelled and its reservation released
 * exactly once, whatever runs at the same time (other cancels, the scheduler's claim); a started or ended job is 409
 * `job_not_cancellable`; the job's workflow ends without running the operation.
 */

const h = new ProcessingHarness();
let acme: TestCompany;
let other: TestCompany;
let pdf: string;

const cancel = (key: string, id: string) =>
  fetch(`${h.app.url}/v1/jobs/${id}/cancel`, { method: 'POST', headers: h.auth(key) });
const rotate = () => ({ operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 90 } });

async function ledgerOf(reservationOfJob: string) {
  const job = await h.tdb.db('jobs').where({ id: reservationOfJob }).first('reservation_id');
  const rows = await h.tdb.db('credit_ledger').where({ reservation_id: job.reservation_id }).orderBy('id');
  const reservation = await h.tdb.db('credit_reservations').where({ id: job.reservation_id }).first('status');
  return {
    kinds: rows.map((r) => r.kind as string),
    reasons: rows.map((r) => r.reason as string | null),
    reservation: reservation.status as string,
  };
}

beforeAll(async () => {
  // No worker at first: submitted jobs stay queued until a test starts one.
  await h.start({ startWorkers: false });
  acme = await h.company('CancelCo');
  other = await h.company('OtherCancelCo');
  pdf = await h.upload(acme.key, 'doc.pdf', await samplePdf(2));
});
afterAll(() => h.stop());

describe('POST /v1/jobs/{id}/cancel', () => {
  it('cancels a queued job: 200 with the job cancelled, charged 0, the reservation released once (reason job_cancelled)', async () => {
    const before = await h.wallet(acme.id);
    const job = await h.submitOk(acme.key, rotate());
    expect(await h.wallet(acme.id)).toEqual({ available: before.available - 2, reserved: 2 });

    const res = await cancel(acme.key, job.id);
    expect(res.status).toBe(200);
    const body = (await res.json()) as JobJson;
    expect(body).toMatchObject({
      id: job.id,
      status: 'cancelled',
      charged_credits: 0,
      error: null,
      error_code: null,
      result: null,
      finished_at: expect.any(String),
    });
    expect(await h.getJob(acme.key, job.id)).toEqual(body);
    expect(await h.wallet(acme.id)).toEqual(before);
    expect(await ledgerOf(job.id)).toEqual({
      kinds: ['reserve', 'release'],
      reasons: [null, 'job_cancelled'],
      reservation: 'released',
    });

    // Cancelling again: the job is terminal now.
    const again = await cancel(acme.key, job.id);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({
      code: 'job_not_cancellable',
      detail: expect.stringContaining('cancelled'),
    });
    expect(await h.wallet(acme.id)).toEqual(before);
  });

  it('parallel cancels of one job: exactly one 200, the others 409, one release', async () => {
    const before = await h.wallet(acme.id);
    const job = await h.submitOk(acme.key, rotate());
    const answers = await Promise.all(Array.from({ length: 12 }, () => cancel(acme.key, job.id)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(11).fill(409)]);
    for (const r of answers.filter((a) => a.status === 409))
      expect(await r.json()).toMatchObject({ code: 'job_not_cancellable' });
    expect(await ledgerOf(job.id)).toEqual({
      kinds: ['reserve', 'release'],
      reasons: [null, 'job_cancelled'],
      reservation: 'released',
    });
    expect(await h.wallet(acme.id)).toEqual(before);
  });

  it("a cancel racing the scheduler's claim: either cancelled and released, or started and still reserved, never both", async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 16; round++) {
      const before = await h.wallet(acme.id);
      const job = await h.submitOk(acme.key, rotate());
      // The HTTP cancel has more to do before its UPDATE than the claim: every other round gives it a head start of
      // a few milliseconds, so both orders happen (which one wins a round is not asserted, only the invariants).
      const headStart = round % 2 === 0 ? 0 : 2 + (round % 5) * 2;
      const [res, claim] = await Promise.all([
        cancel(acme.key, job.id),
        new Promise((r) => setTimeout(r, headStart)).then(() =>
          claimJobSlot(h.tdb.db, job.id, new Date(), { activePerCompany: 1, activePlatform: 100 }),
        ),
      ]);
      const body = (await res.json()) as { code?: string; status?: string };
      const ledger = await ledgerOf(job.id);
      if (res.status === 200) {
        outcomes.add('cancelled');
        expect(claim).toMatchObject({ outcome: 'finished', job: { status: 'cancelled' } });
        expect(ledger).toEqual({
          kinds: ['reserve', 'release'],
          reasons: [null, 'job_cancelled'],
          reservation: 'released',
        });
        expect(await h.wallet(acme.id)).toEqual(before);
      } else {
        outcomes.add('started');
        expect(res.status).toBe(409);
        expect(body.code).toBe('job_not_cancellable');
        expect(claim.outcome).toBe('claimed');
        expect((await h.tdb.db('jobs').where({ id: job.id }).first('status')).status).toBe('processing');
        expect(ledger).toEqual({ kinds: ['reserve'], reasons: [null], reservation: 'held' });
        // Free the company's slot for the next round (as a failing run would).
        await failJob(h.tdb.db, job.id, { code: 'processing_error', message: 'test' }, new Date());
      }
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });

  it('409 job_not_cancellable for a processing, completed or failed job; 404 for unknown and foreign ids; 403 for a read key', async () => {
    const job = await h.submitOk(acme.key, rotate());
    expect((await claimJobSlot(h.tdb.db, job.id, new Date())).outcome).toBe('claimed');
    const processing = await cancel(acme.key, job.id);
    expect(processing.status).toBe(409);
    expect(await processing.json()).toMatchObject({
      code: 'job_not_cancellable',
      detail: 'The job is processing; only a queued job can be cancelled',
    });
    expect(await ledgerOf(job.id)).toMatchObject({ kinds: ['reserve'], reservation: 'held' });

    await failJob(h.tdb.db, job.id, { code: 'invalid_source', message: 'broken' }, new Date());
    const failed = await cancel(acme.key, job.id);
    expect(failed.status).toBe(409);
    expect(await failed.json()).toMatchObject({
      code: 'job_not_cancellable',
      detail: 'The job is failed; only a queued job can be cancelled',
    });

    const queued = await h.submitOk(acme.key, rotate());
    const foreign = await cancel(other.key, queued.id);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ code: 'not_found' });
    expect((await cancel(acme.key, 'job_AAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    expect((await cancel(acme.key, 'not-an-id')).status).toBe(404);
    const readOnly = await cancel(acme.readKey, queued.id);
    expect(readOnly.status).toBe(403);
    expect(await readOnly.json()).toMatchObject({ code: 'insufficient_scope' });
    expect((await h.getJob(acme.key, queued.id)).status).toBe('queued');
    expect((await cancel(acme.key, queued.id)).status).toBe(200);
  });

  it('a cancelled job can be deleted, and its Idempotency-Key then answers idempotency_key_target_deleted', async () => {
    const idem = `cancel-del-${Date.now()}`;
    const first = await h.submit(acme.key, rotate(), idem);
    const job = (await first.json()) as JobJson;
    expect((await cancel(acme.key, job.id)).status).toBe(200);
    const del = await fetch(`${h.app.url}/v1/jobs/${job.id}`, { method: 'DELETE', headers: h.auth(acme.key) });
    expect(del.status).toBe(204);
    const replay = await h.submit(acme.key, rotate(), idem);
    expect(replay.status).toBe(409);
    expect(await replay.json()).toMatchObject({ code: 'idempotency_key_target_deleted', job_id: job.id });
  });
});

describe('cancelQueuedBatchJobs (for the batches code)', () => {
  it('cancels the queued children of one batch, each released once, and leaves started ones and other batches alone', async () => {
    const co = await h.company('BatchCancelCo');
    const source = await h.upload(co.key, 'b.pdf', await samplePdf(1));
    const jobs: JobJson[] = [];
    for (let i = 0; i < 4; i++)
      jobs.push(await h.submitOk(co.key, { operation: 'pdf-rotate', upload_ids: [source], options: { angle: 90 } }));
    await h.fileUnderBatch(
      co.id,
      'bat_AAAAAAAAAAAAAAAAAAAA',
      jobs.slice(0, 3).map((j) => j.id),
    );
    await h.fileUnderBatch(co.id, 'bat_BBBBBBBBBBBBBBBBBBBB', [jobs[3]!.id]);
    // The first child has started already (no worker runs yet: the scheduler's claim, as its activity makes it).
    expect((await claimJobSlot(h.tdb.db, jobs[0]!.id, new Date())).outcome).toBe('claimed');
    const twice = await Promise.all([
      cancelQueuedBatchJobs(h.tdb.db, co.id, 'bat_AAAAAAAAAAAAAAAAAAAA', new Date()),
      cancelQueuedBatchJobs(h.tdb.db, co.id, 'bat_AAAAAAAAAAAAAAAAAAAA', new Date()),
    ]);
    const cancelled = twice
      .flat()
      .map((j) => j.id)
      .sort();
    expect(cancelled).toEqual(
      jobs
        .slice(1, 3)
        .map((j) => j.id)
        .sort(),
    );
    for (const j of jobs.slice(1, 3))
      expect(await ledgerOf(j.id)).toEqual({
        kinds: ['reserve', 'release'],
        reasons: [null, 'job_cancelled'],
        reservation: 'released',
      });
    expect((await h.tdb.db('jobs').where({ id: jobs[0]!.id }).first('status')).status).toBe('processing');
    expect(await ledgerOf(jobs[0]!.id)).toMatchObject({ kinds: ['reserve'], reservation: 'held' });
    expect((await h.tdb.db('jobs').where({ id: jobs[3]!.id }).first('status')).status).toBe('queued');
    // Another company's batch id: nothing of theirs is touched.
    expect(await cancelQueuedBatchJobs(h.tdb.db, other.id, 'bat_BBBBBBBBBBBBBBBBBBBB', new Date())).toEqual([]);
    expect((await h.tdb.db('jobs').where({ id: jobs[3]!.id }).first('status')).status).toBe('queued');
    // Leave nothing for the worker of the next test.
    await failJob(h.tdb.db, jobs[0]!.id, { code: 'processing_error', message: 'test' }, new Date());
    const last = await cancelQueuedBatchJobs(h.tdb.db, co.id, 'bat_BBBBBBBBBBBBBBBBBBBB', new Date());
    expect(last.map((j) => ({ id: j.id, status: j.status }))).toEqual([{ id: jobs[3]!.id, status: 'cancelled' }]);
  });
});

describe('the workflow of a cancelled job', () => {
  it("the job's workflow ends (status cancelled) without running the operation, while the job before it runs", async () => {
    // A company with one job running (the runner holds it until released) and one queued behind it.
    const co = await h.company('WorkflowCancelCo');
    const source = await h.upload(co.key, 'w.pdf', await samplePdf(1));
    const ran: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const real = createFileOperationRunners();
    const gated: OperationRunner = async (input) => {
      ran.push(input.sources[0]!.path);
      await gate;
      return real['pdf-rotate'](input);
    };
    await h.startWorker({ ...real, 'pdf-rotate': gated });

    const running = await h.submitOk(co.key, { operation: 'pdf-rotate', upload_ids: [source], options: { angle: 90 } });
    const until = Date.now() + 60_000;
    while ((await h.tdb.db('jobs').where({ id: running.id }).first('status')).status !== 'processing') {
      if (Date.now() > until) throw new Error('the first job never started');
      await new Promise((r) => setTimeout(r, 50));
    }
    const behind = await h.submitOk(co.key, { operation: 'pdf-rotate', upload_ids: [source], options: { angle: 180 } });
    const res = await cancel(co.key, behind.id);
    expect(res.status).toBe(200);

    const handle = h.gateway.client.workflow.getHandle(`job:${behind.id}`);
    expect(await handle.result()).toMatchObject({ status: 'cancelled', operationMs: null });
    release();
    expect((await h.waitForJob(co.key, running.id)).status).toBe('completed');
    expect(ran).toHaveLength(1);
    const history = await handle.fetchHistory();
    const activities = (history.events ?? []).flatMap((e) =>
      e.activityTaskScheduledEventAttributes?.activityType?.name
        ? [e.activityTaskScheduledEventAttributes.activityType.name]
        : [],
    );
    expect(activities).not.toContain('runJobOperation');
    expect((await h.getJob(co.key, behind.id)).status).toBe('cancelled');
  });
});
