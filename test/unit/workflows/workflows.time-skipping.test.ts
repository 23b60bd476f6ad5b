import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApplicationFailure, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailureCategory } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { BatchActivities } from '../../../activities/batches.activities.js';
import type { InvoiceLifecycleActivities } from '../../../activities/invoice-lifecycle.activities.js';
import type { ProcessingActivities, RunResult } from '../../../activities/processing.activities.js';
import type { WebhookActivities } from '../../../activities/webhooks.activities.js';
import { countChildren } from '../../../domain/batches.js';
import { OUTAGE_RETRY, outageDelayMs, SLOT_WAIT } from '../../../domain/jobs.js';
import type { InvoiceStatus } from '../../../domain/proof/statuses.js';
import { DELIVERY_PROFILES, scheduleMs, type AttemptVerdict } from '../../../domain/webhooks.js';
import { VOID_REASON_MAX_LENGTH } from '../../../domain/proof/invoice-lifecycle.js';
import { invoicePaidSignal, voidInvoiceUpdate } from '../../../workflows/proof/invoice-lifecycle.workflow.js';
import { wakeJobWorkflows } from '../../../services/workflows/workflow-client.js';
import { timeSkippingEnvironment, withWorker } from '../../helpers/time-skipping.js';
import { until } from '../../helpers/until.js';

/**
 * The workflows' own logic on Temporal's time-skipping test server, with stub activities: the paths the recorded
 * histories (workflow-replay.test.ts) and the integration tests do not reach, or reach only in minutes or hours of
 * real waiting (a 48-hour provider outage, a webhook's retry schedule). What the activities do against PostgreSQL is
 * tested in test/integration; here only what the workflow decides from their answers.
 */

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await timeSkippingEnvironment();
});
afterAll(async () => {
  await env?.teardown();
});

type JobStubs = Pick<
  ProcessingActivities,
  'claimJobSlot' | 'tryClaimJobSlot' | 'queuedJobsToWake' | 'runJobOperation' | 'completeJob' | 'failJob' | 'requeueJob'
>;

type TryClaim = Awaited<ReturnType<ProcessingActivities['tryClaimJobSlot']>>;
const BUSY: TryClaim = { outcome: 'busy', reason: 'the company already has an active job' };

/** Job activities answering from the given scripts; every call is recorded as `name jobId [detail]`. */
function jobActivities(script: {
  claim?: (jobId: string, call: number) => TryClaim;
  run?: (jobId: string, call: number) => RunResult | Promise<RunResult>;
  /** The queued jobs a job leaving its slot wakes (default none). */
  toWake?: (jobId: string) => string[];
  completed?: (jobId: string) => void;
}) {
  const calls: string[] = [];
  const counts = new Map<string, number>();
  const count = (key: string) => {
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    return n;
  };
  const claim = (jobId: string): TryClaim => {
    calls.push(`claim ${jobId}`);
    return (
      script.claim ?? (() => ({ outcome: 'claimed', companyId: 'co_1', operation: 'pdf-compress', batchId: null }))
    )(jobId, count(`claim ${jobId}`));
  };
  const activities: JobStubs = {
    // Runs recorded before patch job-slot-wake: busy is a retryable failure.
    claimJobSlot: async ({ jobId }) => {
      const answer = claim(jobId);
      if (answer.outcome === 'busy')
        throw ApplicationFailure.create({
          type: 'slot_busy',
          message: answer.reason,
          category: ApplicationFailureCategory.BENIGN,
        });
      return answer;
    },
    tryClaimJobSlot: async ({ jobId }) => claim(jobId),
    queuedJobsToWake: async ({ jobId }) => {
      const ids = script.toWake?.(jobId) ?? [];
      if (ids.length) calls.push(`wake ${ids.join(',')} after ${jobId}`);
      return ids;
    },
    runJobOperation: async ({ jobId }) => {
      calls.push(`run ${jobId}`);
      return (script.run ?? (() => ({ outcome: 'done', files: [], operationMs: 7 })))(jobId, count(`run ${jobId}`));
    },
    completeJob: async ({ jobId }) => {
      calls.push(`complete ${jobId}`);
      script.completed?.(jobId);
      return true;
    },
    failJob: async ({ jobId, code, message }) => {
      calls.push(`fail ${jobId} ${code}: ${message}`);
      return true;
    },
    requeueJob: async ({ jobId, retryAfterMs }) => {
      calls.push(`requeue ${jobId} ${retryAfterMs}`);
      return true;
    },
  };
  return { calls, activities };
}

const outage = (retryAfterMs: number | null = null): RunResult => ({
  outcome: 'provider_unavailable',
  message: 'provider answered 503',
  retryAfterMs,
});

function runJob(activities: object, jobId = 'job_1', input: Record<string, unknown> = {}) {
  return withWorker(env, activities, (taskQueue) =>
    env.client.workflow.execute('processingJobWorkflow', {
      taskQueue,
      workflowId: `job:${jobId}`,
      args: [{ jobId, ...input }],
    }),
  );
}

describe('processingJobWorkflow', () => {
  it('a job that no longer exists ends "missing" without running or settling anything', async () => {
    const { calls, activities } = jobActivities({ claim: () => ({ outcome: 'missing' }) });
    const result = await runJob(activities, 'job_missing');
    expect(result).toEqual({ status: 'missing', outages: 0, operationMs: null });
    expect(calls).toEqual(['claim job_missing']);
  });

  it('a job already finished (a second start after a crash) answers its recorded outcome and runs nothing again', async () => {
    const error = { code: 'invalid_source', message: 'The PDF could not be read.' };
    const { calls, activities } = jobActivities({ claim: () => ({ outcome: 'finished', status: 'failed', error }) });
    expect(await runJob(activities, 'job_done_failed')).toEqual({
      status: 'failed',
      outages: 0,
      operationMs: null,
      error,
    });
    const completed = jobActivities({ claim: () => ({ outcome: 'finished', status: 'completed', error: null }) });
    expect(await runJob(completed.activities, 'job_done_ok')).toEqual({
      status: 'completed',
      outages: 0,
      operationMs: null,
    });
    expect([...calls, ...completed.calls]).toEqual(['claim job_done_failed', 'claim job_done_ok']);
  });

  it('a busy slot and no wake: the claim is tried again after the fallback timer, twice as long each time', async () => {
    const { calls, activities } = jobActivities({
      claim: (_id, call) =>
        call <= 3 ? BUSY : { outcome: 'claimed', companyId: 'co_1', operation: 'pdf-compress', batchId: null },
    });
    const before = await env.currentTimeMs();
    expect(await runJob(activities, 'job_busy')).toEqual({ status: 'completed', outages: 0, operationMs: 7 });
    expect(calls).toEqual([
      'claim job_busy',
      'claim job_busy',
      'claim job_busy',
      'claim job_busy',
      'run job_busy',
      'complete job_busy',
    ]);
    expect((await env.currentTimeMs()) - before).toBeGreaterThanOrEqual(SLOT_WAIT.firstMs * (1 + 2 + 4));
  });

  // The two tests below wait with until() on what the stubs recorded, never on a workflow's result() (which lets the
  // test server skip time): time stands still, so a second claim can only come from the wake, never from the timer.
  it('a job leaving its slot wakes the queued job that can take it: claimed at once, not at its fallback timer', async () => {
    let aDone = false;
    const claimedAt: number[] = [];
    const { calls, activities } = jobActivities({
      claim: (jobId) => {
        if (jobId === 'job_a')
          return { outcome: 'claimed', companyId: 'co_1', operation: 'pdf-compress', batchId: null };
        return aDone ? { outcome: 'claimed', companyId: 'co_1', operation: 'pdf-compress', batchId: null } : BUSY;
      },
      completed: (jobId) => {
        if (jobId === 'job_a') aDone = true;
      },
      toWake: (jobId) => (jobId === 'job_a' ? ['job_b'] : []),
    });
    const stamped = {
      ...activities,
      tryClaimJobSlot: async (input: { jobId: string }) => {
        if (input.jobId === 'job_b') claimedAt.push(await env.currentTimeMs());
        return activities.tryClaimJobSlot(input);
      },
    };
    const [a, b] = await withWorker(env, stamped, async (taskQueue) => {
      const start = (jobId: string) =>
        env.client.workflow.start('processingJobWorkflow', {
          taskQueue,
          workflowId: `job:${jobId}`,
          args: [{ jobId }],
        });
      const handleB = await start('job_b');
      await until('job_b finding the slot busy', () => (calls.includes('claim job_b') ? true : undefined));
      const handleA = await start('job_a');
      await until('job_b completed', () => (calls.includes('complete job_b') ? true : undefined));
      // result() lets the server skip time: only once both have closed (a local activity in flight would time out).
      for (const h of [handleA, handleB])
        await until('the workflow closed', async () =>
          (await h.describe()).status.name !== 'RUNNING' ? true : undefined,
        );
      return Promise.all([handleA.result(), handleB.result()]);
    });
    expect(a).toEqual({ status: 'completed', outages: 0, operationMs: 7 });
    expect(b).toEqual({ status: 'completed', outages: 0, operationMs: 7 });
    expect(calls.filter((c) => c.endsWith('job_b'))).toEqual([
      'claim job_b',
      'claim job_b',
      'run job_b',
      'complete job_b',
    ]);
    expect(calls.indexOf('wake job_b after job_a')).toBeGreaterThan(calls.indexOf('complete job_a'));
    expect(calls.lastIndexOf('claim job_b')).toBeGreaterThan(calls.indexOf('wake job_b after job_a'));
    // Woken, not timed out: no time passed between job_b's two claims.
    expect(claimedAt[1]! - claimedAt[0]!).toBeLessThan(SLOT_WAIT.firstMs);
  });

  it("a cancelled queued job's workflow, woken by the cancel (wakeJobWorkflows), ends at once with nothing run", async () => {
    let cancelled = false;
    const { calls, activities } = jobActivities({
      claim: () => (cancelled ? { outcome: 'finished', status: 'cancelled', error: null } : BUSY),
    });
    const before = await env.currentTimeMs();
    const result = await withWorker(env, activities, async (taskQueue) => {
      const handle = await env.client.workflow.start('processingJobWorkflow', {
        taskQueue,
        workflowId: 'job:job_cancel_wake',
        args: [{ jobId: 'job_cancel_wake' }],
      });
      await until('the first claim', () => (calls.length > 0 ? true : undefined));
      cancelled = true;
      await wakeJobWorkflows({ client: env.client, taskQueue, close: async () => undefined }, ['job_cancel_wake']);
      await until('the second claim', () => (calls.length > 1 ? true : undefined));
      expect((await env.currentTimeMs()) - before).toBeLessThan(SLOT_WAIT.firstMs);
      await until('the workflow closed', async () =>
        (await handle.describe()).status.name !== 'RUNNING' ? true : undefined,
      );
      return handle.result();
    });
    expect(result).toEqual({ status: 'cancelled', outages: 0, operationMs: null });
    expect(calls).toEqual(['claim job_cancel_wake', 'claim job_cancel_wake']);
  });

  it("a provider outage requeues the job with its reservation held, waits the schedule (or the provider's Retry-After when longer) and runs again", async () => {
    const { calls, activities } = jobActivities({
      run: (_id, call) =>
        call === 1 ? outage() : call === 2 ? outage(900_000) : { outcome: 'done', files: [], operationMs: 9 },
    });
    const before = await env.currentTimeMs();
    expect(await runJob(activities, 'job_outage')).toEqual({ status: 'completed', outages: 2, operationMs: 9 });
    expect(calls).toEqual([
      'claim job_outage',
      'run job_outage',
      `requeue job_outage ${outageDelayMs(1)}`,
      'claim job_outage',
      'run job_outage',
      'requeue job_outage 900000',
      'claim job_outage',
      'run job_outage',
      'complete job_outage',
    ]);
    expect((await env.currentTimeMs()) - before).toBeGreaterThanOrEqual(outageDelayMs(1) + 900_000);
  });

  it(`an outage that outlasts ${OUTAGE_RETRY.giveUpHours} hours fails the job "provider_unavailable" (reservation released), never charged`, async () => {
    const { calls, activities } = jobActivities({ run: () => outage() });
    const before = await env.currentTimeMs();
    const result = await runJob(activities, 'job_long_outage');
    expect(result.status).toBe('failed');
    expect(result.error?.code).toBe('provider_unavailable');
    expect((await env.currentTimeMs()) - before).toBeGreaterThanOrEqual(OUTAGE_RETRY.giveUpHours * 3_600_000);
    // The waits follow the schedule: 30 s doubling to the 10-minute cap.
    const waits = calls.filter((c) => c.startsWith('requeue')).map((c) => Number(c.split(' ')[2]));
    expect(waits.slice(0, 6)).toEqual([1, 2, 3, 4, 5, 6].map((n) => outageDelayMs(n)));
    expect(waits.at(-1)).toBe(OUTAGE_RETRY.maxDelayMs);
    expect(result.outages).toBe(waits.length + 1);
    expect(calls.filter((c) => c.startsWith('fail'))).toEqual([
      `fail job_long_outage provider_unavailable: ${result.error?.message}`,
    ]);
    expect(calls.some((c) => c.startsWith('complete'))).toBe(false);
  });

  it("a permanent input failure fails the job at once with the client's message (no activity retry)", async () => {
    const { calls, activities } = jobActivities({
      run: () => {
        throw ApplicationFailure.create({
          type: 'invalid_source',
          message: 'The PDF could not be read.',
          nonRetryable: true,
        });
      },
    });
    const result = await runJob(activities, 'job_invalid');
    expect(result).toEqual({
      status: 'failed',
      outages: 0,
      operationMs: null,
      error: { code: 'invalid_source', message: 'The PDF could not be read.' },
    });
    expect(calls).toEqual([
      'claim job_invalid',
      'run job_invalid',
      'fail job_invalid invalid_source: The PDF could not be read.',
    ]);
  });

  it('an unexpected error is retried 5 times in all, then fails the job with a generic message (the internal text never reaches the client)', async () => {
    const { calls, activities } = jobActivities({
      run: () => {
        throw new Error('connect ECONNREFUSED 10.0.0.7:5432 password=hunter2');
      },
    });
    const result = await runJob(activities, 'job_flaky');
    expect(result.status).toBe('failed');
    expect(result.error?.code).toBe('processing_error');
    expect(JSON.stringify(result)).not.toMatch(/ECONNREFUSED|hunter2/);
    expect(calls.filter((c) => c === 'run job_flaky')).toHaveLength(5);
    expect(calls.at(-1)).toBe(`fail job_flaky processing_error: ${result.error?.message}`);
  });

  it('a job no longer processing when its operation starts (cancelled meanwhile) ends with that status and settles nothing', async () => {
    const { calls, activities } = jobActivities({ run: () => ({ outcome: 'not_processing', status: 'cancelled' }) });
    expect(await runJob(activities, 'job_cancelled')).toEqual({ status: 'cancelled', outages: 0, operationMs: null });
    expect(calls).toEqual(['claim job_cancelled', 'run job_cancelled']);
  });
});

describe('processingBatchWorkflow', () => {
  function batchActivities(jobIds: string[] | null, jobs: ReturnType<typeof jobActivities>) {
    const calls = jobs.calls;
    const batch: Pick<BatchActivities, 'startBatch' | 'finishBatch'> = {
      startBatch: async ({ batchId }) => {
        calls.push(`start ${batchId}`);
        return jobIds === null
          ? { outcome: 'missing' }
          : { outcome: 'started', companyId: 'co_1', operation: 'pdf-compress', jobIds };
      },
      finishBatch: async ({ batchId }) => {
        calls.push(`finish ${batchId}`);
        return { status: 'partial', counts: countChildren(['completed', 'failed', 'completed']), changed: true };
      },
    };
    return { ...jobs.activities, ...batch };
  }

  it('a batch that no longer exists ends "missing" and starts no child', async () => {
    const jobs = jobActivities({});
    const result = await withWorker(env, batchActivities(null, jobs), (taskQueue) =>
      env.client.workflow.execute('processingBatchWorkflow', {
        taskQueue,
        workflowId: 'batch:gone',
        args: [{ batchId: 'gone' }],
      }),
    );
    expect(result).toEqual({ status: 'missing', counts: null, failures: [] });
    expect(jobs.calls).toEqual(['start gone']);
  });

  it('children run one at a time in item order under their own job ids; the batch ends after the last with each failure named', async () => {
    const jobs = jobActivities({
      run: (jobId) => {
        if (jobId === 'j_2')
          throw ApplicationFailure.create({
            type: 'invalid_source',
            message: 'Item 2 is not a PDF.',
            nonRetryable: true,
          });
        return { outcome: 'done', files: [], operationMs: 1 };
      },
    });
    const result = await withWorker(env, batchActivities(['j_1', 'j_2', 'j_3'], jobs), async (taskQueue) => {
      const out = await env.client.workflow.execute('processingBatchWorkflow', {
        taskQueue,
        workflowId: 'batch:b_1',
        args: [{ batchId: 'b_1' }],
      });
      // Each child is an ordinary job workflow under `job:<id>`, completed on its own.
      for (const jobId of ['j_1', 'j_2', 'j_3'])
        expect((await env.client.workflow.getHandle(`job:${jobId}`).describe()).status.name).toBe('COMPLETED');
      return out;
    });
    expect(jobs.calls).toEqual([
      'start b_1',
      'claim j_1',
      'run j_1',
      'complete j_1',
      'claim j_2',
      'run j_2',
      'fail j_2 invalid_source: Item 2 is not a PDF.',
      'claim j_3',
      'run j_3',
      'complete j_3',
      'finish b_1',
    ]);
    expect(result).toEqual({
      status: 'partial',
      counts: countChildren(['completed', 'failed', 'completed']),
      failures: [{ item: 1, jobId: 'j_2', code: 'invalid_source', message: 'Item 2 is not a PDF.' }],
    });
  });
});

describe('invoiceLifecycleWorkflow', () => {
  /** Lifecycle activities over a mutable invoice status; `voidInvoice` voids an issued invoice. */
  function invoiceActivities(initial: InvoiceStatus | null) {
    const state = { status: initial, calls: [] as string[] };
    const activities: Pick<InvoiceLifecycleActivities, 'beginInvoiceLifecycle' | 'voidInvoice'> = {
      beginInvoiceLifecycle: async ({ invoiceId }) => {
        state.calls.push(`begin ${invoiceId} -> ${state.status}`);
        return state.status;
      },
      voidInvoice: async ({ invoiceId, reason }) => {
        state.calls.push(`void ${invoiceId} (${reason})`);
        if (state.status === 'paid')
          return { outcome: { outcome: 'already_paid', invoiceId, paidAt: null }, deliveryIds: [] };
        state.status = 'voided';
        return {
          outcome: {
            outcome: 'voided',
            invoiceId,
            requestId: 'req_1',
            voidedAt: '2026-11-28T00:00:00.000Z',
            previousRequestStatus: 'AWAITING',
            events: 1,
          },
          deliveryIds: [],
        };
      },
    };
    return { state, activities };
  }

  it('an invoice already paid (or voided) when the workflow starts settles at once; an id that is no invoice ends not_found', async () => {
    for (const [status, expected] of [
      ['paid', 'paid'],
      ['voided', 'voided'],
      [null, 'not_found'],
    ] as const) {
      const { state, activities } = invoiceActivities(status);
      const result = await withWorker(env, activities, (taskQueue) =>
        env.client.workflow.execute('invoiceLifecycleWorkflow', {
          taskQueue,
          workflowId: `invoice:settled_${expected}`,
          args: [{ invoiceId: `inv_${expected}` }],
        }),
      );
      expect(result).toEqual({ status: expected });
      expect(state.calls).toEqual([`begin inv_${expected} -> ${status}`]);
    }
  });

  it('the paid signal makes it re-read the invoice; a signal the database does not (yet) confirm keeps it waiting', async () => {
    const { state, activities } = invoiceActivities('issued');
    const result = await withWorker(env, activities, async (taskQueue) => {
      const handle = await env.client.workflow.start('invoiceLifecycleWorkflow', {
        taskQueue,
        workflowId: 'invoice:inv_sig',
        args: [{ invoiceId: 'inv_sig' }],
      });
      await handle.signal(invoicePaidSignal); // the watcher's commit is not visible yet: still issued
      await until('the second read of the invoice', () => (state.calls.length === 2 ? true : undefined));
      state.status = 'paid';
      await handle.signal(invoicePaidSignal);
      return handle.result();
    });
    expect(result).toEqual({ status: 'paid' });
    expect(state.calls).toEqual(['begin inv_sig -> issued', 'begin inv_sig -> issued', 'begin inv_sig -> paid']);
  });

  it('the void update answers its outcome and settles the workflow voided; an over-long reason is refused before anything runs', async () => {
    const { state, activities } = invoiceActivities('issued');
    const { refused, outcome, result } = await withWorker(env, activities, async (taskQueue) => {
      const handle = await env.client.workflow.start('invoiceLifecycleWorkflow', {
        taskQueue,
        workflowId: 'invoice:inv_void',
        args: [{ invoiceId: 'inv_void' }],
      });
      const refused = await handle
        .executeUpdate(voidInvoiceUpdate, { args: [{ reason: 'x'.repeat(VOID_REASON_MAX_LENGTH + 1) }] })
        .then(
          () => null,
          (e: unknown) => e,
        );
      const outcome = await handle.executeUpdate(voidInvoiceUpdate, { args: [{ reason: '  duplicate of INV-7  ' }] });
      return { refused, outcome, result: await handle.result() };
    });
    expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
    expect(((refused as WorkflowUpdateFailedError).cause as ApplicationFailure).type).toBe('validation_failed');
    expect(outcome).toMatchObject({ outcome: 'voided', invoiceId: 'inv_void' });
    expect(result).toEqual({ status: 'voided' });
    // The update may be handled before or after the first read: both happen once, in either order.
    expect([...state.calls].sort()).toEqual(['begin inv_void -> issued', 'void inv_void (duplicate of INV-7)'].sort());
  });
  it('a void that finds the invoice paid or voided meanwhile answers so and settles as the database says', async () => {
    for (const [meanwhile, outcome, settled] of [
      ['paid', 'already_paid', 'paid'],
      ['voided', 'already_voided', 'voided'],
    ] as const) {
      const { state, activities } = invoiceActivities('issued');
      const raced = {
        ...activities,
        voidInvoice: async (input: { invoiceId: string; reason: string | null }) => {
          state.calls.push(`void ${input.invoiceId} (${input.reason})`);
          return meanwhile === 'paid'
            ? {
                outcome: { outcome: 'already_paid' as const, invoiceId: input.invoiceId, paidAt: null },
                deliveryIds: [],
              }
            : {
                outcome: { outcome: 'already_voided' as const, invoiceId: input.invoiceId, voidedAt: null },
                deliveryIds: [],
              };
        },
      };
      const { answer, result } = await withWorker(env, raced, async (taskQueue) => {
        const handle = await env.client.workflow.start('invoiceLifecycleWorkflow', {
          taskQueue,
          workflowId: `invoice:inv_${outcome}`,
          args: [{ invoiceId: `inv_${outcome}` }],
        });
        const answer = await handle.executeUpdate(voidInvoiceUpdate, { args: [{}] });
        return { answer, result: await handle.result() };
      });
      expect(answer).toMatchObject({ outcome });
      expect(result).toEqual({ status: settled });
      // The update may be handled before or after the first read: both happen once, in either order.
      expect([...state.calls].sort()).toEqual([`begin inv_${outcome} -> issued`, `void inv_${outcome} (null)`].sort());
    }
  });
});

describe('webhookDeliveryWorkflow', () => {
  function deliveryActivities(verdicts: AttemptVerdict[]) {
    const calls: string[] = [];
    const activities: Pick<WebhookActivities, 'sendAttempt' | 'settleDelivery'> = {
      sendAttempt: async ({ deliveryId, attemptNo }) => {
        calls.push(`send ${deliveryId} #${attemptNo}`);
        return { verdict: verdicts[attemptNo - 1] ?? 'retry', statusCode: 500, errorClass: null };
      },
      settleDelivery: async ({ deliveryId, attemptNo, state, waitMs }) => {
        calls.push(`settle ${deliveryId} #${attemptNo} ${state} ${waitMs}`);
      },
    };
    return { calls, activities };
  }

  function deliver(activities: object, args: Record<string, unknown>) {
    return withWorker(env, activities, (taskQueue) =>
      env.client.workflow.execute('webhookDeliveryWorkflow', {
        taskQueue,
        workflowId: `delivery:${String(args['deliveryId'])}`,
        args: [args],
      }),
    );
  }

  it("retryable failures wait the interface's schedule between attempts until the receiver takes it", async () => {
    const { calls, activities } = deliveryActivities(['retry', 'retry', 'delivered']);
    const [first, second] = scheduleMs(DELIVERY_PROFILES.v1);
    const before = await env.currentTimeMs();
    expect(await deliver(activities, { deliveryId: 'd_v1', interface: 'v1' })).toEqual({
      status: 'delivered',
      attempts: 3,
    });
    expect(calls).toEqual([
      'send d_v1 #1',
      `settle d_v1 #1 retrying ${first}`,
      'send d_v1 #2',
      `settle d_v1 #2 retrying ${second}`,
      'send d_v1 #3',
      'settle d_v1 #3 delivered 0',
    ]);
    expect((await env.currentTimeMs()) - before).toBeGreaterThanOrEqual(first! + second!);
  });

  it("out of attempts: failed after the profile's last attempt; a terminal answer fails at once", async () => {
    const proof = DELIVERY_PROFILES.proof;
    const exhausted = deliveryActivities([]);
    expect(await deliver(exhausted.activities, { deliveryId: 'd_proof', interface: 'proof' })).toEqual({
      status: 'failed',
      attempts: proof.maxAttempts,
    });
    expect(exhausted.calls.filter((c) => c.startsWith('send'))).toHaveLength(proof.maxAttempts);
    expect(exhausted.calls.at(-1)).toBe(`settle d_proof #${proof.maxAttempts} failed 0`);

    const terminal = deliveryActivities(['terminal']);
    expect(await deliver(terminal.activities, { deliveryId: 'd_410', interface: 'proof' })).toEqual({
      status: 'failed',
      attempts: 1,
    });
    expect(terminal.calls).toEqual(['send d_410 #1', 'settle d_410 #1 failed 0']);
  });

  it('a hand-over from the dispatcher continues the attempt count and waits until its first attempt is due', async () => {
    const { calls, activities } = deliveryActivities([]);
    const resumeAt = (await env.currentTimeMs()) + 3_600_000;
    const sentAt: number[] = [];
    const timed = {
      ...activities,
      sendAttempt: async (input: { deliveryId: string; attemptNo: number }) => {
        sentAt.push(await env.currentTimeMs());
        return { ...(await activities.sendAttempt(input)), verdict: 'delivered' as const };
      },
    };
    expect(await deliver(timed, { deliveryId: 'd_handover', interface: 'v1', startAttempt: 2, resumeAt })).toEqual({
      status: 'delivered',
      attempts: 2,
    });
    expect(calls).toEqual(['send d_handover #2', 'settle d_handover #2 delivered 0']);
    expect(sentAt[0]).toBeGreaterThanOrEqual(resumeAt);
  });
});
