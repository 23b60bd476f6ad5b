import { runToolProcess, ToolFailed, ToolTimeout, ToolUnavailable } from '../../infra/tool-process.js';

/**
 * ffmpeg and ffprobe as child processes, on the platform's engine runner (adapters/infra/tool-process.ts) rather
 * than `fluent-ffmpeg` (archived upstream; its kill stops only the ffmpeg pid and leaves it running when the worker
 * dies). Every run has a time limit and an AbortSignal, runs in its own process group killed as a group, dies with
 * its worker (setpriv --pdeathsig), and reports progress from ffmpeg's `-progress pipe:1` output (`out_time_us`),
 * never by parsing its log.
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

/** Reads `-progress pipe:1` lines into `key=value` blocks, each handed over at its `progress=` line. */
function progressBlocks(onBlock: (block: Record<string, string>) => void): (line: string) => void {
  let block: Record<string, string> = {};
  return (line) => {
    const eq = line.indexOf('=');
    if (eq <= 0) return;
    const key = line.slice(0, eq).trim();
    block[key] = line.slice(eq + 1).trim();
    if (key === 'progress') {
      const done = block;
      block = {};
      onBlock(done);
    }
  };
}

/**
 * Runs `program args` (adapters/infra/tool-process.ts: process group, time limit, abort, pdeathsig); resolves its
 * stdout (unless progress is read from it), rejects with the errors above.
 */
export async function runMediaTool(tool: 'ffmpeg' | 'ffprobe', program: string, args: string[], opts: RunOptions): Promise<string> {
  try {
    const out = await runToolProcess(program, args, {
      timeoutMs: opts.timeoutMs,
      signal: opts.signal,
      onStdoutLine: opts.onProgress && progressBlocks(opts.onProgress),
      onStderrLine: opts.onStderrLine,
    });
    return out.toString();
  } catch (e) {
    if (e instanceof ToolUnavailable) throw new MediaToolUnavailable(tool, e.cause);
    if (e instanceof ToolTimeout) throw new MediaToolTimeout(tool, e.timeoutMs);
    if (e instanceof ToolFailed) {
      const lines = e.stderr.split('\n').map((l) => l.trim()).filter(Boolean);
      throw new MediaToolFailed(tool, e.exitCode, (lines.at(-1) ?? 'no message').slice(0, 200));
    }
    throw e;
  }
}

/** `file:` + an absolute server-made path: never an option, a protocol or a pipe. */
export const fileArg = (path: string) => `file:${path}`;
