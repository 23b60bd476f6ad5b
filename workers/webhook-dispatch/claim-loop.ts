import type { Logger } from '../../adapters/logging/logger.js';
import type { Db } from '../../db/connection.js';
import { createQueueLoop, type QueueLoop } from '../../db/listener.js';
import {
  claimDispatch,
  DISPATCH_CHANNEL,
  renewClaims,
  type ClaimedDelivery,
} from '../../db/repositories/webhook-dispatch.repo.js';
import type { DispatcherState, DispatchLimits } from './state.js';

export interface ClaimLoopDeps {
  db: Db;
  logger: Logger;
}

/**
 * The dispatcher's claim loop: claims queued rows when something may be waiting (at start, after a notification or a
 * poll tick, after a full claim, when a destination's claimed rows run out) and slots are free, within the limits, and
 * hands each claimed row to `accept`.
 */
export function createClaimLoop(
  deps: ClaimLoopDeps,
  state: DispatcherState,
  opts: { limits: DispatchLimits; leaseMs: number; pollMs: number },
  accept: (c: ClaimedDelivery) => void,
): QueueLoop {
  const { holdings } = state;
  const { limits } = opts;

  let queueDown = false;
  /** One claim; true when it filled every free slot (more may be waiting). */
  async function claimRound(): Promise<boolean> {
    const free = limits.concurrency - holdings.held;
    try {
      const claimed = await claimDispatch(deps.db, {
        claim: state.claim,
        limit: free,
        leaseMs: opts.leaseMs,
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

  return createQueueLoop(deps.db, {
    channel: DISPATCH_CHANNEL,
    what: 'webhook dispatcher',
    logger: deps.logger,
    pollMs: opts.pollMs,
    ready: () => claimNow(holdings.held, limits),
    round: claimRound,
  });
}

/**
 * Claim when a quarter of the rows one process may hold are free (or it holds none): a busy queue is read in batches.
 * Once the shared slots are taken, only tenants' first rows can go: those are claimed whenever a slot is free.
 */
function claimNow(held: number, limits: DispatchLimits): boolean {
  const free = limits.concurrency - held;
  return free > 0 && (free >= Math.max(1, limits.concurrency / 4) || held === 0 || held >= limits.shared);
}

/**
 * Renews the claims of the rows held every `leaseMs / 3` (a dead dispatcher's rows are taken over after `leaseMs`);
 * returns the function that stops renewing.
 */
export function renewHeldClaims(deps: ClaimLoopDeps, state: DispatcherState, leaseMs: number): () => void {
  const renewer = setInterval(() => {
    if (state.holdings.held > 0)
      void renewClaims(deps.db, state.claim, state.holdings.heldIds(), leaseMs).catch((err: unknown) =>
        deps.logger.warn({ err }, 'webhook dispatcher: could not renew its claims'),
      );
  }, leaseMs / 3).unref();
  return () => clearInterval(renewer);
}
