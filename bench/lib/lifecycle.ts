import type { Progress } from '../../adapters/infra/progress.js';
import { withDeadline } from './measure.js';

/**
 * What a benchmark run set up, torn down in reverse order at the end whatever happened, plus an AbortSignal
 * raised by SIGINT/SIGTERM (a second signal exits at once). `finish()` also makes sure the process ends: a
 * leftover handle (a client retry timer after an interrupted run, say) gets 3 s, then the process exits.
 */
export interface RunLifecycle {
  signal: AbortSignal;
  defer(label: string, run: () => Promise<void>): void;
  finish(): Promise<void>;
}

export function createRunLifecycle(progress: Progress): RunLifecycle {
  const cleanups: Array<{ label: string; run: () => Promise<void> }> = [];
  const abort = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (abort.signal.aborted) {
      progress(`${signal} again: exiting without clean-up`);
      process.exit(130);
    }
    progress(`${signal}: stopping and cleaning up (press again to exit at once)`);
    abort.abort(new Error(`interrupted by ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  return {
    signal: abort.signal,
    defer(label, run) {
      cleanups.push({ label, run });
    },
    async finish() {
      progress('cleaning up');
      for (const { label, run } of cleanups.splice(0).reverse()) {
        const started = performance.now();
        try {
          await withDeadline(run(), 30_000, label);
          const ms = performance.now() - started;
          if (ms > 1000) progress(`clean-up "${label}" took ${(ms / 1000).toFixed(1)} s`);
        } catch (e) {
          progress(`clean-up "${label}" failed: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      setTimeout(() => {
        progress(`exiting; still pending: ${process.getActiveResourcesInfo().join(', ') || 'nothing'}`);
        process.exit();
      }, 3000).unref();
    },
  };
}
