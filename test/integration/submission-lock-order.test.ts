import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_LIMITS } from '../../domain/jobs.js';
import { lockCompany } from '../../db/repositories/companies.repo.js';
import { markUploadDeleted } from '../../db/repositories/uploads.repo.js';
import { ProcessingHarness, type TestCompany } from '../helpers/processing.js';
import { samplePdf } from '../../support/sample-files.js';

/**
 * Issue 32 item 5: a submission quotes its sources (reads and measures them) before it takes the company lock, and
 * holds the lock only for the queue-limit count, the reservation, the job row, the start outbox and the
 * Idempotency-Key. What may change between the quote and the lock must still be caught under it, and the queue limit
 * and exactly-once billing must hold when many clients of one company submit at once.
 */
const h = new ProcessingHarness();

beforeAll(async () => {
  await h.start({ startWorkers: false });
});
afterAll(() => h.stop());

const terminate = (jobId: string) =>
  h.gateway.client.workflow
    .getHandle(`job:${jobId}`)
    .terminate('test: parked job')
    .catch(() => undefined);

/**
 * True once a request of the app waits for the company lock (polled, with a generous deadline): a submission takes it
 * in `paycore_reserve_for_jobs`, other paths with a query on "companies".
 */
async function submissionWaitsForTheCompanyLock(deadlineMs = 30_000): Promise<boolean> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    const rows = await h.tdb.db.raw(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND (query ILIKE '%from "companies"%' OR query ILIKE '%paycore_reserve_for_jobs%')`,
    );
    if ((rows.rows[0] as { n: number }).n > 0) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

async function jobsOf(
  companyId: string,
): Promise<Array<{ id: string; quoted_credits: number; reservation_id: string }>> {
  return h.tdb.db('jobs').where({ company_id: companyId }).select('id', 'quoted_credits', 'reservation_id');
}

describe('what changes between the quote and the company lock', () => {
  it('a source deleted while the submission waits for the lock: 404 naming upload_ids.0, no job, nothing reserved', async () => {
    const co: TestCompany = await h.company('DeletedMeanwhile');
    const pdf = await h.upload(co.key, 'd.pdf', await samplePdf(1));
    const walletBefore = await h.wallet(co.id);
    // Another transaction holds the company lock (as DELETE /v1/uploads/{id} does) and deletes the source under it.
    const holder = await h.tdb.db.transaction();
    let submitting: Promise<Response> | null = null;
    try {
      await lockCompany(holder, co.id);
      submitting = h.submit(co.key, { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 90 } });
      expect(await submissionWaitsForTheCompanyLock()).toBe(true);
      await markUploadDeleted(holder, co.id, pdf, new Date());
      await holder.commit();
    } finally {
      if (!holder.isCompleted()) await holder.rollback();
    }
    const res = await submitting!;
    const body = (await res.json()) as Record<string, unknown>;
    expect({ status: res.status, body }).toMatchObject({
      status: 404,
      body: { code: 'not_found', detail: expect.stringContaining('upload_ids.0') },
    });
    expect(await jobsOf(co.id)).toEqual([]);
    expect(await h.wallet(co.id)).toEqual(walletBefore);
  });
});

describe('many clients of one company at once', () => {
  it('the queue limit stays exact and each key makes one job and one reservation of its quote, keys sent 3 times at once', async () => {
    const co = await h.company('Crowded');
    const pdf = await h.upload(co.key, 'c.pdf', await samplePdf(3));
    const body = { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 90 } };
    const estimate = await fetch(`${h.app.url}/v1/estimate`, {
      method: 'POST',
      headers: { ...h.auth(co.key), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(estimate.status).toBe(200);
    const quote = ((await estimate.json()) as { estimated_credits: number }).estimated_credits;
    // Pending jobs recorded directly (no workflow): the queue has room for exactly 4 more.
    const room = 4;
    await h.recordQueuedJobs(co.id, JOB_LIMITS.pendingPerCompany - room, {
      operation: 'pdf-rotate',
      uploadIds: [pdf],
      options: { angle: 90 },
      marker: 'C',
    });
    const filled = await h.wallet(co.id);
    // 8 clients, each key sent three times at once: 24 requests in flight.
    const keys = Array.from({ length: 8 }, (_, i) => `crowded-${i}-${Math.random().toString(36).slice(2)}`);
    const answers = await Promise.all(
      keys.flatMap((key) =>
        [0, 1, 2].map(async () => {
          const res = await h.submit(co.key, body, key);
          return { key, status: res.status, body: (await res.json()) as { id?: string; code?: string } };
        }),
      ),
    );
    expect(answers.filter((a) => a.status !== 202 && a.status !== 429)).toEqual([]);
    const accepted = new Map<string, Set<string>>();
    for (const a of answers.filter((x) => x.status === 202)) {
      accepted.set(a.key, (accepted.get(a.key) ?? new Set()).add(a.body.id!));
    }
    // Exactly the room is taken, each accepted key answered 202 three times naming one job; the others are queue_full.
    expect(accepted.size).toBe(room);
    for (const [key, ids] of accepted) {
      expect(ids.size, key).toBe(1);
      expect(answers.filter((a) => a.key === key).map((a) => a.status)).toEqual([202, 202, 202]);
    }
    expect(answers.filter((a) => a.status === 429).every((a) => a.body.code === 'queue_full')).toBe(true);
    const created = (await jobsOf(co.id)).filter((j) => !j.id.startsWith('job_CCCC'));
    expect(created.map((j) => j.id).sort()).toEqual([...accepted.values()].flatMap((s) => [...s]).sort());
    // One reservation per job, of the quote the estimate gives, and the wallet moved by exactly that.
    const reservations = await h.tdb
      .db('credit_reservations')
      .whereIn(
        'id',
        created.map((j) => j.reservation_id),
      )
      .select('id', 'amount');
    expect(reservations).toHaveLength(room);
    expect(created.every((j) => Number(j.quoted_credits) === quote)).toBe(true);
    expect(reservations.every((r) => Number(r.amount) === quote)).toBe(true);
    expect(await h.wallet(co.id)).toEqual({
      available: filled.available - room * quote,
      reserved: filled.reserved + room * quote,
    });
    await Promise.all(created.map((j) => terminate(j.id)));
  });
});
