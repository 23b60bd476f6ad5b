import { randomUUID } from 'node:crypto';
import {
  claimDispatch,
  DISPATCH_CHANNEL,
  renewClaims,
  type ClaimedDelivery,
} from '../db/repositories/webhook-dispatch.repo.js';
import { createQueueLoop } from '../db/listener.js';
import { DispatchHoldings } from './webhook-dispatch/holdings.js';
import { createDispatchSender, type SenderDeps } from './webhook-dispatch/sender.js';

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
export function dispatchLimits(opts: Pick<DispatcherOptions, 'concurrency' | 'perEndpoint' | 'perTenant'>): {
  perTenant: number;
  heldPerEndpoint: number;
  shared: number;
} {
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
 *
 * Three parts: what it holds (`DispatchHoldings`: per destination its POSTs in flight and its rows claimed ahead),
 * the sender (`createDispatchSender`: the attempt, the group-committed record, the hand-over to the workflow), and
 * here the claim loop that ties them (claim when slots are free, send within each destination's cap, renew the
 * claims, drain on stop).
 */
export function createWebhookDispatcher(deps: SenderDeps, opts: DispatcherOptions): WebhookDispatcher {
  const pollMs = opts.pollMs ?? 1000;
  // A claim is renewed every leaseMs / 3 while this dispatcher holds it; a dead one's rows are taken over after leaseMs.
  const leaseMs = opts.leaseMs ?? LEASE_MS;
  const limits = dispatchLimits(opts);
  const holdings = new DispatchHoldings();
  const sender = createDispatchSender(deps, { ...(opts.retryDelaysMs ? { retryDelaysMs: opts.retryDelaysMs } : {}) });
  let claim = randomUUID();
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

  function accept(c: ClaimedDelivery): void {
    holdings.add(c);
    pump(c.endpoint.id);
  }

  /** Sends the destination's waiting rows while it has free slots. */
  function pump(id: string): void {
    for (let c = holdings.takeNext(id, opts.perEndpoint); c; c = holdings.takeNext(id, opts.perEndpoint)) {
      const claimed = c;
      let released = false;
      // The slot is the receiver's: free again once the POST is answered, before the result is written.
      const releaseSlot = () => {
        if (released) return;
        released = true;
        holdings.freeSlot(id);
        pump(id);
        // Its claimed rows ran out: claim more (rows skipped for its or its tenant's cap may go now).
        if (holdings.ranOut(id)) notified();
      };
      void sender
        .send(claimed, releaseSlot)
        .catch((err: unknown) =>
          deps.logger.error(
            { err, deliveryId: claimed.delivery.id },
            'webhook dispatcher: a delivery could not be recorded or handed to its workflow; it is taken up again when its claim lapses',
          ),
        )
        .finally(() => {
          releaseSlot();
          const sharedFull = holdings.held >= limits.shared;
          holdings.release(claimed.delivery.id);
          if (holdings.held === 0) drained?.();
          // Rows left for want of a shared slot may be claimed now.
          if (sharedFull) notified();
          else poke();
        });
    }
  }

  /**
   * Claim when a quarter of the rows one process may hold are free (or it holds none): a busy queue is read in batches.
   * Once the shared slots are taken, only tenants' first rows can go: those are claimed whenever a slot is free.
   */
  function claimNow(): boolean {
    const held = holdings.held;
    const free = opts.concurrency - held;
    return free > 0 && (free >= Math.max(1, opts.concurrency / 4) || held === 0 || held >= limits.shared);
  }

  let queueDown = false;
  /** One claim; true when it filled every free slot (more may be waiting). */
  async function claimRound(): Promise<boolean> {
    const free = opts.concurrency - holdings.held;
    try {
      const claimed = await claimDispatch(deps.db, {
        claim,
        limit: free,
        leaseMs,
        perEndpoint: limits.heldPerEndpoint,
        perTenant: limits.perTenant,
        shared: limits.shared - holdings.held,
        inFlight: holdings.perDestination(),
        tenantsHeld: holdings.perTenant(),
        held: holdings.heldIds(),
      });
      if (queueDown) deps.logger.info('webhook dispatcher: reading the queue again');
      queueDown = false;
      for (const c of claimed) accept(c);
      return claimed.length === free;
    } catch (err) {
      // One warning per outage: the poll tries again every second.
      if (!queueDown)
        deps.logger.warn({ err }, 'webhook dispatcher: could not read the queue; trying again every second');
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
        if (holdings.held > 0)
          void renewClaims(deps.db, claim, holdings.heldIds(), leaseMs).catch((err: unknown) =>
            deps.logger.warn({ err }, 'webhook dispatcher: could not renew its claims'),
          );
      }, leaseMs / 3).unref();
      queue.start();
    },
    stop() {
      stopped ??= (async () => {
        await queue.stop();
        started = false;
        // What was claimed is still sent (at most `concurrency` rows), so nothing waits for a lease to expire.
        if (holdings.held > 0) await new Promise<void>((resolve) => (drained = resolve));
        drained = null;
        clearInterval(renewer);
      })();
      return stopped;
    },
  };
}
