import { runToolProcess, ToolFailed, ToolTimeout, ToolUnavailable } from '../../infra/tool-process.js';

/**
 * ffmpeg and ffprobe as child processes, on the platform's engine runner (adapters/infra/tool-process.ts) rather
 * than `fluent-ffmpeg` (archived upstream; its kill stops only the ffmpeg pid and leaves it running when the worker
 * dies). Every run has a time limit and an AbortSignal, runs in its own process group killed as a group, dies with
 * its worker (setpriv --pdeathsig), and reports progress from ffmpeg's `-progress pipe:1` output (`out_time_us`),
 * never by parsing its log.
 * Arguments are an array (no shell); file paths are always server-made, and passed after `-i` or as the last
 * argument, prefixed with `file:` so a name can never be read as an option or a protocol.
 *
 * What an input may be read as is decided here, for every run, not by each caller: every input (`-i`) is opened with
 * `-protocol_whitelist file` and `-format_whitelist` of ACCEPTED_CONTAINERS (see runMediaTool). ffmpeg's own default
 * for playlists (`file,crypto,data`) stops only network protocols: an HLS playlist, a DASH manifest or an ffconcat
 * list naming a local file would otherwise be read through to that file.
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
  constructor(
    tool: string,
    readonly exitCode: number | null,
    readonly detail: string,
  ) {
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

/**
 * The containers (ffmpeg demuxer names) a source may be read as: the ones the audio and video tools, transcription and
 * measuring accept (docs/processing.md, "Uploads"). Each holds its media itself; none names other files. Everything
 * else is refused by ffmpeg and ffprobe before its header is read: playlists and manifests (`hls`, `dash`), lists
 * (`concat`), image sequences (`image2`), network descriptions (`sdp`, `rtsp`), and any container not listed.
 * `mov` is ffmpeg's one demuxer of the ISO-BMFF family (MP4, M4A, QuickTime, 3GPP, Motion JPEG 2000), whose
 * external data references are off by default (`enable_drefs`); `matroska` covers WebM.
 */
export const ACCEPTED_CONTAINERS = [
  'mov',
  'matroska',
  'mp3',
  'wav',
  'ogg',
  'flac',
  'aac',
  'amr',
  'mpegts',
  'mpeg',
  'avi',
] as const;

/** Whether ffprobe's `format_name` (e.g. `mov,mp4,m4a,3gp,3g2,mj2`) names an accepted container. */
export function isAcceptedContainer(formatName: string | undefined): boolean {
  const names = String(formatName ?? '').split(',');
  return names.some((n) => (ACCEPTED_CONTAINERS as readonly string[]).includes(n));
}

/** The options every input is opened with: local files only, in an accepted container only. */
const INPUT_GUARD = ['-protocol_whitelist', 'file', '-format_whitelist', ACCEPTED_CONTAINERS.join(',')];

/**
 * The arguments with INPUT_GUARD in force for every input: ffprobe reads one input (given with `-i`), and its format
 * options apply to it wherever they stand; ffmpeg's apply to the next `-i`, so they go before each. An input that is not a `file:` path
 * (a device, a filter graph, another protocol) is a programming error, refused before anything runs.
 */
export function guardInputs(tool: 'ffmpeg' | 'ffprobe', args: readonly string[]): string[] {
  const out: string[] = tool === 'ffprobe' ? [...INPUT_GUARD] : [];
  for (const [i, a] of args.entries()) {
    if (a === '-i') {
      const input = args[i + 1] ?? '';
      if (!input.startsWith('file:'))
        throw new TypeError(`${tool} input must be a file: path, not ${JSON.stringify(input.slice(0, 40))}`);
      if (tool === 'ffmpeg') out.push(...INPUT_GUARD);
    }
    out.push(a);
  }
  if (tool === 'ffprobe' && !args.includes('-i')) throw new TypeError("ffprobe's input must be given with -i");
  return out;
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
 * Runs `program args` (adapters/infra/tool-process.ts: process group, time limit, abort, pdeathsig) with every input
 * guarded (guardInputs: local files in ACCEPTED_CONTAINERS only); resolves its stdout (unless progress is read from
 * it), rejects with the errors above. Every ffmpeg and ffprobe run of the platform goes through here.
 */
export async function runMediaTool(
  tool: 'ffmpeg' | 'ffprobe',
  program: string,
  args: string[],
  opts: RunOptions,
): Promise<string> {
  const guarded = guardInputs(tool, args);
  try {
    const out = await runToolProcess(program, guarded, {
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
      const lines = e.stderr
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      throw new MediaToolFailed(tool, e.exitCode, (lines.at(-1) ?? 'no message').slice(0, 200));
    }
    throw e;
  }
}

/** `file:` + an absolute server-made path: never an option, a protocol or a pipe. */
export const fileArg = (path: string) => `file:${path}`;
