import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { ProcessingHarness, type TestCompany } from '../helpers/processing.js';
import { pdfFonts, pdfPageText } from '../helpers/pdf-inspect.js';
import type { SAMPLE_MEDIA } from '../../support/sample-files.js';
import { pngDeclaring, sampleMedia, samplePdf, samplePng } from '../../support/sample-files.js';

/**
 * What a /v1 client sends beyond ASCII and beyond the happy path of its sources, end to end through the real app,
 * PostgreSQL and a Temporal worker: watermark text in any script the shipped fonts draw, file names in any script,
 * image geometry checked before quoting, and the registered media type of every supported container.
 */
const h = new ProcessingHarness();
// Several companies, so the many requests of this file stay within the per-key rate limit.
let marks: TestCompany;
let names: TestCompany;
let images: TestCompany;
let media: TestCompany;

beforeAll(async () => {
  await h.start();
  marks = await h.company('Marks');
  names = await h.company('Names');
  images = await h.company('Images');
  media = await h.company('Media');
});
afterAll(() => h.stop());

type Issue = { path: string; message: string };
type UploadJson = {
  id: string;
  filename: string;
  kind: string;
  mime_type: string;
  width: number | null;
  height: number | null;
  pages: number;
};

const estimate = (key: string, body: unknown) =>
  fetch(`${h.app.url}/v1/estimate`, {
    method: 'POST',
    headers: { ...h.auth(key), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** Estimate and submission both refuse the body with 422 naming `path`; no job is recorded. */
async function refusedAtEstimateAndSubmission(
  key: string,
  companyId: string,
  body: unknown,
  path: string,
): Promise<string> {
  const jobsBefore = await h.tdb.db('jobs').where({ company_id: companyId }).count<{ count: string }[]>('* as count');
  const quoted = await estimate(key, body);
  const quotedJson = (await quoted.json()) as { code: string; detail: string; issues: Issue[] };
  expect(quoted.status, JSON.stringify(quotedJson)).toBe(422);
  expect(quotedJson.code).toBe('validation_failed');
  expect(quotedJson.issues.map((i) => i.path)).toContain(path);
  const submitted = await h.submit(key, body);
  const submittedJson = (await submitted.json()) as { issues: Issue[] };
  expect(submitted.status, JSON.stringify(submittedJson)).toBe(422);
  expect(submittedJson.issues.map((i) => i.path)).toContain(path);
  expect(await h.tdb.db('jobs').where({ company_id: companyId }).count<{ count: string }[]>('* as count')).toEqual(
    jobsBefore,
  );
  return quotedJson.issues.find((i) => i.path === path)!.message;
}

async function uploadForm(key: string, form: FormData): Promise<UploadJson[]> {
  const res = await fetch(`${h.app.url}/v1/uploads`, { method: 'POST', headers: h.auth(key), body: form });
  const json = (await res.json()) as { uploads: UploadJson[] };
  expect(res.status, JSON.stringify(json)).toBe(201);
  return json.uploads;
}

/** A multipart body written byte by byte, so the test controls exactly how a file name is sent. */
async function uploadRaw(key: string, disposition: string, bytes: Buffer): Promise<Response> {
  const boundary = 'rawboundary7MA4YWxk';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; `, 'latin1'),
    Buffer.from(disposition, 'utf8'),
    Buffer.from('\r\nContent-Type: application/octet-stream\r\n\r\n', 'latin1'),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1'),
  ]);
  return fetch(`${h.app.url}/v1/uploads`, {
    method: 'POST',
    headers: { ...h.auth(key), 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
  });
}

/** Text without its white space (rotated text is extracted a glyph per line). */
const squash = (s: string) => s.replace(/\s+/g, '');

describe('pdf-watermark draws text in the scripts of the shipped fonts', () => {
  it('quotes, runs and draws German, Greek, Cyrillic, Japanese, Korean and symbols as extractable text', async () => {
    const pdf = await h.upload(marks.key, 'letter.pdf', await samplePdf(2));
    const texts = [
      'Größe ✓ 日本',
      'Ωμέγα Ελληνικά',
      'Жёлтый счёт',
      '日本語のテキスト',
      '한국어 문서 ✓',
      '€ 42 – „Entwurf“',
    ];
    for (const text of texts) {
      const body = { operation: 'pdf-watermark', upload_ids: [pdf], options: { text, pages: '2' } };
      expect((await estimate(marks.key, body)).status).toBe(200);
      const job = await h.waitForJob(marks.key, (await h.submitOk(marks.key, body)).id);
      expect(job, text).toMatchObject({ status: 'completed', error: null });
      const res = await h.download(marks.key, job.result!.files[0]!.download_path);
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(squash(pdfPageText(bytes, 2)), text).toContain(squash(text));
      expect(squash(pdfPageText(bytes, 1)), text).not.toContain(squash(text));
      // Each font is embedded (`emb`) with a ToUnicode map (`uni`), and only the glyphs used: the CJK font alone is
      // several megabytes whole.
      const fonts = pdfFonts(bytes)
        .split('\n')
        .filter((l) => /CID TrueType/.test(l));
      expect(fonts.length, text).toBeGreaterThan(0);
      for (const line of fonts) expect(line, text).toMatch(/\byes\s+(yes|no)\s+yes\b/);
      expect(bytes.length, text).toBeLessThan(100_000);
    }
  });

  it('refuses at estimate and submission, naming options.text, what no shipped font can draw', async () => {
    const pdf = await h.upload(marks.key, 'letter.pdf', await samplePdf(1));
    const cases: Array<[string, RegExp]> = [
      ['Draft \u0378', /U\+0378/], // unassigned code point
      ['Draft\u0007', /control/i],
      ['नमस्ते', /U\+0928/], // Devanagari: no shipped font covers it
      ['Parrot 🦜', /U\+1F99C/],
      ['שלום', /right-to-left/i],
    ];
    for (const [text, message] of cases) {
      const why = await refusedAtEstimateAndSubmission(
        marks.key,
        marks.id,
        { operation: 'pdf-watermark', upload_ids: [pdf], options: { text } },
        'options.text',
      );
      expect(why, text).toMatch(message);
    }
  });
});

describe('file names in any script', () => {
  it('keeps UTF-8 names on the upload, the result names and the download header', async () => {
    const form = new FormData();
    const pdf = await samplePdf(1);
    const sent = ['Rechnung März.pdf', '日本語.pdf', 'Ελληνικά.pdf', 'Счёт №5.pdf', 'e\u0301te\u0301.pdf'];
    for (const name of sent) form.append('files', new Blob([new Uint8Array(pdf)]), name);
    const uploads = await uploadForm(names.key, form);
    // Names are kept as sent, in Unicode normal form C (a decomposed é from macOS becomes é).
    expect(uploads.map((u) => u.filename)).toEqual([
      'Rechnung März.pdf',
      '日本語.pdf',
      'Ελληνικά.pdf',
      'Счёт №5.pdf',
      'été.pdf',
    ]);
    const rows = await h.tdb
      .db('uploads')
      .whereIn(
        'id',
        uploads.map((u) => u.id),
      )
      .orderBy('created_at');
    expect(rows.map((r) => r.filename).sort()).toEqual(uploads.map((u) => u.filename).sort());

    for (const [i, expected] of [
      [0, 'Rechnung März-rotated.pdf'],
      [1, '日本語-rotated.pdf'],
    ] as const) {
      const job = await h.waitForJob(
        names.key,
        (await h.submitOk(names.key, { operation: 'pdf-rotate', upload_ids: [uploads[i]!.id], options: { angle: 90 } }))
          .id,
      );
      expect(job.result!.files[0]!.name).toBe(expected);
      const res = await h.download(names.key, job.result!.files[0]!.download_path);
      expect(res.status).toBe(200);
      const header = res.headers.get('content-disposition')!;
      // RFC 6266: an ASCII fallback `filename=` for old clients, and the exact name in `filename*` (RFC 8187).
      const fallback = /filename="([^"]*)"/.exec(header)?.[1];
      expect(fallback).toMatch(/^[\x20-\x7e]+$/);
      expect(fallback).toBe(i === 0 ? 'Rechnung Marz-rotated.pdf' : '___-rotated.pdf');
      const exact = /filename\*=UTF-8''([^;\s]+)/.exec(header)?.[1];
      expect(exact).toMatch(/^[A-Za-z0-9!#$&+\-.^_`|~%]+$/); // attr-chars and percent escapes only
      expect(decodeURIComponent(exact!)).toBe(expected);
    }
  });

  it("accepts RFC 5987 filename*=UTF-8'' names, and strips control, bidi and path characters", async () => {
    const text = Buffer.from('hello');
    const cases: Array<[string, string]> = [
      [`filename="Rechnung Marz.pdf"; filename*=UTF-8''Rechnung%20M%C3%A4rz.pdf`, 'Rechnung März.pdf'],
      [`filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E.txt`, '日本語.txt'],
      ['filename="Grüße.txt"', 'Grüße.txt'], // raw UTF-8 bytes in the quoted name (RFC 7578)
      ['filename="invoice\u202Etxt.exe"', 'invoicetxt.exe'], // a right-to-left override would disguise the extension
      ['filename="line\u0085break\u2028.txt"', 'linebreak.txt'], // C1 control and line separator
      ['filename="C:\\\\Users\\\\me\\\\notes.txt"', 'notes.txt'],
      ['filename="../../etc/hosts"', 'hosts'],
    ];
    for (const [disposition, expected] of cases) {
      const res = await uploadRaw(names.key, disposition, text);
      const json = (await res.json()) as { uploads: UploadJson[] };
      expect(res.status, disposition).toBe(201);
      expect(json.uploads[0]!.filename, disposition).toBe(expected);
    }
  });
});

describe('image geometry is measured at upload and checked before quoting', () => {
  it('shows width and height on the upload record', async () => {
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(await samplePng(400, 300))]), 'photo.png');
    form.append('files', new Blob([new Uint8Array(await samplePdf(2))]), 'doc.pdf');
    const [png, pdf] = await uploadForm(images.key, form);
    expect(png).toMatchObject({ kind: 'image', width: 400, height: 300, pages: 1 });
    expect(pdf).toMatchObject({ kind: 'pdf', width: null, height: null, pages: 2 });
  });

  it('refuses a crop outside the image at estimate and submission (options.crop); one inside runs', async () => {
    const png = await h.upload(images.key, 'photo.png', await samplePng(400, 300));
    for (const crop of [
      [350, 0, 100, 100],
      [0, 250, 10, 51],
      [400, 0, 1, 1],
    ]) {
      const why = await refusedAtEstimateAndSubmission(
        images.key,
        images.id,
        { operation: 'image-edit', upload_ids: [png], options: { crop } },
        'options.crop',
      );
      expect(why).toContain('400x300');
    }
    const job = await h.waitForJob(
      images.key,
      (
        await h.submitOk(images.key, {
          operation: 'image-edit',
          upload_ids: [png],
          options: { crop: [100, 50, 300, 250] },
        })
      ).id,
    );
    expect(job.status).toBe('completed');
    const out = await sharp(
      Buffer.from(await (await h.download(images.key, job.result!.files[0]!.download_path)).arrayBuffer()),
    ).metadata();
    expect([out.width, out.height]).toEqual([300, 250]);
  });

  it('measures a photo as it is displayed (EXIF orientation), and crops in those coordinates', async () => {
    // Stored 400×300 with EXIF orientation 6 (rotate 90° clockwise to display): shown as 300×400.
    const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#369' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(jpeg)]), 'portrait.jpg');
    const [photo] = await uploadForm(images.key, form);
    expect(photo).toMatchObject({ width: 300, height: 400 });
    await refusedAtEstimateAndSubmission(
      images.key,
      images.id,
      { operation: 'image-edit', upload_ids: [photo!.id], options: { crop: [0, 0, 400, 300] } },
      'options.crop',
    );
    const job = await h.waitForJob(
      images.key,
      (
        await h.submitOk(images.key, {
          operation: 'image-edit',
          upload_ids: [photo!.id],
          options: { crop: [0, 0, 300, 400] },
        })
      ).id,
    );
    expect(job).toMatchObject({ status: 'completed', error: null });
  });

  it('refuses an output larger than its format allows (WebP: 16383 pixels a side) before quoting', async () => {
    const wide = await h.upload(images.key, 'banner.png', await samplePng(17_000, 8));
    await refusedAtEstimateAndSubmission(
      images.key,
      images.id,
      { operation: 'image-compress', upload_ids: [wide], options: { format: 'webp' } },
      'options.format',
    );
    await refusedAtEstimateAndSubmission(
      images.key,
      images.id,
      { operation: 'image-edit', upload_ids: [wide], options: { format: 'webp' } },
      'options.format',
    );
    await refusedAtEstimateAndSubmission(
      images.key,
      images.id,
      { operation: 'webp', upload_ids: [wide] },
      'upload_ids.0',
    );
    // Rotated by 45°, a 12000 × 12000 picture needs a 16971 × 16971 canvas: too large for WebP, fine for JPEG, and
    // fine for WebP once contained in 4000 × 4000 (the resize follows the rotation). Only the header is read here.
    const square = await h.upload(images.key, 'square.png', await pngDeclaring(12_000, 12_000));
    await refusedAtEstimateAndSubmission(
      images.key,
      images.id,
      { operation: 'image-edit', upload_ids: [square], options: { angle: 45, format: 'webp' } },
      'options.format',
    );
    expect(
      (
        await estimate(images.key, {
          operation: 'image-edit',
          upload_ids: [square],
          options: { angle: 45, format: 'jpg' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await estimate(images.key, {
          operation: 'image-edit',
          upload_ids: [square],
          options: { angle: 45, format: 'webp', width: 4000, height: 4000 },
        })
      ).status,
    ).toBe(200);
    // Resized into 2000 x 2000 first, it fits.
    expect(
      (
        await estimate(images.key, {
          operation: 'image-edit',
          upload_ids: [wide],
          options: { format: 'webp', width: 2000, height: 2000 },
        })
      ).status,
    ).toBe(200);
  });

  it('refuses at upload an image with more pixels than the image engine opens', async () => {
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(await pngDeclaring(20_000, 20_000))]), 'huge.png');
    const res = await fetch(`${h.app.url}/v1/uploads`, { method: 'POST', headers: h.auth(images.key), body: form });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      code: 'validation_failed',
      detail: expect.stringMatching(/huge\.png.*pixels/),
    });
  });
});

describe('media types', () => {
  it('reports the registered media type of each supported container', async () => {
    const expected: Record<keyof typeof SAMPLE_MEDIA, [string, string]> = {
      mp4: ['video', 'video/mp4'],
      mov: ['video', 'video/quicktime'],
      m4a: ['audio', 'audio/mp4'],
      '3gp': ['video', 'video/3gpp'],
      mp3: ['audio', 'audio/mpeg'],
      wav: ['audio', 'audio/wav'],
      ogg: ['audio', 'audio/ogg'],
      opus: ['audio', 'audio/ogg'],
      flac: ['audio', 'audio/flac'],
      aac: ['audio', 'audio/aac'],
      webm: ['video', 'video/webm'],
      mkv: ['video', 'video/matroska'],
      avi: ['video', 'video/x-msvideo'],
      ts: ['video', 'video/mp2t'],
    };
    const form = new FormData();
    const exts = Object.keys(expected) as Array<keyof typeof SAMPLE_MEDIA>;
    for (const ext of exts) form.append('files', new Blob([new Uint8Array(sampleMedia(ext))]), `sample.${ext}`);
    const uploads = await uploadForm(media.key, form);
    expect(Object.fromEntries(uploads.map((u, i) => [exts[i], [u.kind, u.mime_type]]))).toEqual(expected);
  });

  it('reports image/avif for AVIF (not image/heif)', async () => {
    const form = new FormData();
    form.append(
      'files',
      new Blob([
        new Uint8Array(
          await sharp({ create: { width: 16, height: 16, channels: 3, background: '#abc' } })
            .avif()
            .toBuffer(),
        ),
      ]),
      'pic.avif',
    );
    const [avif] = await uploadForm(media.key, form);
    expect(avif).toMatchObject({ kind: 'image', mime_type: 'image/avif', width: 16, height: 16 });
  });
});
