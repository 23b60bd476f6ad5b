import { inSpan, SpanKind } from '../../adapters/tracing/tracing.js';
import { DELIVERY_PROFILES, nextStep, scheduleMs } from '../../domain/webhooks.js';
import { countIfEnded, signAndSend, type WebhookActivityDeps } from '../../activities/webhooks.activities.js';
import {
  finishDispatched,
  releaseClaim,
  type ClaimedDelivery,
  type DispatchedResult,
} from '../../db/repositories/webhook-dispatch.repo.js';
import type { DeliveryWorkflowInput } from '../../workflows/webhooks/delivery.workflow.js';

export type SenderDeps = Pick<
  WebhookActivityDeps,
  | 'db'
  | 'secretBox'
  | 'resolver'
  | 'allowLoopbackForTests'
  | 'privateDestinations'
  | 'timeouts'
  | 'now'
  | 'logger'
  | 'metrics'
> & {
  startRetries(input: DeliveryWorkflowInput): Promise<void>;
};

export interface DispatchSender {
  /**
   * Sends a claimed row's first attempt (or hands a `handoff` row to its workflow), records it with the delivery's new
   * state, and hands a retryable one to `delivery:<id>`. `answered` is called once the receiver answered (or nothing
   * was sent), before the result is written: the destination's slot is free from then on.
   */
  send(c: ClaimedDelivery, answered: () => void): Promise<void>;
}

/**
 * The dispatcher's sender: one first attempt per claimed row, its outcome recorded by a group commit (attempts that
 * end while a write is in flight are written together by the next one, in one statement), and the retries of a
 * retryable one handed to its Temporal workflow from attempt 2 at the scheduled time.
 */
export function createDispatchSender(deps: SenderDeps, opts: { retryDelaysMs?: number[] }): DispatchSender {
  const now = deps.now ?? (() => new Date());

  let pending: Array<{ result: DispatchedResult; done: (kept: boolean) => void; fail: (err: unknown) => void }> = [];
  let writing = false;
  /** Resolves true when the row was still this dispatcher's (fenced by its claim) and the result was kept. */
  function record(result: DispatchedResult): Promise<boolean> {
    return new Promise((done, fail) => {
      pending.push({ result, done, fail });
      if (!writing) void write();
    });
  }
  async function write(): Promise<void> {
    writing = true;
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      try {
        const kept = await finishDispatched(
          deps.db,
          batch.map((p) => p.result),
        );
        for (const p of batch) p.done(kept.has(p.result.claimed.delivery.id));
      } catch (err) {
        for (const p of batch) p.fail(err);
      }
    }
    writing = false;
  }

  /** Test-only waits of the delivery (its own, else the dispatcher's for `/v1`), or undefined for the profile's. */
  const testDelays = (c: ClaimedDelivery) =>
    c.retryDelaysMs ?? (c.delivery.interface === 'v1' ? opts.retryDelaysMs : undefined);

  /** Starts `delivery:<id>` from attempt 2 at the scheduled time; on failure the claim expires and this is retried. */
  async function handOver(c: ClaimedDelivery, resumeAt: Date | null): Promise<void> {
    const delays = testDelays(c);
    await deps.startRetries({
      deliveryId: c.delivery.id,
      interface: c.delivery.interface,
      startAttempt: 2,
      ...(resumeAt ? { resumeAt: resumeAt.getTime() } : {}),
      ...(delays ? { delaysMs: delays } : {}),
    });
    await releaseClaim(deps.db, c);
  }

  return {
    send(c, answered) {
      if (c.dispatch === 'handoff') return handOver(c, c.delivery.nextAttemptAt);
      // The attempt is a span of the trace that queued the delivery (tracing on): its POST carries it, its log line names it.
      const attrs = { 'webhook.delivery_id': c.delivery.id, 'webhook.interface': c.delivery.interface };
      return inSpan('webhook POST', attrs, () => sendFirst(c, answered), {
        parent: c.traceParent,
        kind: SpanKind.CLIENT,
      });
    },
  };

  async function sendFirst(c: ClaimedDelivery, answered: () => void): Promise<void> {
    if (c.attemptId === null) return releaseClaim(deps.db, c); // settled meanwhile (not pending): nothing to send
    const profile = DELIVERY_PROFILES[c.delivery.interface];
    const sent =
      c.endpoint.status === 'enabled'
        ? await signAndSend(deps, c)
        : { verdict: 'terminal' as const, statusCode: null, errorClass: 'endpoint_disabled', durationMs: 0 };
    answered();
    const step = nextStep(sent.verdict, 1, profile);
    const delays = testDelays(c) ?? scheduleMs(profile);
    const nextAttemptAt = step.state === 'retrying' ? new Date(now().getTime() + delays[0]!) : null;
    const kept = await record({
      claimed: c,
      attemptId: c.attemptId,
      result: {
        outcome: sent.verdict,
        statusCode: sent.statusCode,
        errorClass: sent.errorClass,
        durationMs: sent.durationMs,
      },
      state: step.state,
      nextAttemptAt,
    });
    deps.logger.info(
      {
        deliveryId: c.delivery.id,
        attempt: 1,
        status: sent.statusCode,
        errorClass: sent.errorClass,
        ms: sent.durationMs,
        verdict: sent.verdict,
      },
      'webhook attempt',
    );
    if (kept) countIfEnded(deps.metrics, c.delivery.interface, sent.verdict, 1);
    if (kept && step.state === 'retrying') await handOver(c, nextAttemptAt);
  }
}
