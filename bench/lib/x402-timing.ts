/**
 * Timing decorators for the x402 benchmark: they wrap the production facilitator client and chain reader
 * (nothing in the platform changes) and charge the time of each call to the paid request being measured.
 * Requests are measured one at a time, so "the current call" is unambiguous.
 */
import type { FacilitatorClient } from '@x402/core/server';
import type { ChainReader } from '../../adapters/chains/types.js';

export type PaidPhase = 'verify' | 'read' | 'settle';

/** What one paid request spent in each phase (ms, summed when a phase ran more than once) and its RPC calls. */
export interface PhaseSample {
  ms: Record<PaidPhase, number>;
  calls: Record<PaidPhase, number>;
  /** JSON-RPC methods the chain reader sent during the request, in order. */
  rpc: string[];
}

export interface PhaseRecorder {
  /** Starts charging calls to a new sample. */
  begin(): void;
  /** Stops charging and returns the sample of the request that just ended. */
  end(): PhaseSample;
  time<T>(phase: PaidPhase, run: () => Promise<T>): Promise<T>;
  /** For createEvmReader's onRpcCall hook. */
  rpcCall(method: string): void;
  /** Phase calls and RPC calls that happened outside begin()/end() (should stay 0 while measuring). */
  readonly stray: { calls: number; rpc: number };
}

const emptySample = (): PhaseSample => ({
  ms: { verify: 0, read: 0, settle: 0 },
  calls: { verify: 0, read: 0, settle: 0 },
  rpc: [],
});

export function createPhaseRecorder(): PhaseRecorder {
  let current: PhaseSample | null = null;
  const stray = { calls: 0, rpc: 0 };
  return {
    stray,
    begin() {
      current = emptySample();
    },
    end() {
      const sample = current ?? emptySample();
      current = null;
      return sample;
    },
    async time(phase, run) {
      const sample = current;
      if (!sample) stray.calls++;
      const started = performance.now();
      try {
        return await run();
      } finally {
        if (sample) {
          sample.ms[phase] += performance.now() - started;
          sample.calls[phase]++;
        }
      }
    },
    rpcCall(method) {
      if (current) current.rpc.push(method);
      else stray.rpc++;
    },
  };
}

/** The facilitator client with verify and settle timed (getSupported passes through untimed). */
export function timedFacilitator(inner: FacilitatorClient, rec: PhaseRecorder): FacilitatorClient {
  return {
    verify: (payload, requirements) => rec.time('verify', () => inner.verify(payload, requirements)),
    settle: (payload, requirements) => rec.time('settle', () => inner.settle(payload, requirements)),
    getSupported: () => inner.getSupported(),
  };
}

/** The chain reader with getEvidence timed. */
export function timedChainReader(inner: ChainReader, rec: PhaseRecorder): ChainReader {
  return { getEvidence: (network, txHash) => rec.time('read', () => inner.getEvidence(network, txHash)) };
}
