import type { Logger } from '../../adapters/logging/logger.js';
import type { ClaimedDelivery } from '../../db/repositories/webhook-dispatch.repo.js';
import type { DispatchSender } from './sender.js';
import type { DispatcherState, DispatchLimits } from './state.js';

/** How the pump wakes the claim loop (`QueueLoop.notify` and `poke`). */
export interface ClaimWakes {
  /** Rows may be waiting that this process may now claim. */
  notify(): void;
  /** Room was freed, no news: claim only if a claim was already due. */
  poke(): void;
}

/**
 * The dispatcher's pump: a claimed row joins its destination's waiting rows, and each destination's rows are sent
 * while it has free slots (`perEndpoint` POSTs in flight). Returns `accept`, which the claim loop calls per row.
 */
export function createPump(
  deps: { logger: Logger },
  state: DispatcherState,
  sender: DispatchSender,
  limits: DispatchLimits,
  wakes: ClaimWakes,
): (c: ClaimedDelivery) => void {
  const { holdings } = state;

  /** Sends the destination's waiting rows while it has free slots. */
  function pump(id: string): void {
    for (let c = holdings.takeNext(id, limits.perEndpoint); c; c = holdings.takeNext(id, limits.perEndpoint)) send(c);
  }

  function send(claimed: ClaimedDelivery): void {
    const id = claimed.endpoint.id;
    let released = false;
    // The slot is the receiver's: free again once the POST is answered, before the result is written.
    const releaseSlot = () => {
      if (released) return;
      released = true;
      holdings.freeSlot(id);
      pump(id);
      // Its claimed rows ran out: claim more (rows skipped for its or its tenant's cap may go now).
      if (holdings.ranOut(id)) wakes.notify();
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
        if (holdings.held === 0) state.drained?.();
        // Rows left for want of a shared slot may be claimed now.
        if (sharedFull) wakes.notify();
        else wakes.poke();
      });
  }

  return (c) => {
    holdings.add(c);
    pump(c.endpoint.id);
  };
}
