/**
 * What a video operation costs to process, and the bound on it (docs/processing.md, "Audio and video tools"). Duration
 * alone does not bound the work: two hours of 4K take about 70 times the encoding of two hours of 480p. The work is
 * counted in pixel-frames: the frames the operation encodes times the pixels of each frame, the larger of what it
 * decodes and what it writes (a `video-resize` up to 2160 lines encodes 4K frames from any source). Measured at upload
 * by ffprobe (the video stream's size and its frame count), checked at the estimate and at every submission.
 */

/**
 * The default bound (VIDEO_MAX_PIXEL_FRAMES): 40 billion pixel-frames, about 10 minutes of 1080p, 24 minutes of 720p
 * or 2 hours of 480×270 at 30 frames per second. Measured on the reference worker (2 shared AMD EPYC cores): x264 at
 * `video-compress`'s preset (medium) encodes about 47 million pixel-frames per CPU-second, so a source at the bound
 * takes about 860 CPU-seconds, 7 minutes on both cores and 14 on one: well inside FFMPEG_TIMEOUT_MS (25 minutes) with
 * room for content harder to encode than the measurement's. The other video tools (preset veryfast) are faster.
 */
export const DEFAULT_VIDEO_MAX_PIXEL_FRAMES = 40_000_000_000;

/** What the upload measured of a video: its first moving video stream's size (as displayed) and frames. */
export interface VideoMeasure {
  width: number;
  height: number;
  frames: number;
  durationSeconds: number;
}

/** The operations that decode and encode the video stream (the audio tools and transcription do not read it). */
export const VIDEO_OPERATIONS = ['video-trim', 'video-rotate', 'video-resize', 'video-compress'] as const;

const isVideoOperation = (operation: string): boolean => (VIDEO_OPERATIONS as readonly string[]).includes(operation);

/** The pixels of each frame the operation writes: `video-resize` scales to `height` keeping the aspect ratio (even width). */
function outputPixels(operation: string, options: Record<string, unknown>, v: VideoMeasure): number {
  if (operation !== 'video-resize') return v.width * v.height;
  const h = Number(options['height']);
  return h * 2 * Math.round((h * v.width) / v.height / 2);
}

/** The frames the operation encodes: a trim only its part of the source (it seeks to `start`), the others all of it. */
function framesEncoded(operation: string, options: Record<string, unknown>, v: VideoMeasure): number {
  if (operation !== 'video-trim' || v.durationSeconds <= 0) return v.frames;
  const start = typeof options['start'] === 'number' ? options['start'] : 0;
  const end = Number(options['end']);
  const part = Math.min(1, Math.max(0, (end - start) / v.durationSeconds));
  return Math.ceil(v.frames * part);
}

/** The pixel-frames an operation processes on a video (0 for an operation that does not encode video). */
export function videoWork(operation: string, options: Record<string, unknown>, v: VideoMeasure): number {
  if (!isVideoOperation(operation)) return 0;
  return framesEncoded(operation, options, v) * Math.max(v.width * v.height, outputPixels(operation, options, v));
}

/** `230.4 million`, `40 billion`. */
const large = (n: number) =>
  n >= 1e9
    ? `${(n / 1e9).toLocaleString('en-US', { maximumFractionDigits: 1 })} billion`
    : `${(n / 1e6).toLocaleString('en-US', { maximumFractionDigits: 1 })} million`;

/**
 * The quote's check of a video operation against `maxPixelFrames`: over the bound → one issue naming the source, with
 * the figures and what would fit. `video` null (a video that could not be measured) is an issue too: its work is
 * unknown, so it is not taken.
 */
export function videoWorkIssues(
  operation: string,
  options: Record<string, unknown>,
  video: VideoMeasure | null,
  maxPixelFrames: number,
  sourcePath: string,
): Array<{ path: string; message: string }> {
  if (!isVideoOperation(operation)) return [];
  if (!video)
    return [
      {
        path: sourcePath,
        message:
          'the video stream could not be measured (its size and frames), so the work of this operation is unknown',
      },
    ];
  const work = videoWork(operation, options, video);
  if (work <= maxPixelFrames) return [];
  const perFrame = Math.max(video.width * video.height, outputPixels(operation, options, video));
  const minutesAt30 = maxPixelFrames / perFrame / 30 / 60;
  return [
    {
      path: sourcePath,
      message:
        `${operation} of this video processes ${large(work)} pixel-frames (${framesEncoded(operation, options, video).toLocaleString('en-US')} frames of ` +
        `${perFrame.toLocaleString('en-US')} pixels); at most ${large(maxPixelFrames)} are taken, about ${minutesAt30.toFixed(1)} minutes at this ` +
        'size and 30 frames per second: trim it into shorter parts, or upload it at a lower resolution',
    },
  ];
}
