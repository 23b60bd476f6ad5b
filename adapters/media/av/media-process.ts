import { spawn, spawnSync } from 'node:child_process';

/**
 * ffmpeg and ffprobe as child processes: a small spawn wrapper of our own rather than `fluent-ffmpeg` (archived
 * upstream; its kill stops only the ffmpeg pid and leaves it running when the worker dies). Every run:
 * - has a time limit, and an AbortSignal (the activity's cancellation);
 * - runs in its own process group, killed as a group (SIGKILL) on timeout or abort;
 * - is started through `setpriv --pdeathsig SIGKILL` (util-linux, Essential in Debian) when it is installed, so a
 *   worker killed with SIGKILL takes its ffmpeg with it instead of leaving an orphan encoding on;
 * - reports progress from ffmpeg's `-progress pipe:1` output (`out_time_us`), never by parsing its log.
 * Arguments are an array (no shell); file paths are always server-made, and passed after `-i` or as the last
 * argument, prefixed with `file:` so a name can never be read as an option or a protocol.
 */
export interface MediaToolOptions {
  ffmpegPath?: string;
  ffprobePath?: string;
  /** Time limit of one ffmpeg run (an operation); default 25 minutes, under the job activity's 30-minute limit. */
  timeoutMs?: number;
  /** Time limit of one ffprobe or measuring run (decoding 10 hours of MP3 takes about a minute); default 5 minutes. */
  probeTimeoutMs?: number;
}

export const DEFAULT_FFMPEG_TIMEOUT_MS = 25 * 60_000;
export const DEFAULT_PROBE_TIMEOUT_MS = 5 * 60_000;

/** The engine could not be started (not installed, no resources): the platform's fault, never the file's. */
export class MediaToolUnavailable extends Error {
  constructor(tool: string, cause: unknown) {
    super(`the media engine (${tool}) could not be started`, { cause });
    this.name = 'MediaToolUnavailable';
  }
}

/** The engine ran past its time limit and was stopped (with its whole process group). */
export class MediaToolTimeout extends Error {
  constructor(tool: string, ms: number) {
    super(`the media engine (${tool}) took longer than ${Math.round(ms / 1000)} s`);
    this.name = 'MediaToolTimeout';
  }
}

/** The engine exited with an error: the file could not be read or processed. `detail` is its last log line. */
export class MediaToolFailed extends Error {
  constructor(tool: string, readonly exitCode: number | null, readonly detail: string) {
    super(`${tool} failed (exit ${exitCode}): ${detail}`);
    this.name = 'MediaToolFailed';
  }
}

let setprivChecked: boolean | undefined;
function hasSetpriv(): boolean {
  if (setprivChecked === undefined) {
    const r = spawnSync('setpriv', ['--version'], { stdio: 'ignore', timeout: 5000 });
    setprivChecked = r.status === 0;
  }
  return setprivChecked;
}

export interface RunOptions {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Each `key=value` block of `-progress pipe:1` (ffmpeg only); called once per block. */
  onProgress?: ((block: Record<string, string>) => void) | undefined;
  /**
   * Each complete line of the tool's log (stderr; `\r` or `\n` ends a line), as it comes: for filters that report
   * through the log (silencedetect). The log is not kept beyond its last 4000 characters otherwise.
   */
  onStderrLine?: ((line: string) => void) | undefined;
}

/** Runs `program args`; resolves its stdout (unless progress is read from it), rejects with the errors above. */
export function runMediaTool(tool: 'ffmpeg' | 'ffprobe', program: string, args: string[], opts: RunOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(opts.signal.reason instanceof Error ? opts.signal.reason : new Error('aborted'));
    const [cmd, argv] = hasSetpriv() ? ['setpriv', ['--pdeathsig', 'SIGKILL', '--', program, ...args]] : [program, args];
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    let err = '';
    let partial = '';
    let errPartial = '';
    let block: Record<string, string> = {};
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
      if (!opts.onProgress) {
        out += c.toString();
        return;
      }
      const lines = (partial + c.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const eq = line.indexOf('=');
        if (eq <= 0) continue;
        const key = line.slice(0, eq).trim();
        block[key] = line.slice(eq + 1).trim();
        if (key === 'progress') {
          const done = block;
          block = {};
          opts.onProgress(done);
        }
      }
    });
    child.stderr.on('data', (c: Buffer) => {
      const text = c.toString();
      err = (err + text).slice(-4000);
      if (!opts.onStderrLine) return;
      const lines = (errPartial + text).split(/\r\n|\r|\n/);
      errPartial = lines.pop() ?? '';
      for (const line of lines) opts.onStderrLine(line);
    });
    const finish = () => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (e) => {
      finish();
      reject(new MediaToolUnavailable(tool, e));
    });
    child.on('close', (code) => {
      finish();
      if (errPartial && opts.onStderrLine) opts.onStderrLine(errPartial);
      errPartial = '';
      if (ended === 'timeout') return reject(new MediaToolTimeout(tool, opts.timeoutMs));
      if (ended === 'abort') return reject(opts.signal?.reason instanceof Error ? opts.signal.reason : new Error(`${tool} was stopped`));
      if (code === 0) return resolve(out);
      // setpriv answers 127 when it cannot execute the program (not installed).
      if (code === 127 && hasSetpriv()) return reject(new MediaToolUnavailable(tool, new Error(`${program} not found`)));
      const lines = err.split('\n').map((l) => l.trim()).filter(Boolean);
      reject(new MediaToolFailed(tool, code, (lines.at(-1) ?? 'no message').slice(0, 200)));
    });
  });
}

/** `file:` + an absolute server-made path: never an option, a protocol or a pipe. */
export const fileArg = (path: string) => `file:${path}`;
