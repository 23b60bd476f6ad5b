import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessingHarness } from '../helpers/processing.js';
import { until } from '../helpers/until.js';
import { samplePdf } from '../../support/sample-files.js';
import { startsInFlight } from '../../services/workflows/workflow-starts.js';

/**
 * Issue 32 item 5: a /v1 submission answers 202 once its transaction commits (the job, its reservation and the start
 * outbox row are durable), not once Temporal has started `job:<id>`. Temporal is made slow here by holding the client's
 * workflow start (a scripted stand-in for a loaded server: failure injection, the real server behind it). While the start
 * is held the client already has its 202, can read the job and cancel it; released, the workflow starts, finds what the
 * database says, and the outbox row goes.
 */
const h = new ProcessingHarness();

/** Holds every workflow start the app makes until `open()`; `entered` resolves when the first one is held. */
function holdStarts() {
  const workflow = h.gateway.client.workflow;
  const real = workflow.start.bind(workflow);
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let entered!: () => void;
  const held = new Promise<void>((r) => (entered = r));
  let started = 0;
  workflow.start = (async (...args: Parameters<typeof real>) => {
    entered();
    await gate;
    started++;
    return real(...args);
  }) as typeof workflow.start;
  return {
    held,
    started: () => started,
    open,
    restore() {
      open();
      workflow.start = real;
    },
  };
}

/** The response, or null if none came within `ms` (a failure bound, generous, never a synchronisation). */
const within = <T>(p: Promise<T>, ms: number): Promise<T | null> =>
  Promise.race([p, new Promise<null>((r) => setTimeout(() => r(null), ms).unref())]);

beforeAll(async () => {
  await h.start({ startWorkers: false });
});
afterAll(() => h.stop());

/** POST /v1/jobs as a client sends it (h.submit waits for the workflow start too, which these tests hold). */
const post = (key: string, body: unknown) =>
  fetch(`${h.app.url}/v1/jobs`, {
    method: 'POST',
    headers: { ...h.auth(key), 'content-type': 'application/json', 'Idempotency-Key': `idem-${Math.random()}` },
    body: JSON.stringify(body),
  });

const outboxRow = (workflowId: string) =>
  h.tdb.db('workflow_starts').where({ workflow_id: workflowId }).first('claim', 'attempts');

describe('the 202 waits for the commit, not for the workflow start', () => {
  it('answers while Temporal has not taken the start; the job reads queued; the workflow starts once Temporal answers', async () => {
    const co = await h.company('AnswerFirst');
    const pdf = await h.upload(co.key, 'a.pdf', await samplePdf(1));
    const hold = holdStarts();
    try {
      const submitting = post(co.key, { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 90 } });
      await hold.held;
      const res = await within(submitting, 60_000);
      expect(res?.status, 'a 202 while the workflow start is still held').toBe(202);
      const job = (await res!.json()) as { id: string; status: string };
      expect(job.status).toBe('queued');
      expect(hold.started()).toBe(0);
      // Durable before the start: the job, its reservation and the outbox row, claimed by the request trying it.
      expect(await h.getJob(co.key, job.id)).toMatchObject({ id: job.id, status: 'queued' });
      expect(await outboxRow(`job:${job.id}`)).toMatchObject({ claim: expect.any(String), attempts: 0 });
      expect((await h.wallet(co.id)).reserved).toBeGreaterThan(0);

      hold.open();
      await startsInFlight(h.gateway);
      expect(hold.started()).toBe(1);
      expect(await outboxRow(`job:${job.id}`)).toBeUndefined();
      const described = await h.gateway.client.workflow.getHandle(`job:${job.id}`).describe();
      expect(described.status.name).toBe('RUNNING'); // parked: no worker polls this task queue
      await h.gateway.client.workflow.getHandle(`job:${job.id}`).terminate('test: parked job');
    } finally {
      hold.restore();
    }
  });

  it('a job cancelled before its workflow started: released once, and the workflow ends at once when it starts', async () => {
    const co = await h.company('CancelBeforeStart');
    const pdf = await h.upload(co.key, 'c.pdf', await samplePdf(1));
    const before = await h.wallet(co.id);
    await h.startWorker();
    const hold = holdStarts();
    try {
      const res = await within(
        post(co.key, { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 90 } }),
        60_000,
      );
      expect(res?.status).toBe(202);
      const job = (await res!.json()) as { id: string };
      expect(hold.started()).toBe(0);
      const cancel = await fetch(`${h.app.url}/v1/jobs/${job.id}/cancel`, {
        method: 'POST',
        headers: { authorization: `Bearer ${co.key}` },
      });
      expect(cancel.status).toBe(200);
      expect(await cancel.json()).toMatchObject({ id: job.id, status: 'cancelled' });
      expect(await h.wallet(co.id)).toEqual(before);

      hold.open();
      await startsInFlight(h.gateway);
      const handle = h.gateway.client.workflow.getHandle(`job:${job.id}`);
      await until('the late workflow to end', async () => {
        const d = await handle.describe();
        return d.status.name === 'RUNNING' ? undefined : d.status.name;
      });
      expect((await handle.describe()).status.name).toBe('COMPLETED');
      expect(await h.getJob(co.key, job.id)).toMatchObject({ status: 'cancelled' });
      expect(await h.wallet(co.id)).toEqual(before); // nothing charged, nothing left reserved
      const ledger = await h.tdb.db('credit_ledger').where({ company_id: co.id }).select('kind', 'amount');
      expect(ledger.filter((r: { kind: string }) => r.kind !== 'grant').length).toBe(2); // one reserve, one release
    } finally {
      hold.restore();
      await h.stopWorkers();
    }
  });
});
