import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessingHarness, type TestCompany } from '../helpers/processing.js';
import { batchClient } from '../helpers/batches.js';
import { OwnTemporal } from '../helpers/own-temporal.js';
import { samplePdf } from '../../support/sample-files.js';
import { until } from '../helpers/until.js';
import { newId } from '../../adapters/crypto/tokens.js';
import { workflowIdOf, type WorkflowStart } from '../../services/workflows/workflow-client.js';
import { startAfterCommit, type AfterCommit } from '../../services/workflows/workflow-starts.js';

/**
 * Workflow starts after a commit while the Temporal server is down (issue 28, E24): the app and a real worker run
 * against a Temporal dev server of this file's own, which the test kills (SIGKILL) and starts again on the same data.
 * What the API accepted meanwhile must start as soon as Temporal answers again, once: not at the next maintenance
 * run, 15 minutes later, with every later job of the company waiting behind it.
 */
let own: OwnTemporal;
const h = new ProcessingHarness();
const batches = batchClient(h);
let acme: TestCompany;
let upload: string;

/** How long after Temporal answers again everything accepted meanwhile must have started: generous on a loaded machine, far below the 15-minute maintenance run. */
const STARTED_WITHIN_MS = 60_000;

beforeAll(async () => {
  own = await OwnTemporal.start();
  await h.start({ temporalAddress: own.address });
  acme = await h.company('Acme');
  upload = await h.upload(acme.key, 'doc.pdf', await samplePdf(2));
});
afterAll(async () => {
  await h?.stop();
  await own?.remove();
});

/** Runs of `workflowId` that Temporal knows (every run, open or closed). */
async function runsOf(workflowId: string): Promise<number> {
  let n = 0;
  for await (const _ of h.gateway.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) n++;
  return n;
}

async function started(workflowId: string): Promise<boolean> {
  try {
    await h.gateway.client.workflow.getHandle(workflowId).describe();
    return true;
  } catch {
    return false;
  }
}

describe('workflow starts after a commit while Temporal is down', () => {
  it('jobs and a batch accepted while the Temporal server is killed start within seconds of its return, each exactly once', async () => {
    const rotate = { operation: 'pdf-rotate', upload_ids: [upload], options: { angle: 90 } };
    // With Temporal up, the path works end to end.
    const before = await h.submitOk(acme.key, rotate);
    expect(await h.waitForJob(acme.key, before.id)).toMatchObject({ status: 'completed' });

    await own.kill();
    const key = 'outage-job-0001';
    const sentAt = Date.now();
    const first = await h.submit(acme.key, rotate, key);
    expect(first.status).toBe(202);
    const jobs = [(await first.json()) as { id: string }];
    for (let i = 0; i < 2; i++) jobs.push(await h.submitOk(acme.key, rotate));
    const batch = await batches.submitOk(acme.key, {
      operation: 'pdf-rotate',
      upload_ids: [upload, upload],
      options: { angle: 180 },
    });
    // A client retrying with the same key gets the stored answer (and nothing is created twice).
    const again = await h.submit(acme.key, rotate, key);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as { id: string }).id).toBe(jobs[0]!.id);
    const answeredInMs = Date.now() - sentAt;
    // Every other kind of start decided after a commit goes through the same outbox: queued here the way their
    // handlers queue them (their routes are covered by their own tests), with Temporal down.
    const others: WorkflowStart[] = [
      { kind: 'invoice-lifecycle', input: { invoiceId: newId('inv') } },
      { kind: 'invoice-mail', input: { mailId: newId('mail') } },
      { kind: 'delivery', input: { deliveryId: newId('dlv'), interface: 'proof', startAttempt: 2 } },
      { kind: 'invoice-nudge', input: { invoiceId: newId('inv') } },
    ];
    const hooks: AfterCommit = [];
    await h.tdb.db.transaction(async (trx) => {
      for (const start of others) await startAfterCommit(trx, hooks, h.gateway, start);
    });
    for (const hook of hooks) await hook(h.tdb.db);
    // Nothing ran while Temporal was away; the worker's starter tried and found it unreachable.
    for (const j of jobs) expect((await h.tdb.db('jobs').where({ id: j.id }).first('status')).status).toBe('queued');
    await until(
      'the starter to find Temporal unreachable',
      () => (h.logs.text().includes('Temporal is unreachable') ? true : undefined),
      120_000,
    );
    // The outage lasts past the Temporal client's own retries (about 20 s): the starter has tried the oldest start
    // several times, and every start waits in the outbox.
    await until(
      'the starter to try again and again',
      async () => {
        const [row] = await h.tdb.db('workflow_starts').max<{ max: number }[]>('attempts as max');
        return Number(row?.max) >= 4 ? true : undefined;
      },
      180_000,
    );
    expect((await h.tdb.db('workflow_starts').orderBy('id').pluck('workflow_id')).sort()).toEqual(
      [...jobs.map((j) => `job:${j.id}`), `batch:${batch.id}`, ...others.map(workflowIdOf)].sort(),
    );
    const downForMs = Date.now() - sentAt;

    await own.up();
    const back = Date.now();
    const workflowIds = [
      ...jobs.map((j) => `job:${j.id}`),
      `batch:${batch.id}`,
      ...others.filter((o) => o.kind !== 'invoice-nudge').map(workflowIdOf),
    ];
    await until(
      `the workflows of what was accepted during the outage (${workflowIds.join(', ')}) to start`,
      async () => ((await Promise.all(workflowIds.map(started))).every(Boolean) ? true : undefined),
      STARTED_WITHIN_MS,
    );
    const startedAfterMs = Date.now() - back;
    // The other kinds have nothing to run here (no such invoice, e-mail or delivery; no mailer on this worker).
    for (const start of others.filter((o) => o.kind !== 'invoice-nudge')) {
      await h.gateway.client.workflow
        .getHandle(workflowIdOf(start))
        .terminate('test: it started, which is what was checked')
        .catch(() => undefined);
    }

    // The other kinds' workflows started with them (each ends on its own: nothing of theirs is in the database), and the
    // nudge of an invoice whose workflow does not exist is done (nothing to signal): the outbox empties.
    await until(
      'the outbox to be empty',
      async () =>
        (await h.tdb.db('workflow_starts').count<{ count: string }[]>('* as count'))[0]!.count === '0'
          ? true
          : undefined,
      STARTED_WITHIN_MS,
    );

    // They run to the end, in order, and each was started once: one run per business id, one charge per job.
    for (const j of jobs) expect(await h.waitForJob(acme.key, j.id, 300_000)).toMatchObject({ status: 'completed' });
    expect(await batches.waitForBatch(acme.key, batch.id)).toMatchObject({ status: 'completed' });
    const children = batch.jobs.map((j) => `job:${j.id}`);
    for (const id of [...workflowIds, ...children])
      expect(
        await until(
          `the visibility record of ${id}`,
          async () => ((await runsOf(id)) > 0 ? runsOf(id) : undefined),
          60_000,
        ),
        id,
      ).toBe(1);
    const charges = await h.tdb
      .db('credit_ledger')
      .where({ company_id: acme.id, kind: 'charge' })
      .count<{ count: string }[]>('* as count');
    expect(Number(charges[0]!.count)).toBe(1 + jobs.length + batch.jobs.length);
    expect(h.logs.text()).toContain('Temporal answers again');
    console.log(
      `five submissions answered in ${answeredInMs} ms with Temporal down (for ${downForMs} ms); started ${startedAfterMs} ms after it answered again`,
    );
  });
});
