import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runAvOperation, UnsuitableMedia } from '../../../adapters/media/av/av-operations.js';
import { decodedDuration, probeMedia } from '../../../adapters/media/av/media-probe.js';
import {
  ACCEPTED_CONTAINERS,
  fileArg,
  guardInputs,
  MediaToolFailed,
  MediaToolTimeout,
  MediaToolUnavailable,
  runMediaTool,
} from '../../../adapters/media/av/media-process.js';
import { analyseAudio, extractChunk } from '../../../adapters/providers/transcription/chunking.js';
import { decodeToWav16k } from '../../../adapters/providers/transcription/decode-audio.js';
import { InvalidSourceError } from '../../../adapters/providers/provider-errors.js';
import { mediaManifests, testAudio } from '../../helpers/av-media.js';

const dir = mkdtempSync(join(tmpdir(), 'media-process-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** One second of tone: looped for ever, it is a run that never ends by itself. */
const tone = join(dir, 'tone.wav');
writeFileSync(tone, testAudio(1, 'wav'));

/** Pids whose command line holds `marker`. */
function running(marker: string): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        return readFileSync(`/proc/${e}/cmdline`).toString().includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function gone(marker: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (running(marker).length > 0) {
    if (Date.now() > deadline) throw new Error('the process outlived its stop');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * An ffmpeg run that never ends by itself (a tone looped for ever, read in real time, to nowhere), named by a marker in
 * its arguments. A file input: the wrapper reads nothing else (a `lavfi` source is refused).
 */
const endless = (marker: string) => [
  '-nostdin',
  '-v',
  'error',
  '-re',
  '-stream_loop',
  '-1',
  '-i',
  fileArg(tone),
  '-metadata',
  `comment=${marker}`,
  '-progress',
  'pipe:1',
  '-f',
  'null',
  '-',
];

describe('the ffmpeg spawn wrapper', () => {
  it('stops a run past its time limit, with its process group', async () => {
    const marker = randomUUID();
    await expect(
      runMediaTool('ffmpeg', 'ffmpeg', endless(marker), { timeoutMs: 1500, onProgress: () => undefined }),
    ).rejects.toBeInstanceOf(MediaToolTimeout);
    await gone(marker);
  });

  it('stops a run when its signal aborts (the activity was cancelled), after it reported progress', async () => {
    const marker = randomUUID();
    const abort = new AbortController();
    const blocks: Array<Record<string, string>> = [];
    const run = runMediaTool('ffmpeg', 'ffmpeg', endless(marker), {
      timeoutMs: 60_000,
      signal: abort.signal,
      onProgress: (b) => {
        blocks.push(b);
        if (Number(b['out_time_us']) > 0) abort.abort(new Error('cancelled'));
      },
    });
    await expect(run).rejects.toThrow('cancelled');
    expect(blocks.at(-1)).toMatchObject({ progress: 'continue' });
    await gone(marker);
  });

  it('names a missing program and a failed run apart', async () => {
    await expect(
      runMediaTool('ffmpeg', '/nonexistent/ffmpeg', ['-version'], { timeoutMs: 5000 }),
    ).rejects.toBeInstanceOf(MediaToolUnavailable);
    const failed = runMediaTool(
      'ffmpeg',
      'ffmpeg',
      ['-nostdin', '-v', 'error', '-i', 'file:/nonexistent/in.mp4', '-f', 'null', '-'],
      { timeoutMs: 5000 },
    );
    await expect(failed).rejects.toBeInstanceOf(MediaToolFailed);
    await expect(failed).rejects.toMatchObject({ detail: expect.stringContaining('No such file') });
  });
});

describe('what ffmpeg and ffprobe may read (issue 28 B5)', () => {
  const mp3 = join(dir, 'secret.mp3');
  const mp4 = join(dir, 'secret.mp4');
  writeFileSync(mp3, testAudio(3, 'mp3'));
  writeFileSync(mp4, testAudio(3, 'mp4', ['-c:a', 'aac']));
  // The ffconcat list names `secret.mp3` next to itself.
  const manifests = mediaManifests({ mp3, mp4, concatName: 'secret.mp3' }).map(([name, bytes]) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return [name, path] as const;
  });

  it('every input is opened as a local file in an accepted container; anything else is refused before running', () => {
    const guard = ['-protocol_whitelist', 'file', '-format_whitelist', ACCEPTED_CONTAINERS.join(',')];
    expect(guardInputs('ffmpeg', ['-y', '-ss', '1', '-i', 'file:/a', '-i', 'file:/b', 'file:/out.mp4'])).toEqual([
      '-y',
      '-ss',
      '1',
      ...guard,
      '-i',
      'file:/a',
      ...guard,
      '-i',
      'file:/b',
      'file:/out.mp4',
    ]);
    expect(guardInputs('ffprobe', ['-show_format', '-i', 'file:/a'])).toEqual([
      ...guard,
      '-show_format',
      '-i',
      'file:/a',
    ]);
    expect(() => guardInputs('ffmpeg', ['-f', 'lavfi', '-i', 'sine', '-f', 'null', '-'])).toThrow(TypeError);
    expect(() => guardInputs('ffmpeg', ['-i', 'http://example.com/a.mp3', 'file:/out.mp3'])).toThrow(TypeError);
    expect(() => guardInputs('ffprobe', ['-show_format', 'file:/a'])).toThrow(TypeError);
  });

  it('the manifests are working ones: ffprobe without the guard reads each through to the local file', () => {
    for (const [name, path] of manifests) {
      const out = JSON.parse(
        execFileSync('ffprobe', [
          '-v',
          'error',
          '-show_entries',
          'format=format_name,duration',
          '-of',
          'json',
          fileArg(path),
        ]).toString(),
      ) as { format: { format_name: string; duration: string } };
      expect(out.format.format_name, name).toMatch(/^(hls|dash|concat)$/);
    }
  });

  it('measuring, the audio and video tools and transcription refuse every one of them', async () => {
    for (const [name, path] of manifests) {
      expect(await probeMedia(path), name).toBeNull();
      await expect(decodedDuration(path), name).rejects.toBeInstanceOf(MediaToolFailed);
      await expect(
        runAvOperation({ operation: 'audio-compress', path, options: {}, workDir: dir }),
        name,
      ).rejects.toBeInstanceOf(UnsuitableMedia);
      await expect(analyseAudio(path), name).rejects.toBeInstanceOf(MediaToolFailed);
      await expect(extractChunk(path, { start: 0, end: 1 }, join(dir, 'chunk.wav')), name).rejects.toBeInstanceOf(
        MediaToolFailed,
      );
      await expect(decodeToWav16k(path, join(dir, 'decoded.wav'), { timeoutMs: 60_000 }), name).rejects.toBeInstanceOf(
        InvalidSourceError,
      );
    }
    // The file they name is read as it is.
    expect((await probeMedia(mp3))?.format?.format_name).toBe('mp3');
    expect(await decodedDuration(mp3)).toBeGreaterThan(2.9);
  });
});
