import type { ClaimedDelivery } from '../../db/repositories/webhook-dispatch.repo.js';

/** One destination's rows in this process: POSTs in flight, and claimed rows waiting for one of its slots. */
interface Destination {
  tenantId: string;
  sending: number;
  ready: ClaimedDelivery[];
}

/**
 * What one dispatcher holds (its state, no I/O): rows claimed and not yet recorded (waiting, sending, or being written
 * back), per destination its POSTs in flight and its rows claimed ahead (so a freed slot is refilled without waiting
 * for the database), and the counts the next claim is bounded by.
 */
export class DispatchHoldings {
  private readonly destinations = new Map<string, Destination>();
  private readonly ids = new Set<string>();

  /** Rows claimed and not yet recorded. */
  get held(): number {
    return this.ids.size;
  }

  /** Their delivery ids (the claims renewed, and excluded from the next claim). */
  heldIds(): string[] {
    return [...this.ids];
  }

  /** Rows held per destination (sending or waiting), which the claim tops up to twice the destination's cap. */
  perDestination(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [id, d] of this.destinations) out.set(id, d.sending + d.ready.length);
    return out;
  }

  /**
   * Rows held per tenant over all its destinations, counted as per destination (sending or waiting): a row whose POST
   * was answered no longer holds anything of its tenant's, only a slot of the process until it is recorded.
   */
  perTenant(): Map<string, number> {
    const out = new Map<string, number>();
    for (const d of this.destinations.values())
      out.set(d.tenantId, (out.get(d.tenantId) ?? 0) + d.sending + d.ready.length);
    return out;
  }

  /** A claimed row joins its destination's waiting rows. */
  add(c: ClaimedDelivery): void {
    this.ids.add(c.delivery.id);
    const id = c.endpoint.id;
    let d = this.destinations.get(id);
    if (!d) this.destinations.set(id, (d = { tenantId: c.endpoint.tenantId, sending: 0, ready: [] }));
    d.ready.push(c);
  }

  /** The destination's next waiting row, taking one of its `perEndpoint` slots; null when none waits or none is free. */
  takeNext(endpointId: string, perEndpoint: number): ClaimedDelivery | null {
    const d = this.destinations.get(endpointId);
    if (!d || d.sending >= perEndpoint || d.ready.length === 0) return null;
    d.sending++;
    return d.ready.shift()!;
  }

  /** A POST to the destination was answered: its slot is free. */
  freeSlot(endpointId: string): void {
    const d = this.destinations.get(endpointId);
    if (d) d.sending--;
  }

  /** True when the destination has no claimed row waiting (it is forgotten once nothing of it is in flight either). */
  ranOut(endpointId: string): boolean {
    const d = this.destinations.get(endpointId);
    if (!d) return true;
    if (d.ready.length > 0) return false;
    if (d.sending === 0) this.destinations.delete(endpointId);
    return true;
  }

  /** The row was recorded (or given up): it holds nothing any more. */
  release(deliveryId: string): void {
    this.ids.delete(deliveryId);
  }
}
