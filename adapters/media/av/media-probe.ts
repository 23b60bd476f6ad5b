import {
  DEFAULT_PROBE_TIMEOUT_MS,
  fileArg,
  MediaToolFailed,
  runMediaTool,
  type MediaToolOptions,
} from './media-process.js';

/** The part of `ffprobe -show_format -show_streams -of json` this service reads. */
export interface ProbeStream {
  index?: number;
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  sample_rate?: string;
  channels?: number;
  bit_rate?: string;
  duration?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
  side_data_list?: Array<{ side_data_type?: string; rotation?: number }>;
}

export interface ProbeData {
  format?: { format_name?: string; duration?: string; bit_rate?: string; tags?: Record<string, string> };
  streams?: ProbeStream[];
}

/** ffprobe's JSON answer about a file for `query` (its options before the input), or null when it cannot read the file. */
async function ffprobeJson<T>(
  path: string,
  query: string[],
  opts: MediaToolOptions,
  signal: AbortSignal | undefined,
): Promise<T | null> {
  let out: string;
  try {
    out = await runMediaTool(
      'ffprobe',
      opts.ffprobePath ?? 'ffprobe',
      ['-v', 'error', ...query, '-of', 'json', '-i', fileArg(path)],
      {
        timeoutMs: opts.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
        signal,
      },
    );
  } catch (e) {
    if (e instanceof MediaToolFailed) return null;
    throw e;
  }
  try {
    return JSON.parse(out) as T;
  } catch {
    return null;
  }
}

/** ffprobe's description of a file, or null when ffprobe cannot read it as media. */
export function probeMedia(path: string, opts: MediaToolOptions = {}, signal?: AbortSignal): Promise<ProbeData | null> {
  return ffprobeJson<ProbeData>(path, ['-show_format', '-show_streams'], opts, signal);
}

/**
 * The frames of the first moving video stream (`V`: cover art excluded), counted as its packets by reading the file
 * through (`-count_packets`: demuxed, not decoded; a second or so for 500 MB), not taken from what the container
 * states. Null when the file has no such stream or ffprobe cannot read it.
 */
export async function videoFrameCount(
  path: string,
  opts: MediaToolOptions = {},
  signal?: AbortSignal,
): Promise<number | null> {
  const answer = await ffprobeJson<{ streams?: Array<{ nb_read_packets?: string }> }>(
    path,
    ['-select_streams', 'V:0', '-count_packets', '-show_entries', 'stream=nb_read_packets'],
    opts,
    signal,
  );
  const packets = Number(answer?.streams?.[0]?.nb_read_packets);
  return Number.isSafeInteger(packets) && packets > 0 ? packets : null;
}

/** A picture stream that is a moving video (not an MP3's or M4A's cover art). */
export const isMovingVideo = (s: ProbeStream) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1;

/**
 * Containers whose per-stream durations are exact: ISO-BMFF (sample tables and edit lists), Matroska/WebM
 * (written by the muxer), FLAC (STREAMINFO sample count), WAV (data size of PCM), Ogg (last granule position).
 * Any other container (MP3, ADTS AAC, MPEG-TS/PS, AVI, …) may state an estimate, e.g. a VBR MP3 without a Xing
 * header is timed from its first frame's bitrate: its duration is measured by decoding instead.
 */
const EXACT_CONTAINERS = new Set(['mov', 'matroska', 'flac', 'wav', 'ogg']);

const finite = (v: string | undefined): number | null => {
  const n = Number(v);
  return v !== undefined && Number.isFinite(n) && n > 0 ? n : null;
};

/** `HH:MM:SS.fffffffff` (Matroska's DURATION tag) in seconds. */
const clock = (v: string | undefined): number | null => {
  const m = v ? /^(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(v.trim()) : null;
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : null;
};

/**
 * The duration the container states for the streams that matter: the longest of the audio stream and the moving
 * video stream (not the whole file's figure, which an MP4 may take from one track, nor cover art). Null when no
 * stream states one.
 */
export function containerDuration(data: ProbeData): number | null {
  const streams = (data.streams ?? []).filter((s) => s.codec_type === 'audio' || isMovingVideo(s));
  const durations = streams
    .map((s) => finite(s.duration) ?? clock(s.tags?.['DURATION']))
    .filter((d): d is number => d !== null && d > 0);
  if (durations.length > 0) return Math.max(...durations);
  return finite(data.format?.duration);
}

/**
 * Measures the media's duration by reading it through: the first audio stream decoded (exact: what a player plays,
 * after the encoder delay an MP3's LAME header declares), the first moving video stream's packets copied. The
 * figure is where the last of them ends (`out_time_us` of the final progress block).
 */
export async function decodedDuration(
  path: string,
  opts: MediaToolOptions = {},
  signal?: AbortSignal,
): Promise<number | null> {
  let outTimeUs = 0;
  await runMediaTool(
    'ffmpeg',
    opts.ffmpegPath ?? 'ffmpeg',
    [
      '-nostdin',
      '-v',
      'error',
      '-i',
      fileArg(path),
      '-map',
      '0:a:0?',
      '-map',
      '0:V:0?',
      '-c:V',
      'copy',
      '-f',
      'null',
      '-progress',
      'pipe:1',
      '-nostats',
      '-',
    ],
    {
      timeoutMs: opts.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
      signal,
      onProgress: (b) => {
        const us = Number(b['out_time_us']);
        if (Number.isFinite(us) && us > outTimeUs) outTimeUs = us;
      },
    },
  );
  return outTimeUs > 0 ? outTimeUs / 1e6 : null;
}

/**
 * The duration prices and trims use: the container's per-stream figure when the container is exact
 * (EXACT_CONTAINERS), else the decoded one; null when neither is known.
 */
export async function mediaDuration(
  path: string,
  data: ProbeData,
  opts: MediaToolOptions = {},
  signal?: AbortSignal,
): Promise<number | null> {
  const format = String(data.format?.format_name ?? '').split(',')[0] ?? '';
  const stated = containerDuration(data);
  if (EXACT_CONTAINERS.has(format) && stated !== null) return stated;
  try {
    return (await decodedDuration(path, opts, signal)) ?? stated;
  } catch (e) {
    // A file ffmpeg cannot read through keeps what its container states (ffprobe could read that much).
    if (e instanceof MediaToolFailed) return stated;
    throw e;
  }
}
