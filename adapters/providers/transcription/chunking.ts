import { chunkLengths } from '../../../domain/speech.js';
import {
  DEFAULT_FFMPEG_TIMEOUT_MS,
  DEFAULT_PROBE_TIMEOUT_MS,
  fileArg,
  runMediaTool,
  type MediaToolOptions,
} from '../../media/av/media-process.js';

/**
 * Long audio cut into chunks on silence, each transcribed on its own (one activity per chunk) and stitched back
 * onto the original timeline (stitch.ts).
 *
 * The timeline: seconds from the first decoded sample of the source's first audio stream, i.e. the timeline of the
 * 16 kHz mono WAV the engine transcribes (decode-audio.ts). Cut points are whole milliseconds (16 samples at
 * 16 kHz), so a chunk's span is an exact number of samples.
 *
 * How a chunk ends (planChunks): inside the silence nearest the chunk's target length within [min, max] (the
 * silence's middle, clamped into that window, strictly inside the silence), and the next chunk starts at the same
 * point. Where the window holds no silence, a hard cut at the max length, and the next chunk starts `overlap`
 * seconds earlier, so a word cut in two by the hard cut is whole in one of the two chunks; the stitcher splits the
 * overlap in its middle and drops words the two chunks both recognised there.
 */

export interface ChunkingOptions {
  /** Preferred chunk length (seconds). */
  targetSeconds: number;
  /** Shortest chunk, but for a source shorter than this (seconds). */
  minSeconds: number;
  /** Longest chunk (seconds). */
  maxSeconds: number;
  /** Overlap after a hard cut (no silence found), seconds; less than `minSeconds`. */
  overlapSeconds: number;
}

export interface SilenceOptions {
  /** Level under which audio counts as silence (dBFS, silencedetect's `noise`). */
  noiseDb: number;
  /** Shortest silence that counts (seconds, silencedetect's `d`). */
  minSilenceSeconds: number;
}

/** The chunk lengths of the default TRANSCRIPTION_CHUNK_SECONDS (300): 30 s to 10 minutes, a 2 s overlap on a hard cut. */
export const DEFAULT_CHUNKING: Readonly<ChunkingOptions> = Object.freeze(chunkLengths(300));
export const DEFAULT_SILENCE: Readonly<SilenceOptions> = Object.freeze({ noiseDb: -35, minSilenceSeconds: 0.5 });

export interface Silence {
  start: number;
  end: number;
}

export interface AudioChunk {
  /** 0, 1, 2, … in time order. */
  index: number;
  /** Seconds on the source's timeline; a chunk after a hard cut starts before the previous one ends (the overlap). */
  start: number;
  end: number;
}

/** The 16 kHz sample grid of the extracted chunks; cut points are whole milliseconds, which lie on it. */
export const CHUNK_SAMPLE_RATE = 16_000;

const ms = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** Checks the options' consistency; throws a RangeError naming the first problem. */
export function validateChunking(o: ChunkingOptions): void {
  const ok = (v: number) => Number.isFinite(v) && v >= 0;
  if (!ok(o.minSeconds) || !ok(o.targetSeconds) || !ok(o.maxSeconds) || !ok(o.overlapSeconds))
    throw new RangeError('chunk lengths must be finite and not negative');
  if (o.minSeconds <= 0) throw new RangeError('the minimum chunk length must be positive');
  if (!(o.minSeconds <= o.targetSeconds && o.targetSeconds <= o.maxSeconds))
    throw new RangeError('chunk lengths must satisfy min <= target <= max');
  if (o.overlapSeconds >= o.minSeconds)
    throw new RangeError('the overlap must be shorter than the minimum chunk length');
}

/**
 * Silences as silencedetect reports them, made usable: sorted, clipped to [0, duration], an open silence at the end
 * (no `silence_end` before the file ended) closed at `duration`, empty and overlapping ones dropped or merged.
 */
export function normaliseSilences(silences: Silence[], duration: number): Silence[] {
  const clipped = silences
    .map((s) => ({
      start: Math.max(0, Math.min(s.start, duration)),
      end: Math.max(0, Math.min(Number.isFinite(s.end) ? s.end : duration, duration)),
    }))
    .filter((s) => Number.isFinite(s.start) && s.end > s.start)
    .sort((a, b) => a.start - b.start);
  const out: Silence[] = [];
  for (const s of clipped) {
    const last = out.at(-1);
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/**
 * The chunks of `duration` seconds of audio, given its silences: contiguous (or overlapping by `overlapSeconds`
 * after a hard cut), covering [0, duration] from the first chunk's start to the last one's end. Empty for an empty
 * source; one chunk when the source is no longer than `maxSeconds`.
 */
export function planChunks(
  duration: number,
  silences: Silence[],
  options: ChunkingOptions = DEFAULT_CHUNKING,
): AudioChunk[] {
  validateChunking(options);
  if (!Number.isFinite(duration) || duration <= 0) return [];
  const { minSeconds: min, maxSeconds: max, targetSeconds: target, overlapSeconds: overlap } = options;
  const quiet = normaliseSilences(silences, duration);
  const chunks: AudioChunk[] = [];
  let start = 0;
  let from = 0; // first silence that may still lie after `start`
  while (duration - start > max) {
    // The cut lies in [lo, hi]: the chunk at least `min` long, at most `max`, and the rest at least `min` long.
    const lo = start + min;
    const hi = Math.min(start + max, duration - min);
    // Aim at the target, or at the middle of what is left when that is less than two targets (no short last chunk).
    const aim = duration - start < 2 * target ? start + (duration - start) / 2 : start + target;
    while (from < quiet.length && quiet[from]!.end <= start) from++;
    let best: { cut: number; length: number } | null = null;
    for (let i = from; i < quiet.length && quiet[i]!.start < hi; i++) {
      const s = quiet[i]!;
      if (s.end <= lo) continue;
      const cut = ms(Math.min(hi, Math.max(lo, (s.start + s.end) / 2)));
      if (!(cut > s.start && cut < s.end) || cut < lo || cut > hi) continue; // strictly inside the silence and the window
      const length = s.end - s.start;
      if (
        !best ||
        Math.abs(cut - aim) < Math.abs(best.cut - aim) ||
        (Math.abs(cut - aim) === Math.abs(best.cut - aim) && length > best.length)
      )
        best = { cut, length };
    }
    if (best) {
      chunks.push({ index: chunks.length, start, end: best.cut });
      start = best.cut;
    } else {
      const cut = ms(hi);
      chunks.push({ index: chunks.length, start, end: cut });
      start = ms(cut - overlap);
    }
  }
  chunks.push({ index: chunks.length, start, end: duration });
  return chunks;
}

const SILENCE_LINE = /^\[silencedetect @ (?:0x)?[0-9a-f]+\] silence_(start|end): (-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)/i;

/**
 * Reads silencedetect's log lines. Only lines that begin with the filter's own prefix count (a tag of the file,
 * printed in ffmpeg's stream dump, cannot pose as one: its continuation lines are indented). A `silence_end`
 * without a `silence_start` starts at 0; a `silence_start` never ended stays open (end = Infinity) until
 * normaliseSilences closes it at the duration.
 */
export class SilenceLogParser {
  readonly silences: Silence[] = [];
  private open: number | null = null;

  line(text: string): void {
    const m = SILENCE_LINE.exec(text.trimEnd());
    if (!m) return;
    const value = Number(m[2]);
    if (!Number.isFinite(value)) return;
    if (m[1]!.toLowerCase() === 'start') {
      if (this.open === null) this.open = Math.max(0, value);
    } else {
      this.silences.push({ start: this.open ?? 0, end: value });
      this.open = null;
    }
  }

  /** The silences so far, an unfinished one included (open-ended). */
  result(): Silence[] {
    return this.open === null ? [...this.silences] : [...this.silences, { start: this.open, end: Infinity }];
  }
}

export interface AudioAnalysis {
  /** Seconds of decoded audio (the first audio stream). */
  duration: number;
  /** Normalised (see normaliseSilences). */
  silences: Silence[];
}

/** The source's first audio stream decoded to 16 kHz mono on a timeline of samples from 0 (see the module note). */
const TO_TIMELINE = `aresample=${CHUNK_SAMPLE_RATE},aformat=sample_fmts=s16:channel_layouts=mono,asetpts=N/SR/TB`;

/**
 * One pass of ffmpeg over the source: its decoded duration (from `-progress`) and its silences (silencedetect).
 * Rejects with media-process.ts's errors (MediaToolFailed when the file has no decodable audio).
 */
export async function analyseAudio(
  source: string,
  silence: SilenceOptions = DEFAULT_SILENCE,
  opts: MediaToolOptions & { signal?: AbortSignal | undefined } = {},
): Promise<AudioAnalysis> {
  const parser = new SilenceLogParser();
  let outTimeUs = 0;
  const filter = `${TO_TIMELINE},silencedetect=noise=${silence.noiseDb}dB:d=${silence.minSilenceSeconds}`;
  await runMediaTool(
    'ffmpeg',
    opts.ffmpegPath ?? 'ffmpeg',
    [
      '-nostdin',
      '-hide_banner',
      '-nostats',
      '-loglevel',
      'info',
      '-i',
      fileArg(source),
      '-map',
      '0:a:0',
      '-vn',
      '-sn',
      '-dn',
      '-af',
      filter,
      '-f',
      'null',
      '-progress',
      'pipe:1',
      '-',
    ],
    {
      timeoutMs: opts.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
      signal: opts.signal,
      onStderrLine: (line) => parser.line(line),
      onProgress: (b) => {
        const us = Number(b['out_time_us']);
        if (Number.isFinite(us) && us > outTimeUs) outTimeUs = us;
      },
    },
  );
  const duration = outTimeUs / 1e6;
  return { duration, silences: normaliseSilences(parser.result(), duration) };
}

/** Analyses the source and plans its chunks (analyseAudio + planChunks). */
export async function planAudioChunks(
  source: string,
  options: { chunking?: ChunkingOptions; silence?: SilenceOptions } = {},
  opts: MediaToolOptions & { signal?: AbortSignal | undefined } = {},
): Promise<{ duration: number; silences: Silence[]; chunks: AudioChunk[] }> {
  const chunking = options.chunking ?? DEFAULT_CHUNKING;
  validateChunking(chunking);
  const analysis = await analyseAudio(source, options.silence ?? DEFAULT_SILENCE, opts);
  return { ...analysis, chunks: planChunks(analysis.duration, analysis.silences, chunking) };
}

/** How far before a chunk's start ffmpeg seeks (samples at 16 kHz): 2 s. */
const SEEK_MARGIN_SAMPLES = 2 * CHUNK_SAMPLE_RATE;

/**
 * Writes one chunk of the source as a 16 kHz mono 16-bit PCM WAV: exactly round(end × 16000) − round(start × 16000)
 * samples of the timeline above (padded with silence if the source ends early). ffmpeg seeks to SEEK_MARGIN before
 * the start (`-ss` before `-i`: fast, so a chunk late in a 10-hour file does not decode all before it, and accurate,
 * since with a re-encode ffmpeg drops what it decoded before that point), then the margin is dropped by sample count
 * after resampling, so the resampler has settled at the chunk's first sample. Checked against a full decode: the
 * chunk's samples line up with lag 0 for WAV, MP3 and AAC sources.
 */
export async function extractChunk(
  source: string,
  chunk: Pick<AudioChunk, 'start' | 'end'>,
  outPath: string,
  opts: MediaToolOptions & { signal?: AbortSignal | undefined } = {},
): Promise<void> {
  const first = Math.round(chunk.start * CHUNK_SAMPLE_RATE);
  const last = Math.round(chunk.end * CHUNK_SAMPLE_RATE);
  if (!(first >= 0 && last > first)) throw new RangeError('a chunk must start at or after 0 and end after its start');
  const args = ['-nostdin', '-hide_banner', '-nostats', '-loglevel', 'error', '-y'];
  let filter: string;
  if (first === 0) {
    filter = `${TO_TIMELINE},atrim=end_sample=${last},apad=whole_len=${last}`;
    args.push('-i', fileArg(source));
  } else {
    const seek = Math.max(0, first - SEEK_MARGIN_SAMPLES);
    const skip = first - seek;
    const count = last - first;
    filter = `${TO_TIMELINE},atrim=start_sample=${skip}:end_sample=${skip + count},asetpts=N/SR/TB,apad=whole_len=${count}`;
    args.push('-ss', (seek / CHUNK_SAMPLE_RATE).toFixed(6), '-i', fileArg(source));
  }
  args.push('-map', '0:a:0', '-vn', '-sn', '-dn', '-af', filter, '-c:a', 'pcm_s16le', '-f', 'wav', fileArg(outPath));
  await runMediaTool('ffmpeg', opts.ffmpegPath ?? 'ffmpeg', args, {
    timeoutMs: opts.timeoutMs ?? DEFAULT_FFMPEG_TIMEOUT_MS,
    signal: opts.signal,
  });
}
