import { randomUUID } from 'node:crypto';
import type { QueueLoop } from '../db/listener.js';
import { createClaimLoop, renewHeldClaims, type ClaimLoopDeps } from './webhook-dispatch/claim-loop.js';
import { createPump } from './webhook-dispatch/pump.js';
import { createDispatchSender, type SenderDeps } from './webhook-dispatch/sender.js';
import { createDispatcherState, type DispatcherState, type DispatchLimits } from './webhook-dispatch/state.js';

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
export function dispatchLimits(
  opts: Pick<DispatcherOptions, 'concurrency' | 'perEndpoint' | 'perTenant'>,
): DispatchLimits {
  const perTenant = Math.max(1, Math.min(opts.perTenant ?? Math.ceil(opts.concurrency / 2), opts.concurrency));
  return {
    concurrency: opts.concurrency,
    perEndpoint: opts.perEndpoint,
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
 * Its parts, each in `webhook-dispatch/` with its dependencies passed in, share only one state object
 * (`DispatcherState`: the rows held in `DispatchHoldings`, the claim, the drain waiter): the claim loop
 * (`createClaimLoop`: claim when slots are free, within the limits; `renewHeldClaims`), the pump (`createPump`: send
 * within each destination's cap, wake the claim loop when room frees) and the sender (`createDispatchSender`: the
 * attempt, the group-committed record, the hand-over to the workflow). Here they are tied together, started and
 * drained on stop.
 */
export function createWebhookDispatcher(deps: SenderDeps, opts: DispatcherOptions): WebhookDispatcher {
  // A claim is renewed every leaseMs / 3 while this dispatcher holds it; a dead one's rows are taken over after leaseMs.
  const leaseMs = opts.leaseMs ?? LEASE_MS;
  const limits = dispatchLimits(opts);
  const state = createDispatcherState();
  const sender = createDispatchSender(deps, { ...(opts.retryDelaysMs ? { retryDelaysMs: opts.retryDelaysMs } : {}) });
  // The pump wakes the claim loop, which hands the pump what it claims.
  const accept = createPump(deps, state, sender, limits, { notify: () => queue.notify(), poke: () => queue.poke() });
  const queue: QueueLoop = createClaimLoop(deps, state, { limits, leaseMs, pollMs: opts.pollMs ?? 1000 }, accept);
  return dispatcherLifecycle(deps, state, queue, leaseMs);
}

/** Start (a new claim, renewals, the claim loop) and stop (no more claims, what was claimed still sent, then drained). */
function dispatcherLifecycle(
  deps: ClaimLoopDeps,
  state: DispatcherState,
  queue: QueueLoop,
  leaseMs: number,
): WebhookDispatcher {
  let started = false;
  let stopped: Promise<void> | null = null;
  let stopRenewing: (() => void) | undefined;
  return {
    start() {
      if (started) return;
      started = true;
      stopped = null;
      state.claim = randomUUID();
      stopRenewing = renewHeldClaims(deps, state, leaseMs);
      queue.start();
    },
    stop() {
      stopped ??= (async () => {
        await queue.stop();
        started = false;
        // What was claimed is still sent (at most `concurrency` rows), so nothing waits for a lease to expire.
        if (state.holdings.held > 0) await new Promise<void>((resolve) => (state.drained = resolve));
        state.drained = null;
        stopRenewing?.();
      })();
      return stopped;
    },
  };
}
