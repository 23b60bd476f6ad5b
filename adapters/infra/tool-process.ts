import { spawn, spawnSync } from 'node:child_process';
import { basename } from 'node:path';
import { inSpan, traceEnv } from '../tracing/tracing.js';

/**
 * One run of an engine program (ffmpeg, ffprobe, tesseract, ocrmypdf, pdftoppm…) as a child process, shared by
 * the media, OCR and transcription adapters, which map its outcomes onto their own errors. Every run:
 * - takes an argument vector (no shell);
 * - has a time limit, and an AbortSignal (the activity's cancellation);
 * - runs in its own process group, killed as a group (SIGKILL) on timeout or abort, so the programs it starts
 *   (ocrmypdf runs tesseract) go too;
 * - is started through `setpriv --pdeathsig SIGKILL` (util-linux, Essential in Debian) when it is installed, so a
 *   worker killed with SIGKILL takes its engine with it instead of leaving an orphan running on.
 */

/** The program could not be started (not installed, no resources). */
export class ToolUnavailable extends Error {
  constructor(
    readonly program: string,
    cause: unknown,
  ) {
    super(`${program} could not be started`, { cause });
    this.name = 'ToolUnavailable';
  }
}

/** The program ran past its time limit and was stopped (with its process group). */
export class ToolTimeout extends Error {
  constructor(
    readonly program: string,
    readonly timeoutMs: number,
  ) {
    super(`${program} took longer than ${Math.round(timeoutMs / 1000)} s`);
    this.name = 'ToolTimeout';
  }
}

/** The program exited with a failure; `stderr` is the last 4000 characters of its log. */
export class ToolFailed extends Error {
  constructor(
    readonly program: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`${program} failed (exit ${exitCode ?? 'signal'})`);
    this.name = 'ToolFailed';
  }
}

export interface ToolRunOptions {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Extra environment, merged over the process environment. */
  env?: Record<string, string> | undefined;
  /** Upper bound of kept standard output in bytes (default 64 MB); more is a ToolFailed. */
  maxStdoutBytes?: number | undefined;
  /** Each complete line of standard output, as it comes; standard output is then not kept. */
  onStdoutLine?: ((line: string) => void) | undefined;
  /** Each complete line of the log (stderr; `\r` or `\n` ends a line), as it comes. */
  onStderrLine?: ((line: string) => void) | undefined;
}

let setprivChecked: boolean | undefined;
function hasSetpriv(): boolean {
  if (setprivChecked === undefined) {
    const r = spawnSync('setpriv', ['--version'], { stdio: 'ignore', timeout: 5000 });
    setprivChecked = r.status === 0;
  }
  return setprivChecked;
}

/** Calls `each` for every complete line of a stream's chunks; `flush` hands over the last, unterminated one. */
function lineSplitter(separator: RegExp | string, each: (line: string) => void) {
  let partial = '';
  return {
    push(text: string) {
      const lines = (partial + text).split(separator);
      partial = lines.pop() ?? '';
      for (const line of lines) each(line);
    },
    flush() {
      if (partial) each(partial);
      partial = '';
    },
  };
}

/**
 * Runs `program args`; resolves its standard output (empty when `onStdoutLine` reads it), rejects with the errors above.
 * While tracing is on (adapters/tracing) the run is a span `engine <program>` and the child gets the trace context in
 * its environment (TRACEPARENT), so an engine that traces continues the job's trace.
 */
export function runToolProcess(program: string, args: readonly string[], opts: ToolRunOptions): Promise<Buffer> {
  const engine = basename(program);
  const started = performance.now();
  const run = inSpan(`engine ${engine}`, { 'engine.name': engine }, () => {
    const trace = traceEnv();
    const env = trace.TRACEPARENT ? { ...opts.env, ...trace } : opts.env;
    return spawnTool(program, args, { ...opts, env });
  });
  if (engineObservers.size === 0) return run;
  const observe = (outcome: EngineOutcome) => {
    for (const o of engineObservers) o({ engine, outcome, seconds: (performance.now() - started) / 1000 });
  };
  return run.then(
    (out) => (observe('ok'), out),
    (e: unknown) => {
      observe(outcomeOf(e));
      throw e;
    },
  );
}

export type EngineOutcome = 'ok' | 'failed' | 'timeout' | 'stopped' | 'unavailable';
export type EngineObserver = (run: { engine: string; outcome: EngineOutcome; seconds: number }) => void;
const engineObservers = new Set<EngineObserver>();

/**
 * Calls `observer` after every engine run of this process (the worker counts them: paycore_engine_runs_total); returns
 * the function that stops it.
 */
export function observeEngineRuns(observer: EngineObserver): () => void {
  engineObservers.add(observer);
  return () => engineObservers.delete(observer);
}

function outcomeOf(e: unknown): EngineOutcome {
  if (e instanceof ToolTimeout) return 'timeout';
  if (e instanceof ToolUnavailable) return 'unavailable';
  if (e instanceof ToolFailed) return 'failed';
  return 'stopped';
}

function spawnTool(program: string, args: readonly string[], opts: ToolRunOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const aborted = () =>
      opts.signal?.reason instanceof Error ? opts.signal.reason : new Error(`${program} was stopped`);
    if (opts.signal?.aborted) return reject(aborted());
    const [cmd, argv] = hasSetpriv()
      ? ['setpriv', ['--pdeathsig', 'SIGKILL', '--', program, ...args]]
      : [program, [...args]];
    // The child inherits the environment (PATH for the programs it runs) plus the engine's settings.
    // eslint-disable-next-line no-restricted-properties
    const env = opts.env ? { ...process.env, ...opts.env } : undefined;
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...(env ? { env } : {}) });
    const max = opts.maxStdoutBytes ?? 64 * 1024 * 1024;
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    const stdoutLines = opts.onStdoutLine && lineSplitter('\n', opts.onStdoutLine);
    const stderrLines = opts.onStderrLine && lineSplitter(/\r\n|\r|\n/, opts.onStderrLine);
    let ended: 'timeout' | 'abort' | null = null;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      ended = 'timeout';
      killGroup();
    }, opts.timeoutMs);
    const onAbort = () => {
      ended = 'abort';
      killGroup();
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (c: Buffer) => {
      if (stdoutLines) return stdoutLines.push(c.toString());
      outBytes += c.length;
      if (outBytes <= max) out.push(c);
    });
    child.stderr.on('data', (c: Buffer) => {
      const text = c.toString();
      err = (err + text).slice(-4000);
      stderrLines?.push(text);
    });
    const finish = () => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (e) => {
      finish();
      reject(new ToolUnavailable(program, e));
    });
    child.on('close', (code) => {
      finish();
      stdoutLines?.flush();
      stderrLines?.flush();
      if (ended === 'timeout') return reject(new ToolTimeout(program, opts.timeoutMs));
      if (ended === 'abort') return reject(aborted());
      // setpriv answers 127 when it cannot execute the program (not installed).
      if (code === 127 && hasSetpriv()) return reject(new ToolUnavailable(program, new Error(`${program} not found`)));
      if (code !== 0) return reject(new ToolFailed(program, code, err));
      if (outBytes > max) return reject(new ToolFailed(program, code, `more than ${max} bytes of output`));
      resolve(Buffer.concat(out));
    });
  });
}
