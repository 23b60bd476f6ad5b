import { randomUUID } from 'node:crypto';
import { DispatchHoldings } from './holdings.js';

/**
 * The one mutable state the dispatcher's parts share (the claim loop, the pump, the start and stop): what it holds, the
 * claim it writes into the rows it takes (a new one at each start), and who waits for the last held row on stop.
 */
export interface DispatcherState {
  readonly holdings: DispatchHoldings;
  claim: string;
  /** Set by `stop()` while rows are held: called once the last one is recorded. */
  drained: (() => void) | null;
}

export function createDispatcherState(): DispatcherState {
  return { holdings: new DispatchHoldings(), claim: randomUUID(), drained: null };
}

/** What one dispatcher holds at most (computed by `dispatchLimits`, which says why). */
export interface DispatchLimits {
  concurrency: number;
  perEndpoint: number;
  perTenant: number;
  heldPerEndpoint: number;
  shared: number;
}
