import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessingHarness, type TestCompany } from '../helpers/processing.js';
import {
  colourVideo,
  decodeAll,
  ffmpegMake,
  ffprobe,
  frameColour,
  lyingMp3,
  silenceEnds,
  testAudio,
  testVideo,
  withRotationFlag,
} from '../helpers/av-media.js';

/**
 * The audio and video tools end to end (real app, PostgreSQL, Temporal worker, ffmpeg): quotes on measured
 * durations, options checked against the source before quoting, and results checked by their content (durations
 * decoded, dimensions and rotation read back with ffprobe, sizes compared).
 */
const h = new ProcessingHarness();
let quotes: TestCompany;
let runs: TestCompany;

beforeAll(async () => {
  await h.start();
  quotes = await h.company('AvQuotes');
  runs = await h.company('AvRuns');
});
afterAll(() => h.stop());

type Issue = { path: string; message: string };
type UploadJson = { id: string; kind: string; mime_type: string; duration_seconds: number | null };

async function uploadJson(key: string, name: string, bytes: Buffer): Promise<UploadJson> {
  const f = new FormData();
  f.append('files', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${h.app.url}/v1/uploads`, { method: 'POST', headers: h.auth(key), body: f });
  const json = (await res.json()) as { uploads: UploadJson[] };
  expect(res.status, JSON.stringify(json)).toBe(201);
  return json.uploads[0]!;
}

const estimate = async (key: string, body: unknown) => {
  const res = await fetch(`${h.app.url}/v1/estimate`, {
    method: 'POST',
    headers: { ...h.auth(key), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    json: (await res.json()) as { estimated_credits?: number; code?: string; issues?: Issue[] },
  };
};

/** Runs a job to completion and returns its one result's bytes, download name and type. */
async function runJob(body: unknown): Promise<{ bytes: Buffer; name: string; type: string | null; credits: number }> {
  const job = await h.submitOk(runs.key, body);
  const done = await h.waitForJob(runs.key, job.id, 240_000);
  expect(done.status, JSON.stringify(done)).toBe('completed');
  const file = done.result!.files[0]!;
  const res = await h.download(runs.key, file.download_path);
  expect(res.status).toBe(200);
  return {
    bytes: Buffer.from(await res.arrayBuffer()),
    name: file.name,
    type: res.headers.get('content-type'),
    credits: done.charged_credits!,
  };
}

const FRAME = 1 / 25;
const videoStream = (p: ReturnType<typeof ffprobe>) => p.streams.find((s) => s.codec_type === 'video')!;

describe('durations and quotes', () => {
  it('a VBR MP3 without a Xing header is quoted on its decoded duration, and trims are checked against it', async () => {
    // 50 s of audio whose header, read at the first frame's bitrate, claims about 125 s (3 started minutes: 12 credits).
    const mp3 = lyingMp3(40);
    expect(Number(ffprobe(mp3, 'mp3').format.duration)).toBeGreaterThan(120);
    const up = await uploadJson(quotes.key, 'talk.mp3', mp3);
    expect(up).toMatchObject({ kind: 'audio', mime_type: 'audio/mpeg' });
    expect(up.duration_seconds).toBeGreaterThan(49.9);
    expect(up.duration_seconds).toBeLessThan(50.2);

    const ok = await estimate(quotes.key, {
      operation: 'audio-trim',
      upload_ids: [up.id],
      options: { start: 10, end: 40 },
    });
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
    expect(ok.json.estimated_credits).toBe(4);
    const compress = await estimate(quotes.key, { operation: 'audio-compress', upload_ids: [up.id] });
    expect(compress.json.estimated_credits).toBe(4);

    // Within the header's figure but past the real end: refused before quoting, naming options.end.
    const past = await estimate(quotes.key, {
      operation: 'audio-trim',
      upload_ids: [up.id],
      options: { start: 10, end: 55 },
    });
    expect(past.status).toBe(422);
    expect(past.json.issues).toEqual([
      { path: 'options.end', message: expect.stringContaining("at most the source's duration") },
    ]);
  });

  it('media tools cost 4 credits per started minute of the source', async () => {
    // FLAC of silence: 61 s in a few kilobytes.
    const flac = ffmpegMake('flac', ['-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono:d=61', '-c:a', 'flac']);
    const up = await uploadJson(quotes.key, 'long.flac', flac);
    expect(up.duration_seconds).toBeCloseTo(61, 3);
    expect(
      (await estimate(quotes.key, { operation: 'audio-compress', upload_ids: [up.id] })).json.estimated_credits,
    ).toBe(8);
    expect(
      (await estimate(quotes.key, { operation: 'audio-trim', upload_ids: [up.id], options: { end: 1 } })).json
        .estimated_credits,
    ).toBe(8);
  });

  it('file-tool media are at most 2 hours', async () => {
    const flac = ffmpegMake('flac', ['-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono:d=7201', '-c:a', 'flac']);
    const up = await uploadJson(quotes.key, 'day.flac', flac);
    expect(up.duration_seconds).toBeCloseTo(7201, 3);
    const res = await estimate(quotes.key, { operation: 'audio-compress', upload_ids: [up.id] });
    expect(res.status).toBe(422);
    expect(res.json.issues).toEqual([{ path: 'upload_ids.0', message: expect.stringContaining('at most 2 hours') }]);
  });

  it('bad options and sources of the wrong kind are refused with 422 naming them', async () => {
    const video = await uploadJson(quotes.key, 'clip.mp4', testVideo(2));
    const audio = await uploadJson(quotes.key, 'tone.wav', testAudio(2, 'wav'));
    const cases: Array<[unknown, string]> = [
      [{ operation: 'video-resize', upload_ids: [video.id], options: { height: 500 } }, 'options.height'],
      [{ operation: 'video-resize', upload_ids: [video.id] }, 'options.height'],
      [{ operation: 'video-rotate', upload_ids: [video.id], options: { angle: 45 } }, 'options.angle'],
      [{ operation: 'video-compress', upload_ids: [video.id], options: { level: 'strong' } }, 'options.level'],
      [{ operation: 'video-trim', upload_ids: [video.id], options: { start: 1 } }, 'options.end'],
      [{ operation: 'video-trim', upload_ids: [video.id], options: { start: 1.5, end: 1.55 } }, 'options.end'],
      [{ operation: 'video-trim', upload_ids: [video.id], options: { start: 2.5, end: 3 } }, 'options.start'],
      [{ operation: 'audio-trim', upload_ids: [audio.id], options: { start: -1, end: 1 } }, 'options.start'],
      [{ operation: 'audio-trim', upload_ids: [video.id], options: { end: 1 } }, 'upload_ids.0'],
      [{ operation: 'video-rotate', upload_ids: [audio.id], options: { angle: 90 } }, 'upload_ids.0'],
      [{ operation: 'audio-trim', upload_ids: [audio.id], options: { end: 1, speed: 2 } }, 'options'],
    ];
    for (const [body, path] of cases) {
      const res = await estimate(quotes.key, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.json.code).toBe('validation_failed');
      expect(
        res.json.issues!.map((i) => i.path),
        JSON.stringify(res.json),
      ).toContain(path);
    }
  });
});

describe('results checked by their content', () => {
  it('audio-trim of a WAV keeps end - start within 10 ms, in WAV', async () => {
    const up = await uploadJson(runs.key, 'tone.wav', testAudio(5, 'wav'));
    const out = await runJob({ operation: 'audio-trim', upload_ids: [up.id], options: { start: 1.25, end: 3.5 } });
    expect(out).toMatchObject({ name: 'tone-trimmed.wav', type: 'audio/wav', credits: 4 });
    expect(Math.abs(decodeAll(out.bytes, 'wav') - 2.25)).toBeLessThanOrEqual(0.01);
  });

  it('audio-trim of the lying MP3 gives an MP3 whose decoded length is end - start (within one MP3 frame)', async () => {
    const up = await uploadJson(runs.key, 'talk.mp3', lyingMp3(20));
    const out = await runJob({ operation: 'audio-trim', upload_ids: [up.id], options: { start: 5, end: 25.5 } });
    expect(out).toMatchObject({ name: 'talk-trimmed.mp3', type: 'audio/mpeg' });
    expect(Math.abs(decodeAll(out.bytes, 'mp3') - 20.5)).toBeLessThanOrEqual(1152 / 44100);
    // The right part: the source's silence ends at 10 s, so the result's at 5 s.
    const ends = silenceEnds(out.bytes, 'mp3');
    expect(ends.length).toBeGreaterThan(0);
    expect(Math.abs(ends[0]! - 5)).toBeLessThanOrEqual(0.05);
  });

  it('video-trim keeps the right frames: the first is at start, the last just before end', async () => {
    const up = await uploadJson(
      runs.key,
      'colours.mp4',
      colourVideo([
        ['red', 1],
        ['lime', 1],
        ['blue', 2],
      ]),
    );
    const out = await runJob({ operation: 'video-trim', upload_ids: [up.id], options: { start: 1, end: 2.6 } });
    const near = (rgb: number[], want: number[]) => rgb.every((v, i) => Math.abs(v - want[i]!) <= 40);
    expect(near(frameColour(out.bytes, 'mp4', 0), [0, 255, 0]), String(frameColour(out.bytes, 'mp4', 0))).toBe(true);
    expect(near(frameColour(out.bytes, 'mp4', 0.96), [0, 255, 0])).toBe(true);
    expect(near(frameColour(out.bytes, 'mp4', 1.04), [0, 0, 255])).toBe(true);
    expect(near(frameColour(out.bytes, 'mp4', -0.04), [0, 0, 255])).toBe(true);
    expect(Math.abs(Number(videoStream(ffprobe(out.bytes, 'mp4')).duration) - 1.6)).toBeLessThanOrEqual(FRAME + 1e-6);
  });

  it('video-trim keeps end - start within one frame, video and audio', async () => {
    const up = await uploadJson(runs.key, 'clip.mp4', testVideo(4));
    const out = await runJob({ operation: 'video-trim', upload_ids: [up.id], options: { start: 0.52, end: 2.72 } });
    expect(out).toMatchObject({ name: 'clip-trimmed.mp4', type: 'video/mp4' });
    const p = ffprobe(out.bytes, 'mp4');
    expect(Math.abs(Number(videoStream(p).duration) - 2.2)).toBeLessThanOrEqual(FRAME + 1e-6);
    const audio = p.streams.find((s) => s.codec_type === 'audio')!;
    expect(Math.abs(Number(audio.duration) - 2.2)).toBeLessThanOrEqual(0.01 + 1024 / 44100);
    expect(decodeAll(out.bytes, 'mp4')).toBeGreaterThan(2.1);
  });

  it('video-rotate turns the picture clockwise: dimensions swap, no rotation flag is left', async () => {
    const up = await uploadJson(runs.key, 'wide.mp4', testVideo(2, { size: '320x240' }));
    const out = await runJob({ operation: 'video-rotate', upload_ids: [up.id], options: { angle: 90 } });
    const v = videoStream(ffprobe(out.bytes, 'mp4'));
    expect([v.width, v.height]).toEqual([240, 320]);
    expect(v.side_data_list?.some((d) => d.rotation !== undefined && d.rotation !== 0) ?? false).toBe(false);
    expect(Math.abs(decodeAll(out.bytes, 'mp4') - 2)).toBeLessThanOrEqual(0.05);
  });

  it('video-rotate of a phone video applies its rotation flag first', async () => {
    // Stored 320x240 with a display rotation of 90°: players show it 240x320. Turned 90° clockwise more: 320x240 upright.
    const flagged = withRotationFlag(testVideo(2, { size: '320x240' }), 90);
    expect(videoStream(ffprobe(flagged, 'mp4')).side_data_list?.some((d) => Math.abs(d.rotation ?? 0) === 90)).toBe(
      true,
    );
    const up = await uploadJson(runs.key, 'phone.mp4', flagged);
    const out = await runJob({ operation: 'video-rotate', upload_ids: [up.id], options: { angle: 90 } });
    const v = videoStream(ffprobe(out.bytes, 'mp4'));
    expect([v.width, v.height]).toEqual([320, 240]);
    expect(v.side_data_list?.some((d) => d.rotation !== undefined && d.rotation !== 0) ?? false).toBe(false);
  });

  it('video-resize scales to the height with an even width keeping the aspect ratio', async () => {
    const up = await uploadJson(runs.key, 'hd.mp4', testVideo(2, { size: '640x360' }));
    const out = await runJob({ operation: 'video-resize', upload_ids: [up.id], options: { height: 240 } });
    expect(out.name).toBe('hd-resized.mp4');
    const v = videoStream(ffprobe(out.bytes, 'mp4'));
    // 240 × 16/9 = 426.7: the nearest even width.
    expect([v.width, v.height]).toEqual([426, 240]);
    expect(Math.abs(decodeAll(out.bytes, 'mp4') - 2)).toBeLessThanOrEqual(0.05);
  });

  it('video-compress gives a smaller MP4 of the same duration and size, with decodable audio', async () => {
    const source = testVideo(3, { size: '640x480' });
    const up = await uploadJson(runs.key, 'raw.mp4', source);
    const out = await runJob({ operation: 'video-compress', upload_ids: [up.id], options: { level: 'balanced' } });
    expect(out.bytes.length).toBeLessThan(source.length);
    const p = ffprobe(out.bytes, 'mp4');
    expect([videoStream(p).width, videoStream(p).height]).toEqual([640, 480]);
    expect(Math.abs(Number(videoStream(p).duration) - 3)).toBeLessThanOrEqual(FRAME + 1e-6);
    expect(Math.abs(decodeAll(out.bytes, 'mp4') - 3)).toBeLessThanOrEqual(0.05);
  });

  it('audio-compress gives a smaller M4A of the same duration that still decodes', async () => {
    const source = testAudio(6, 'mp3', ['-c:a', 'libmp3lame', '-b:a', '192k']);
    const up = await uploadJson(runs.key, 'song.mp3', source);
    const out = await runJob({ operation: 'audio-compress', upload_ids: [up.id] });
    expect(out).toMatchObject({ name: 'song-compressed.m4a', type: 'audio/mp4' });
    expect(out.bytes.length).toBeLessThan(source.length);
    expect(Math.abs(decodeAll(out.bytes, 'm4a') - 6)).toBeLessThanOrEqual(0.03);
  });
});
