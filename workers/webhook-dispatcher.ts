import { randomUUID } from 'node:crypto';
import { DELIVERY_PROFILES, nextStep, scheduleMs } from '../domain/webhooks.js';
import { signAndSend, type WebhookActivityDeps } from '../activities/webhooks.activities.js';
import { claimDispatch, DISPATCH_CHANNEL, finishDispatched, releaseClaim, renewClaims, type ClaimedDelivery, type DispatchedResult } from '../db/repositories/webhook-dispatch.repo.js';
import type { DeliveryWorkflowInput } from '../workflows/webhooks/delivery.workflow.js';
import { createQueueLoop } from '../db/listener.js';

export interface DispatcherOptions {
  /** Attempts in flight at once in this process. */
  concurrency: number;
  /** Attempts in flight at once to one destination, so one slow receiver cannot take every slot. */
  perEndpoint: number;
  /**
   * Rows one tenant (the owner of destinations: a company or a merchant) holds at once, over all its destinations, so
   * one tenant's slow receivers cannot take every slot (default: half of `concurrency`).
   */
  perTenant?: number;
  /** How often the queue is read without a notification (a missed one, an expired claim). */
  pollMs?: number;
  /** How long a claim lasts without renewal (LEASE_MS); tests shorten it. */
  leaseMs?: number;
  /** Test-only waits between attempts for deliveries without their own (`/v1` job events of a test worker). */
  retryDelaysMs?: number[];
}

/** How long a claim lasts without renewal: a dispatcher that died is taken over this long after its last renewal. */
export const LEASE_MS = 15_000;

/**
 * What one dispatcher holds at most (docs/webhooks.md, "How a delivery is sent"): `concurrency` rows in all; per
 * destination `perEndpoint` POSTs and twice that claimed ahead; per tenant `perTenant` rows; and rows beyond a tenant's
 * first only up to `shared`, three quarters of `concurrency`: the last quarter is kept for tenants that hold nothing,
 * so a tenant's first attempt never waits behind other tenants' slow receivers, however many.
 */
export function dispatchLimits(opts: Pick<DispatcherOptions, 'concurrency' | 'perEndpoint' | 'perTenant'>): { perTenant: number; heldPerEndpoint: number; shared: number } {
  const perTenant = Math.max(1, Math.min(opts.perTenant ?? Math.ceil(opts.concurrency / 2), opts.concurrency));
  return {
    perTenant,
    heldPerEndpoint: Math.min(2 * opts.perEndpoint, perTenant),
    shared: opts.concurrency - Math.floor(opts.concurrency / 4),
  };
}

export interface WebhookDispatcher {
  start(): void;
  /** Stops claiming, lets the attempts in flight finish and record, then resolves. */
  stop(): Promise<void>;
}

/**
 * The worker's webhook dispatcher (docs/webhooks.md, "How a delivery is sent"). A delivery is a row committed with
 * its event (`createDelivery`, the outbox); the insert notifies `webhook_dispatch` at commit. The dispatcher claims
 * queued rows (a lease in the row, so any number of worker processes share the queue and a dead one's rows are
 * taken over), sends each first attempt and records it with the delivery's new state in one statement. A delivery
 * that needs a retry is handed to its Temporal workflow `delivery:<id>` (attempt 2 on, the interface's schedule, the
 * Temporal UI, manual retry); one delivered or failed at once needs no workflow at all, which is what makes a
 * delivery cheap: a workflow costs the Temporal server several milliseconds of CPU, the dispatcher two statements.
 */
export function createWebhookDispatcher(
  deps: Pick<WebhookActivityDeps, 'db' | 'secretBox' | 'resolver' | 'allowLoopbackForTests' | 'timeouts' | 'now' | 'logger'> & {
    startRetries(input: DeliveryWorkflowInput): Promise<void>;
  },
  opts: DispatcherOptions,
): WebhookDispatcher {
  const now = deps.now ?? (() => new Date());
  const pollMs = opts.pollMs ?? 1000;
  // A claim is renewed every leaseMs / 3 while this dispatcher holds it; a dead one's rows are taken over after leaseMs.
  const leaseMs = opts.leaseMs ?? LEASE_MS;
  const limits = dispatchLimits(opts);
  let claim = randomUUID();
  // Per destination: its POSTs in flight, and claimed rows waiting for one of its slots (claimed ahead, so a freed
  // slot is refilled without waiting for the database).
  const destinations = new Map<string, { tenantId: string; sending: number; ready: ClaimedDelivery[] }>();
  // Claimed and not yet recorded: waiting, sending, or being written back.
  let held = 0;
  const heldIds = new Set<string>();
  let drained: (() => void) | null = null;
  let started = false;
  // Claims when something may be waiting: at start, after a notification or a poll tick, after a full claim, when a
  // destination's claimed rows run out.
  const queue = createQueueLoop(deps.db, {
    channel: DISPATCH_CHANNEL,
    what: 'webhook dispatcher',
    logger: deps.logger,
    pollMs,
    ready: claimNow,
    round: claimRound,
  });
  const poke = () => queue.poke();
  const notified = () => queue.notify();

  /** Rows held per destination (sending or waiting), which the claim tops up to twice the destination's cap. */
  function heldPerDestination(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [id, d] of destinations) out.set(id, d.sending + d.ready.length);
    return out;
  }

  /**
   * Rows held per tenant over all its destinations, counted as per destination (sending or waiting): a row whose POST
   * was answered no longer holds anything of its tenant's, only a slot of the process until it is recorded.
   */
  function heldPerTenant(): Map<string, number> {
    const out = new Map<string, number>();
    for (const d of destinations.values()) out.set(d.tenantId, (out.get(d.tenantId) ?? 0) + d.sending + d.ready.length);
    return out;
  }

  function accept(c: ClaimedDelivery): void {
    held++;
    heldIds.add(c.delivery.id);
    const id = c.endpoint.id;
    let d = destinations.get(id);
    if (!d) destinations.set(id, (d = { tenantId: c.endpoint.tenantId, sending: 0, ready: [] }));
    d.ready.push(c);
    pump(id);
  }

  /** Sends the destination's waiting rows while it has free slots. */
  function pump(id: string): void {
    const d = destinations.get(id);
    if (!d) return;
    while (d.sending < opts.perEndpoint && d.ready.length > 0) {
      const c = d.ready.shift()!;
      d.sending++;
      let released = false;
      // The slot is the receiver's: free again once the POST is answered, before the result is written.
      const releaseSlot = () => {
        if (released) return;
        released = true;
        d.sending--;
        pump(id);
        if (d.ready.length === 0) {
          if (d.sending === 0) destinations.delete(id);
          notified(); // its claimed rows ran out: claim more (rows skipped for its or its tenant's cap may go now)
        }
      };
      void handle(c, releaseSlot)
        .catch((err: unknown) => deps.logger.error({ err, deliveryId: c.delivery.id }, 'webhook dispatcher: a delivery could not be recorded or handed to its workflow; it is taken up again when its claim lapses'))
        .finally(() => {
          releaseSlot();
          const sharedFull = held >= limits.shared;
          held--;
          heldIds.delete(c.delivery.id);
          if (held === 0) drained?.();
          // Rows left for want of a shared slot may be claimed now.
          if (sharedFull) notified();
          else poke();
        });
    }
  }

  async function handle(c: ClaimedDelivery, releaseSlot: () => void): Promise<void> {
    if (c.dispatch === 'handoff') return handOver(c, c.delivery.nextAttemptAt);
    if (c.attemptId === null) return releaseClaim(deps.db, c); // settled meanwhile (not pending): nothing to send
    const profile = DELIVERY_PROFILES[c.delivery.interface];
    const sent = c.endpoint.status === 'enabled'
      ? await signAndSend(deps, c)
      : { verdict: 'terminal' as const, statusCode: null, errorClass: 'endpoint_disabled', durationMs: 0 };
    releaseSlot();
    const step = nextStep(sent.verdict, 1, profile);
    const delays = c.retryDelaysMs ?? (c.delivery.interface === 'v1' ? opts.retryDelaysMs : undefined) ?? scheduleMs(profile);
    const nextAttemptAt = step.state === 'retrying' ? new Date(now().getTime() + delays[0]!) : null;
    const kept = await record({
      claimed: c,
      attemptId: c.attemptId,
      result: { outcome: sent.verdict, statusCode: sent.statusCode, errorClass: sent.errorClass, durationMs: sent.durationMs },
      state: step.state,
      nextAttemptAt,
    });
    deps.logger.info(
      { deliveryId: c.delivery.id, attempt: 1, status: sent.statusCode, errorClass: sent.errorClass, ms: sent.durationMs, verdict: sent.verdict },
      'webhook attempt',
    );
    if (kept && step.state === 'retrying') await handOver(c, nextAttemptAt);
  }

  // Group commit: attempts that end while a write is in flight are recorded together by the next one.
  let pending: Array<{ result: DispatchedResult; done: (kept: boolean) => void; fail: (err: unknown) => void }> = [];
  let writing = false;
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
        const kept = await finishDispatched(deps.db, batch.map((p) => p.result));
        for (const p of batch) p.done(kept.has(p.result.claimed.delivery.id));
      } catch (err) {
        for (const p of batch) p.fail(err);
      }
    }
    writing = false;
  }

  /** Starts `delivery:<id>` from attempt 2 at the scheduled time; on failure the claim expires and this is retried. */
  async function handOver(c: ClaimedDelivery, resumeAt: Date | null): Promise<void> {
    const delays = c.retryDelaysMs ?? (c.delivery.interface === 'v1' ? opts.retryDelaysMs : undefined);
    await deps.startRetries({
      deliveryId: c.delivery.id,
      interface: c.delivery.interface,
      startAttempt: 2,
      ...(resumeAt ? { resumeAt: resumeAt.getTime() } : {}),
      ...(delays ? { delaysMs: delays } : {}),
    });
    await releaseClaim(deps.db, c);
  }

  /**
   * Claim when a quarter of the rows one process may hold are free (or it holds none): a busy queue is read in batches.
   * Once the shared slots are taken, only tenants' first rows can go: those are claimed whenever a slot is free.
   */
  function claimNow(): boolean {
    const free = opts.concurrency - held;
    return free > 0 && (free >= Math.max(1, opts.concurrency / 4) || held === 0 || held >= limits.shared);
  }

  let queueDown = false;
  /** One claim; true when it filled every free slot (more may be waiting). */
  async function claimRound(): Promise<boolean> {
    const free = opts.concurrency - held;
    try {
      const claimed = await claimDispatch(deps.db, {
        claim, limit: free, leaseMs, perEndpoint: limits.heldPerEndpoint, perTenant: limits.perTenant, shared: limits.shared - held,
        inFlight: heldPerDestination(), tenantsHeld: heldPerTenant(), held: [...heldIds],
      });
      if (queueDown) deps.logger.info('webhook dispatcher: reading the queue again');
      queueDown = false;
      for (const c of claimed) accept(c);
      return claimed.length === free;
    } catch (err) {
      // One warning per outage: the poll tries again every second.
      if (!queueDown) deps.logger.warn({ err }, 'webhook dispatcher: could not read the queue; trying again every second');
      queueDown = true;
      return false;
    }
  }

  let stopped: Promise<void> | null = null;
  let renewer: NodeJS.Timeout | undefined;
  return {
    start() {
      if (started) return;
      started = true;
      stopped = null;
      claim = randomUUID();
      renewer = setInterval(() => {
        if (held > 0) void renewClaims(deps.db, claim, [...heldIds], leaseMs).catch((err: unknown) => deps.logger.warn({ err }, 'webhook dispatcher: could not renew its claims'));
      }, leaseMs / 3).unref();
      queue.start();
    },
    stop() {
      stopped ??= (async () => {
        await queue.stop();
        started = false;
        // What was claimed is still sent (at most `concurrency` rows), so nothing waits for a lease to expire.
        if (held > 0) await new Promise<void>((resolve) => (drained = resolve));
        drained = null;
        clearInterval(renewer);
      })();
      return stopped;
    },
  };
}
