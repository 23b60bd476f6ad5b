import { describe, expect, it } from 'vitest';
import { DEFAULT_VIDEO_MAX_PIXEL_FRAMES, videoWork, videoWorkIssues } from '../../../domain/media-work.js';

/** The work of a video operation in pixel-frames (issue 28 C14), and its bound. */
describe('video work', () => {
  const uhd = { width: 3840, height: 2160, frames: 7200 * 30, durationSeconds: 7200 };
  const small = { width: 320, height: 240, frames: 50, durationSeconds: 2 };

  it('is frames × pixels, the larger of what is decoded and what is written; a trim counts the frames it keeps', () => {
    expect(videoWork('video-compress', {}, uhd)).toBe(216_000 * 8_294_400);
    expect(videoWork('video-rotate', { angle: 90 }, small)).toBe(50 * 76_800);
    // Resizing 320×240 to 2160 lines writes 2880×2160 frames; down to 240 lines, the source's.
    expect(videoWork('video-resize', { height: 2160 }, small)).toBe(50 * 2880 * 2160);
    expect(videoWork('video-resize', { height: 240 }, small)).toBe(50 * 76_800);
    expect(videoWork('video-trim', { start: 60, end: 70 }, uhd)).toBe(300 * 8_294_400);
    expect(videoWork('video-trim', { end: 1 }, small)).toBe(25 * 76_800);
    // The audio tools and transcription do not encode the video stream.
    for (const op of ['audio-compress', 'audio-trim', 'transcribe', 'meeting']) expect(videoWork(op, {}, uhd)).toBe(0);
  });

  it('the bound: a 2-hour 4K compress is refused with the figures; 10 minutes of 1080p at 30 fps fit the default', () => {
    const [issue] = videoWorkIssues('video-compress', {}, uhd, DEFAULT_VIDEO_MAX_PIXEL_FRAMES, 'upload_ids.0');
    expect(issue).toEqual({
      path: 'upload_ids.0',
      message: expect.stringMatching(
        /^video-compress of this video processes 1,791\.6 billion pixel-frames \(216,000 frames of 8,294,400 pixels\); at most 40 billion are taken, about 2\.7 minutes at this size/,
      ),
    });
    expect(
      videoWorkIssues(
        'video-compress',
        {},
        { width: 1920, height: 1080, frames: 600 * 30, durationSeconds: 600 },
        DEFAULT_VIDEO_MAX_PIXEL_FRAMES,
        'upload_ids.0',
      ),
    ).toEqual([]);
    // A short trim of the 4K video fits; an unmeasured video is refused by the video tools only.
    expect(
      videoWorkIssues('video-trim', { start: 0, end: 60 }, uhd, DEFAULT_VIDEO_MAX_PIXEL_FRAMES, 'upload_ids.0'),
    ).toEqual([]);
    expect(videoWorkIssues('video-compress', {}, null, DEFAULT_VIDEO_MAX_PIXEL_FRAMES, 'upload_ids.0')).toHaveLength(1);
    expect(videoWorkIssues('audio-compress', {}, null, DEFAULT_VIDEO_MAX_PIXEL_FRAMES, 'upload_ids.0')).toEqual([]);
  });
});
