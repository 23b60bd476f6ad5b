import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { containerDuration, isMovingVideo, probeMedia, type ProbeData, type ProbeStream } from './media-probe.js';
import { DEFAULT_FFMPEG_TIMEOUT_MS, fileArg, runMediaTool, type MediaToolOptions } from './media-process.js';

/**
 * The audio and video tools on ffmpeg. Every operation re-encodes (a cut on a keyframe or an MP3 frame would not
 * be exact): video to H.264 + AAC in MP4, audio to the source's own format where it is a common one (MP3, WAV,
 * FLAC, Ogg), else AAC in M4A. Only the first video and the first audio stream are kept (cover art, subtitles and
 * data streams are dropped); a video's rotation metadata is applied to the pixels, so the output is upright as it
 * was displayed, with no rotation flag left.
 */
export type AvOperation =
  'audio-trim' | 'video-trim' | 'video-rotate' | 'video-resize' | 'audio-compress' | 'video-compress';

export const AUDIO_OUTPUTS = ['mp3', 'wav', 'flac', 'ogg', 'm4a'] as const;

/** The source is not audio or video this operation can process (shown to the client). */
export class UnsuitableMedia extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsuitableMedia';
  }
}

export interface AvProgress {
  /** Seconds of output written so far, and in all. */
  doneSeconds: number;
  totalSeconds: number;
}

export interface AvRunInput {
  operation: AvOperation;
  path: string;
  options: Record<string, unknown>;
  workDir: string;
  signal?: AbortSignal | undefined;
  onProgress?: ((p: AvProgress) => void) | undefined;
}

const num = (v: string | number | undefined): number | null => {
  const n = Number(v);
  return v !== undefined && Number.isFinite(n) && n > 0 ? n : null;
};

/** A bitrate within [lo, hi] bits/s: the source's (when known) times `factor`, else `fallback`. */
const bitrate = (source: number | null, factor: number, fallback: number, lo: number, hi: number) =>
  Math.round(Math.min(hi, Math.max(lo, source ? source * factor : fallback)));

/** The audio output of an audio operation: the source's format where it is common, else AAC in M4A. */
function audioTarget(
  operation: AvOperation,
  data: ProbeData,
  audio: ProbeStream,
): { format: (typeof AUDIO_OUTPUTS)[number]; codec: string[] } {
  const sourceRate = num(audio.bit_rate) ?? num(data.format?.bit_rate);
  const mono = audio.channels === 1;
  if (operation === 'audio-compress') {
    // Balanced: AAC at 96 kbit/s (64 mono), and never more than three quarters of the source's bitrate.
    const rate = Math.min(mono ? 64_000 : 96_000, bitrate(sourceRate, 0.75, 96_000, 24_000, 96_000));
    return { format: 'm4a', codec: ['-c:a', 'aac', '-b:a', String(rate)] };
  }
  const format = String(data.format?.format_name ?? '').split(',')[0];
  const codec = audio.codec_name ?? '';
  // A trim keeps the source's quality: its bitrate (within what the encoder takes).
  if (format === 'mp3')
    return {
      format: 'mp3',
      codec: ['-c:a', 'libmp3lame', '-b:a', String(bitrate(sourceRate, 1, 192_000, 32_000, 320_000))],
    };
  if (format === 'wav' && codec.startsWith('pcm_')) return { format: 'wav', codec: ['-c:a', codec] };
  if (format === 'flac') return { format: 'flac', codec: ['-c:a', 'flac'] };
  if (format === 'ogg' && codec === 'vorbis')
    return {
      format: 'ogg',
      codec: ['-c:a', 'libvorbis', '-b:a', String(bitrate(sourceRate, 1, 160_000, 48_000, 320_000))],
    };
  if (format === 'ogg' && codec === 'opus')
    return {
      format: 'ogg',
      codec: ['-c:a', 'libopus', '-b:a', String(bitrate(sourceRate, 1, 96_000, 16_000, 256_000))],
    };
  return { format: 'm4a', codec: ['-c:a', 'aac', '-b:a', String(bitrate(sourceRate, 1, 160_000, 32_000, 320_000))] };
}

/** The video filter of an operation (after ffmpeg's own autorotation); always ends on even dimensions (H.264 4:2:0). */
function videoFilter(operation: AvOperation, options: Record<string, unknown>): string {
  const even = 'scale=trunc(iw/2)*2:trunc(ih/2)*2';
  switch (operation) {
    case 'video-rotate': {
      const turn =
        options['angle'] === 90 ? 'transpose=clock' : options['angle'] === 270 ? 'transpose=cclock' : 'hflip,vflip';
      return `${turn},${even}`;
    }
    case 'video-resize': {
      // The display aspect ratio kept: width = height × DAR, rounded to the nearest even number; square pixels out.
      const h = Number(options['height']);
      return `scale=w=2*round(${h}*dar/2):h=${h},setsar=1`;
    }
    default:
      return even;
  }
}

function videoCodec(
  operation: AvOperation,
  video: ProbeStream,
  data: ProbeData,
  audio: ProbeStream | undefined,
): string[] {
  const audioRate = num(audio?.bit_rate);
  if (operation === 'video-compress') {
    // Balanced: x264 CRF 28 (medium), capped at 70 % of the source's video bitrate where it is known, so the
    // result is smaller than a source that was already tightly encoded; AAC at 96 kbit/s at most.
    const sourceVideoRate =
      num(video.bit_rate) ??
      (num(data.format?.bit_rate) ? Math.max(1, num(data.format?.bit_rate)! - (audioRate ?? 0)) : null);
    const cap = sourceVideoRate
      ? [
          '-maxrate',
          String(Math.max(50_000, Math.round(sourceVideoRate * 0.7))),
          '-bufsize',
          String(Math.max(100_000, Math.round(sourceVideoRate * 1.4))),
        ]
      : [];
    return [
      '-c:v',
      'libx264',
      '-preset',
      'medium',
      '-crf',
      '28',
      ...cap,
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      String(bitrate(audioRate, 0.75, 96_000, 32_000, 96_000)),
    ];
  }
  return [
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '20',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    String(bitrate(audioRate, 1, 160_000, 64_000, 320_000)),
  ];
}

/** The ffmpeg command of an operation on a probed source: its arguments, output format and output length. */
export interface AvCommand {
  args: string[];
  format: string;
  /** Seconds of output expected (progress is measured against it). */
  totalSeconds: number;
}

/**
 * Builds the ffmpeg arguments of `operation` reading `input` and writing `output(format)`. Trims take `start`
 * (default 0) and `end` in seconds of the source; the quote has checked them against the measured duration.
 * Exported so the benchmark runs the very same command directly.
 */
export function avCommand(
  operation: AvOperation,
  data: ProbeData,
  options: Record<string, unknown>,
  input: string,
  output: (format: string) => string,
): AvCommand {
  const streams = data.streams ?? [];
  const audio = streams.find((s) => s.codec_type === 'audio');
  const video = streams.find(isMovingVideo);
  const isVideoOp = operation.startsWith('video-');
  if (isVideoOp && !video) throw new UnsuitableMedia(`${operation} needs a video; the source has no video stream`);
  if (!isVideoOp && !audio) throw new UnsuitableMedia(`${operation} needs audio; the source has no audio stream`);

  const trim = operation === 'audio-trim' || operation === 'video-trim';
  const start = trim ? Number(options['start'] ?? 0) : 0;
  const end = trim ? Number(options['end']) : (containerDuration(data) ?? 0);
  const totalSeconds = Math.max(0.001, end - start);
  const seek = trim && start > 0 ? ['-ss', start.toFixed(6)] : [];
  const length = trim ? ['-t', totalSeconds.toFixed(6)] : [];
  let format: string;
  let encode: string[];
  if (isVideoOp) {
    format = 'mp4';
    encode = [
      '-map',
      `0:${video!.index ?? 'V:0'}`,
      ...(audio ? ['-map', `0:${audio.index ?? 'a:0'}`] : []),
      '-vf',
      videoFilter(operation, options),
      ...videoCodec(operation, video!, data, audio),
      '-movflags',
      '+faststart',
    ];
  } else {
    const target = audioTarget(operation, data, audio!);
    format = target.format;
    encode = [
      '-map',
      `0:${audio!.index ?? 'a:0'}`,
      ...target.codec,
      ...(format === 'm4a' ? ['-movflags', '+faststart'] : []),
    ];
  }
  const args = [
    '-nostdin',
    '-v',
    'error',
    '-y',
    ...seek,
    '-i',
    fileArg(input),
    ...length,
    ...encode,
    '-map_chapters',
    '-1',
    '-progress',
    'pipe:1',
    '-nostats',
    '-f',
    muxerOf(format),
    fileArg(output(format)),
  ];
  return { args, format, totalSeconds };
}

/** Runs one audio or video operation on `path`; the result is written in `workDir`. */
export async function runAvOperation(
  input: AvRunInput,
  tools: MediaToolOptions = {},
): Promise<{ path: string; format: string }> {
  const data = await probeMedia(input.path, tools, input.signal);
  if (!data) throw new UnsuitableMedia('the source could not be read as audio or video');
  const output = (format: string) => join(input.workDir, `out.${format}`);
  const { args, format, totalSeconds } = avCommand(input.operation, data, input.options, input.path, output);
  let lastReport = -Infinity;
  await runMediaTool('ffmpeg', tools.ffmpegPath ?? 'ffmpeg', args, {
    timeoutMs: tools.timeoutMs ?? DEFAULT_FFMPEG_TIMEOUT_MS,
    signal: input.signal,
    onProgress: (b) => {
      const us = Number(b['out_time_us']);
      if (!input.onProgress || !Number.isFinite(us) || us < 0) return;
      const now = performance.now();
      // At most one report a second (each one is a heartbeat), and always the last.
      if (b['progress'] !== 'end' && now - lastReport < 1000) return;
      lastReport = now;
      input.onProgress({ doneSeconds: Math.min(totalSeconds, us / 1e6), totalSeconds });
    },
  });
  const written = await stat(output(format)).catch(() => null);
  if (!written || written.size === 0)
    throw new UnsuitableMedia(`${input.operation} produced no output from this source`);
  return { path: output(format), format };
}

const muxerOf = (format: string) =>
  ({ mp4: 'mp4', m4a: 'ipod', mp3: 'mp3', wav: 'wav', flac: 'flac', ogg: 'ogg' })[format] ?? format;
