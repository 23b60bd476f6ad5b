import { MEDIA_TOOL_MAX_SECONDS, MIN_TRIM_SECONDS } from './pricing.js';

/**
 * What the quote checks of an audio or video file tool against the source's measured duration: file-tool media
 * are at most 2 hours (spec section 8); a trim's `end` is within the source and at least MIN_TRIM_SECONDS after
 * its `start`. Durations are stored to the millisecond, so `end` may equal the stored duration.
 */
export function mediaToolIssues(
  operation: string,
  options: Record<string, unknown>,
  durationSeconds: number | null,
  sourcePath: string,
): Array<{ path: string; message: string }> {
  if (durationSeconds === null) return [];
  if (durationSeconds > MEDIA_TOOL_MAX_SECONDS) {
    return [
      {
        path: sourcePath,
        message: `the media lasts ${durationSeconds.toFixed(3)} s; audio and video tools take at most ${MEDIA_TOOL_MAX_SECONDS / 3600} hours`,
      },
    ];
  }
  if (operation !== 'audio-trim' && operation !== 'video-trim') return [];
  const issues: Array<{ path: string; message: string }> = [];
  const start = typeof options['start'] === 'number' ? options['start'] : 0;
  const end = Number(options['end']);
  if (start >= durationSeconds)
    issues.push({
      path: 'options.start',
      message: `start must be before the end of the source (${durationSeconds.toFixed(3)} s)`,
    });
  if (end > durationSeconds + 0.0005)
    issues.push({
      path: 'options.end',
      message: `end must be at most the source's duration (${durationSeconds.toFixed(3)} s)`,
    });
  else if (end - start < MIN_TRIM_SECONDS - 1e-9)
    issues.push({ path: 'options.end', message: `end must be at least ${MIN_TRIM_SECONDS} s after start` });
  return issues;
}
