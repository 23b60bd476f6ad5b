import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileOperationRunners } from '../../adapters/media/operation-runners.js';
import type { OperationRunner, OperationRunners } from '../../adapters/media/runner-contract.js';
import { newId } from '../../adapters/crypto/tokens.js';
import { reserveJobCredits } from '../../services/processing/credits.js';
import { claimJobSlot, insertJob } from '../../db/repositories/jobs.repo.js';
import { JOB_LIMITS } from '../../domain/jobs.js';
import { ProcessingHarness, type TestCompany } from '../helpers/processing.js';
import { samplePdf } from '../../support/sample-files.js';

const h = new ProcessingHarness();
afterAll(() => h.stop());

/**
 * Observes the real runner: who runs at the same time, in which order. A job that starts waits (a positive
 * barrier, not a guess of how long the others take to get a slot) until as many jobs run as the scheduler may
 * allow at that moment: the platform limit, or fewer when fewer companies still have work. So the limits are
 * reached however slow the machine, and a scheduler that allows too many is seen doing it.
 */
class Observer {
  running = new Map<string, number>();
  /** Jobs each company will run in all, and how many of them have finished. */
  expected = new Map<string, number>();
  finished = new Map<string, number>();
  maxTotal = 0;
  maxPerCompany = 0;
  order: string[] = [];
  /** Set when a barrier was not reached within its deadline: later jobs no longer wait (the test then fails). */
  barrierMissed = false;

  private total(): number {
    return [...this.running.values()].reduce((a, b) => a + b, 0);
  }

  /** How many jobs may run at once now: one per company that still has work, at most the platform limit. */
  private target(): number {
    const withWork = [...this.expected].filter(([company, n]) => (this.finished.get(company) ?? 0) < n).length;
    return Math.min(JOB_LIMITS.activePlatform, withWork);
  }

  private async barrier(): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (!this.barrierMissed && this.total() < this.target()) {
      if (Date.now() > deadline) this.barrierMissed = true;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  wrap(runners: OperationRunners, companyOfSource: (path: string) => string): OperationRunners {
    const observed =
      (real: OperationRunner): OperationRunner =>
      async (input) => {
        const company = companyOfSource(input.sources[0]!.path);
        this.running.set(company, (this.running.get(company) ?? 0) + 1);
        this.order.push(input.sources[0]!.path);
        this.maxPerCompany = Math.max(this.maxPerCompany, ...this.running.values());
        this.maxTotal = Math.max(this.maxTotal, this.total());
        try {
          await this.barrier();
          // Then a little longer, so the other jobs keep trying for a slot while all slots are taken.
          await new Promise((r) => setTimeout(r, 400));
          return await real(input);
        } finally {
          this.running.set(company, this.running.get(company)! - 1);
          this.finished.set(company, (this.finished.get(company) ?? 0) + 1);
        }
      };
    return { ...runners, 'pdf-rotate': observed(runners['pdf-rotate']) };
  }
}

describe('scheduler limits across two worker processes', () => {
  const observer = new Observer();
  const sourceCompany = new Map<string, string>();
  const companies: TestCompany[] = [];

  beforeAll(async () => {
    await h.start({ startWorkers: false });
    const runners = observer.wrap(createFileOperationRunners(), (path) => sourceCompany.get(path) ?? 'unknown');
    await h.startWorker(runners);
    await h.startWorker(runners);
  });

  it(`runs at most ${JOB_LIMITS.activePlatform} jobs at once, one per company, first in first out per company`, async () => {
    const submitted = new Map<string, string[]>();
    for (let c = 0; c < 5; c++) companies.push(await h.company(`Sched${c}`));
    const uploads = await Promise.all(
      companies.map(async (co) => {
        const ids: string[] = [];
        for (let j = 0; j < 3; j++) {
          const id = await h.upload(co.key, `c-${j}.pdf`, await samplePdf(1));
          sourceCompany.set(h.store.pathOf(id), co.id);
          ids.push(id);
        }
        observer.expected.set(co.id, ids.length);
        return ids;
      }),
    );
    const jobs = await Promise.all(
      companies.map(async (co, c) => {
        const ids: string[] = [];
        for (const upload of uploads[c]!)
          ids.push(
            (await h.submitOk(co.key, { operation: 'pdf-rotate', upload_ids: [upload], options: { angle: 90 } })).id,
          );
        submitted.set(
          co.id,
          uploads[c]!.map((u) => h.store.pathOf(u)),
        );
        return ids.map((id) => ({ key: co.key, id }));
      }),
    );
    const finished = await Promise.all(jobs.flat().map((j) => h.waitForJob(j.key, j.id, 120_000)));
    expect(finished.map((j) => j.status)).toEqual(Array(15).fill('completed'));

    expect(observer.barrierMissed).toBe(false);
    expect(observer.maxPerCompany).toBe(JOB_LIMITS.activePerCompany);
    expect(observer.maxTotal).toBe(JOB_LIMITS.activePlatform);
    for (const co of companies) {
      expect(observer.order.filter((p) => sourceCompany.get(p) === co.id)).toEqual(submitted.get(co.id));
    }
    // Both workers took part.
    const identities = new Set<string>();
    for (const j of jobs.flat()) {
      const history = await h.gateway.client.workflow.getHandle(`job:${j.id}`).fetchHistory();
      for (const e of history.events ?? [])
        if (e.activityTaskStartedEventAttributes?.identity)
          identities.add(e.activityTaskStartedEventAttributes.identity);
    }
    expect(identities.size).toBe(2);
  });

  it('parallel claims in PostgreSQL grant exactly the free slots', async () => {
    await h.stopWorkers();
    const at = new Date();
    const queued: Array<{ id: string; companyId: string }> = [];
    for (let c = 0; c < 8; c++) {
      const co = await h.company(`Claim${c}`);
      for (let j = 0; j < 2; j++) {
        await h.tdb.db.transaction(async (trx) => {
          const id = newId('job');
          const reservationId = newId('res');
          await reserveJobCredits(trx, co.id, [], [{ id: reservationId, jobId: id, amount: 2n }]);
          await insertJob(trx, {
            id,
            companyId: co.id,
            submitter: { apiKeyId: 'key_test' },
            operation: 'pdf-rotate',
            uploadIds: [],
            options: {},
            secretSealed: null,
            quotedCredits: 2,
            reservationId,
            createdAt: new Date(at.getTime() + j),
          });
          queued.push({ id, companyId: co.id });
        });
      }
    }
    const outcomes = await Promise.all(queued.map((q) => claimJobSlot(h.tdb.db, q.id, new Date())));
    const claimed = queued.filter((_, i) => outcomes[i]!.outcome === 'claimed');
    expect(claimed).toHaveLength(JOB_LIMITS.activePlatform);
    expect(new Set(claimed.map((q) => q.companyId)).size).toBe(JOB_LIMITS.activePlatform);
    // Only a company's oldest job can have been claimed.
    for (const q of claimed) expect(queued.find((x) => x.companyId === q.companyId)!.id).toBe(q.id);
    const busy = outcomes.filter((o) => o.outcome === 'busy');
    expect(busy).toHaveLength(queued.length - JOB_LIMITS.activePlatform);
    // A repeated claim of a processing job is harmless; the database refuses a second one per company anyway.
    expect((await claimJobSlot(h.tdb.db, claimed[0]!.id, new Date())).outcome).toBe('claimed');
    const second = queued.find((x) => x.companyId === claimed[0]!.companyId && x.id !== claimed[0]!.id)!;
    await expect(h.tdb.db('jobs').where({ id: second.id }).update({ status: 'processing' })).rejects.toThrow(
      /jobs_one_processing_per_company/,
    );
  });
});
