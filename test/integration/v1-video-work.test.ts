import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileOperationRunners } from '../../adapters/media/operation-runners.js';
import type { OperationRunners } from '../../adapters/media/runner-contract.js';
import { ProcessingHarness, type TestCompany } from '../helpers/processing.js';
import { testVideo } from '../helpers/av-media.js';

/**
 * The work of a video operation is bounded by what the source costs to process (issue 28 item C14): pixels × frames,
 * measured at upload, with a limit (VIDEO_MAX_PIXEL_FRAMES, lowered here) checked at the estimate and at submission;
 * and a job whose engine run passes its time limit fails at once (`processing_timeout`), not after five attempts that
 * each hold one of the platform's three slots for the whole limit. Small generated sources stand for the 2-hour 4K
 * video; the limit and the engine's time limit are lowered instead.
 */
const LIMIT = 200_000_000;
const h = new ProcessingHarness();
let acme: TestCompany;
/** Runs of the video-compress runner (each attempt of the activity is one). */
let compressRuns = 0;

beforeAll(async () => {
  // The engine's time limit of this worker is too short for any encode: every run of it times out.
  const real = createFileOperationRunners({}, {}, { timeoutMs: 50 });
  const runners: OperationRunners = {
    ...real,
    'video-compress': async (input) => {
      compressRuns++;
      return real['video-compress'](input);
    },
  };
  await h.start({ runners, config: { VIDEO_MAX_PIXEL_FRAMES: String(LIMIT) } });
  acme = await h.company('VideoWork');
});
afterAll(() => h.stop());

type Issue = { path: string; message: string };
type UploadJson = { id: string; kind: string; width: number | null; height: number | null; duration_seconds: number };

async function upload(name: string, bytes: Buffer): Promise<UploadJson> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${h.app.url}/v1/uploads`, { method: 'POST', headers: h.auth(acme.key), body: form });
  const json = (await res.json()) as { uploads: UploadJson[] };
  expect(res.status, JSON.stringify(json)).toBe(201);
  return json.uploads[0]!;
}

const estimate = async (body: unknown) => {
  const res = await fetch(`${h.app.url}/v1/estimate`, {
    method: 'POST',
    headers: { ...h.auth(acme.key), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    json: (await res.json()) as { code?: string; issues?: Issue[]; estimated_credits?: number },
  };
};

/** Estimate and submission both answer 422 naming the source; no job is recorded, nothing reserved. */
async function refused(body: Record<string, unknown>): Promise<string> {
  const jobsBefore = await h.tdb.db('jobs').where({ company_id: acme.id }).count<{ count: string }[]>('* as count');
  const walletBefore = await h.wallet(acme.id);
  const quoted = await estimate(body);
  expect(quoted.status, JSON.stringify(quoted.json)).toBe(422);
  expect(quoted.json.code).toBe('validation_failed');
  expect(quoted.json.issues!.map((i) => i.path)).toEqual(['upload_ids.0']);
  const submitted = await h.submit(acme.key, body);
  const submittedJson = (await submitted.json()) as { issues: Issue[] };
  expect(submitted.status, JSON.stringify(submittedJson)).toBe(422);
  expect(submittedJson.issues).toEqual(quoted.json.issues);
  expect(await h.tdb.db('jobs').where({ company_id: acme.id }).count<{ count: string }[]>('* as count')).toEqual(
    jobsBefore,
  );
  expect(await h.wallet(acme.id)).toEqual(walletBefore);
  return quoted.json.issues![0]!.message;
}

describe('the work of a video operation is bounded by pixels × frames', () => {
  it('measures the video at upload; refuses over the bound at estimate and submission, takes what fits', async () => {
    // 10 s of 1280×720 at 25 fps: 250 frames × 921,600 pixels = 230.4 million pixel-frames, over the 200 million bound.
    const hd = await upload('hd.mp4', testVideo(10, { size: '1280x720', fps: 25 }));
    expect(hd).toMatchObject({ kind: 'video', width: 1280, height: 720 });
    const row = await h.tdb.db('uploads').where({ id: hd.id }).first('video_frames');
    expect(Number(row.video_frames)).toBe(250);
    for (const operation of ['video-compress', 'video-rotate'] as const) {
      const why = await refused({
        operation,
        upload_ids: [hd.id],
        ...(operation === 'video-rotate' ? { options: { angle: 90 } } : {}),
      });
      expect(why, operation).toContain('230.4 million pixel-frames');
      expect(why, operation).toContain('at most 200 million');
      expect(why, operation).toMatch(/250 frames of 921,600 pixels/);
    }
    // A trim of 1 s encodes 25 of its frames: taken.
    expect(
      (await estimate({ operation: 'video-trim', upload_ids: [hd.id], options: { start: 2, end: 3 } })).status,
    ).toBe(200);

    // A small video is taken as it is, but not scaled up to 2160 lines (the frames written are 3840×2160).
    const small = await upload('small.mp4', testVideo(2, { size: '320x240', fps: 25 }));
    expect(small).toMatchObject({ kind: 'video', width: 320, height: 240 });
    expect((await estimate({ operation: 'video-compress', upload_ids: [small.id] })).status).toBe(200);
    expect(
      (await estimate({ operation: 'video-resize', upload_ids: [small.id], options: { height: 240 } })).status,
    ).toBe(200);
    expect(await refused({ operation: 'video-resize', upload_ids: [small.id], options: { height: 2160 } })).toMatch(
      /50 frames of 6,220,800 pixels/,
    );
  });

  it('an upload measured before frames were stored is measured from its file when quoted', async () => {
    const hd = await upload('older.mp4', testVideo(10, { size: '1280x720', fps: 25 }));
    await h.tdb.db('uploads').where({ id: hd.id }).update({ width: null, height: null, video_frames: null });
    expect(await refused({ operation: 'video-compress', upload_ids: [hd.id] })).toMatch(/250 frames of 921,600 pixels/);
  });

  it('a job whose engine run passes its time limit fails once as processing_timeout, without retries, its reservation released', async () => {
    const before = await h.wallet(acme.id);
    const small = await upload('slow.mp4', testVideo(4, { size: '640x360', fps: 25 }));
    const job = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'video-compress', upload_ids: [small.id] })).id,
      240_000,
    );
    expect(job).toMatchObject({ status: 'failed', error_code: 'processing_timeout', charged_credits: 0, result: null });
    expect(job.error).toMatch(/time limit/);
    expect(compressRuns).toBe(1);
    expect(await h.wallet(acme.id)).toEqual(before);
  });
});
