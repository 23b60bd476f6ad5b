import { parseArgs } from 'node:util';
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

/**
 * The entry point of a benchmark: parse the options (a bad one prints the usage and exits 2), run `main` under
 * a lifecycle, exit 1 when it fails or reports an unhealthy run, and always clean up.
 */
export async function runBenchmark<O>(opts: {
  progress: Progress;
  usage: string;
  parseOptions: (argv: string[]) => O;
  main: (options: O, run: RunLifecycle) => Promise<boolean>;
}): Promise<void> {
  let options: O;
  try {
    options = opts.parseOptions(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n${opts.usage}\n`);
    process.exit(2);
  }
  const run = createRunLifecycle(opts.progress);
  try {
    if (!(await opts.main(options, run))) process.exitCode = 1;
  } catch (e) {
    const detail = e instanceof Error ? (run.signal.aborted ? e.message : (e.stack ?? e.message)) : String(e);
    opts.progress(`benchmark failed: ${detail}`);
    process.exitCode = 1;
  } finally {
    await run.finish();
  }
}

/** An integer option in [min, max]; unset or blank gives the default, anything else is a usage error. */
export function intOption(name: string, raw: string | undefined, def: number, min: number, max: number): number {
  if (raw === undefined || raw.trim() === '') return def;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min || v > max)
    throw new Error(`${name} must be an integer in ${min}..${max} (got ${raw})`);
  return v;
}

/**
 * Parses `--name value` options (all strings, checked afterwards with intOption) and `--help`/`-h`, which
 * prints `usage` and exits. Unknown options are a usage error.
 */
export function benchArgs<N extends string>(
  argv: string[],
  names: readonly N[],
  usage: string,
): Partial<Record<N, string>> {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...Object.fromEntries(names.map((n) => [n, { type: 'string' as const }])),
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values['help']) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  return values as Partial<Record<N, string>>;
}
