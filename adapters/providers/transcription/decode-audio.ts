import {
  fileArg,
  MediaToolFailed,
  MediaToolTimeout,
  MediaToolUnavailable,
  runMediaTool,
} from '../../media/av/media-process.js';
import { InvalidSourceError, ProviderUnavailableError } from '../provider-errors.js';

interface FfmpegOptions {
  ffmpegPath?: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Decodes the first audio stream of any file ffmpeg reads into 16 kHz mono 16-bit PCM WAV (what Whisper works
 * on), so the engine only ever sees a plain WAV in a private temporary folder, never a tenant's storage path.
 * A file without a decodable audio stream is an InvalidSourceError; a time-out a ProviderUnavailableError.
 */
export async function decodeToWav16k(input: string, output: string, opts: FfmpegOptions): Promise<void> {
  await transcode(input, output, ['-c:a', 'pcm_s16le', '-f', 'wav'], opts);
}

/**
 * Encodes the first audio stream of any file ffmpeg reads into 16 kHz mono Opus at 24 kbit/s in an Ogg container
 * (`.ogg`, about 10.8 MB per hour of audio): the compact upload for an HTTP transcription API (Whisper works on
 * 16 kHz mono anyway, so nothing it would hear is lost). Same errors as decodeToWav16k.
 */
export async function encodeToOggOpus16k(input: string, output: string, opts: FfmpegOptions): Promise<void> {
  await transcode(input, output, ['-c:a', 'libopus', '-b:a', '24k', '-application', 'voip', '-f', 'ogg'], opts);
}

async function transcode(input: string, output: string, codecArgs: string[], opts: FfmpegOptions): Promise<void> {
  const args = [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-i',
    fileArg(input),
    '-map',
    '0:a:0',
    '-vn',
    '-ac',
    '1',
    '-ar',
    '16000',
    ...codecArgs,
    fileArg(output),
  ];
  try {
    // Through the platform's ffmpeg wrapper: the input is read only as a local file in an accepted container.
    await runMediaTool('ffmpeg', opts.ffmpegPath ?? 'ffmpeg', args, { timeoutMs: opts.timeoutMs, signal: opts.signal });
  } catch (e) {
    if (e instanceof MediaToolTimeout) throw new ProviderUnavailableError('decoding the audio timed out');
    if (e instanceof MediaToolUnavailable) throw new ProviderUnavailableError('ffmpeg could not be started');
    // ffmpeg's messages name the input path: never passed on.
    if (e instanceof MediaToolFailed)
      throw new InvalidSourceError(
        e.detail !== 'no message'
          ? 'the file has no decodable audio stream'
          : `audio decoding failed (ffmpeg exit ${e.exitCode})`,
      );
    throw e;
  }
}
