import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { measureSource } from '../../../adapters/media/measure.js';
import { lyingMp3, testAudio, testVideo } from '../../helpers/av-media.js';

/**
 * Durations that prices and trims depend on are measured, not read from a container that may estimate them:
 * an MP3 is decoded, an MP4's stream durations are its sample tables.
 */
const dir = mkdtempSync(join(tmpdir(), 'measure-av-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function measure(name: string, bytes: Buffer) {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return measureSource(path, bytes.length);
}

describe('media duration', () => {
  it("a VBR MP3 without a Xing header is measured by decoding, not from its first frame's bitrate", async () => {
    // 10 s of silence then 40 s of noise: ffprobe states about 125 s.
    const m = await measure('lying.mp3', lyingMp3(40));
    expect(m.kind).toBe('audio');
    expect(m.durationSeconds).toBeGreaterThan(49.9);
    expect(m.durationSeconds).toBeLessThan(50.2);
  });

  it('an MP3 with a LAME header is its decoded length (the encoder delay is not counted)', async () => {
    const m = await measure('tone.mp3', testAudio(3, 'mp3', ['-c:a', 'libmp3lame', '-b:a', '128k']));
    expect(m.durationSeconds).toBeCloseTo(3, 2);
  });

  it('an MP4 is its longest audio or video stream', async () => {
    const m = await measure('clip.mp4', testVideo(4));
    expect(m.kind).toBe('video');
    expect(Math.abs(m.durationSeconds! - 4)).toBeLessThanOrEqual(0.04);
  });
});
