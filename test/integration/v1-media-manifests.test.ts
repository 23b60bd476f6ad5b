import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessingHarness, type TestCompany } from '../helpers/processing.js';
import { mediaManifests, testAudio } from '../helpers/av-media.js';

/**
 * Sources that name other files (issue 28 item B5): an HLS playlist, a DASH manifest and an ffconcat list, each with
 * one byte that is not UTF-8 (so the text check passes them on to ffprobe, which detects them by content) and each
 * naming a local file of known audio. ffmpeg's default protocol whitelist of these demuxers (`file,crypto,data`) stops
 * only network protocols, so without a container allow-list the upload was accepted as audio and `audio-compress`
 * returned the local file's audio. They must be refused at upload and unreadable at processing, even once stored.
 */
const h = new ProcessingHarness();
let acme: TestCompany;
let secrets: string;

/** The local files the manifests name: a tone in MP3 (HLS, ffconcat) and in MP4 (DASH). */
let secretMp3: string;
let secretMp4: string;

beforeAll(async () => {
  await h.start();
  acme = await h.company('Manifests');
  secrets = mkdtempSync(join(tmpdir(), 'manifest-secrets-'));
  secretMp3 = join(secrets, 'secret.mp3');
  secretMp4 = join(secrets, 'secret.mp4');
  writeFileSync(secretMp3, testAudio(3, 'mp3'));
  writeFileSync(secretMp4, testAudio(3, 'mp4', ['-c:a', 'aac']));
});
afterAll(async () => {
  await h.stop();
  rmSync(secrets, { recursive: true, force: true });
});

/** The name an ffconcat list uses: relative (the concat demuxer's `safe` mode refuses absolute paths), so resolved next to the list. */
const CONCAT_NAME = 'neighbour.mp3';

const manifests = () => mediaManifests({ mp3: secretMp3, mp4: secretMp4, concatName: CONCAT_NAME });

type Issue = { path: string; message: string };

describe('manifests, playlists and concat lists naming local files', () => {
  it('are refused at upload with 422 naming the file, and nothing is stored', async () => {
    // Uploads are measured in STORAGE_DIR/tmp: the ffconcat list's relative name resolves there.
    mkdirSync(join(h.storageDir, 'tmp'), { recursive: true });
    copyFileSync(secretMp3, join(h.storageDir, 'tmp', CONCAT_NAME));
    for (const [name, bytes] of manifests()) {
      const form = new FormData();
      form.append('files', new Blob([new Uint8Array(bytes)]), name);
      const res = await fetch(`${h.app.url}/v1/uploads`, { method: 'POST', headers: h.auth(acme.key), body: form });
      const json = (await res.json()) as {
        code?: string;
        detail?: string;
        issues?: Issue[];
        uploads?: Array<{ kind: string }>;
      };
      expect(res.status, `${name}: ${JSON.stringify(json)}`).toBe(422);
      expect(json.code).toBe('validation_failed');
      expect(json.issues).toEqual([
        {
          path: 'files.0',
          message: expect.stringMatching(new RegExp(`^${name.replace('.', '\\.')}: .*(playlist|manifest)`)),
        },
      ]);
    }
    expect(await h.tdb.db('uploads').where({ company_id: acme.id }).count<{ count: string }[]>('* as count')).toEqual([
      { count: '0' },
    ]);
  });

  it('cannot be read at processing even once stored: the job fails as invalid_source, with no result', async () => {
    for (const [name, bytes] of manifests()) {
      // A real audio upload whose stored bytes are then replaced by the manifest (as if it had got into storage).
      const id = await h.upload(acme.key, 'tone.wav', testAudio(2, 'wav'));
      const stored = h.store.pathOf(id);
      writeFileSync(stored, bytes);
      copyFileSync(secretMp3, join(dirname(stored), CONCAT_NAME));
      const job = await h.waitForJob(
        acme.key,
        (await h.submitOk(acme.key, { operation: 'audio-compress', upload_ids: [id] })).id,
      );
      expect(job, name).toMatchObject({
        status: 'failed',
        error_code: 'invalid_source',
        result: null,
        charged_credits: 0,
      });
    }
  });
});
