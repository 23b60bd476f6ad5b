import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessingHarness, type TestCompany } from '../helpers/processing.js';
import { loadScans } from '../../bench/ocr-corpus/corpus.js';
import { corpusPage, foreignPage, scannedPdf, wordAccuracy, words, type CorpusPage } from '../../support/ocr-corpus.js';

/**
 * OCR through the real app, PostgreSQL, Temporal and a worker with the real engines: prices per page from the
 * measured page count, a mixed PDF (a typed page and a scanned one) to text, DOCX and a searchable PDF, an image,
 * and the `language` option checked against the installed languages before anything is reserved.
 */
const h = new ProcessingHarness();
const dir = mkdtempSync(join(tmpdir(), 'v1-ocr-'));
const typed = ['Typed page with a real text layer', 'Reference number 88231 remains exact'];
let acme: TestCompany;
let scan: CorpusPage;
let mixed: string;
let image: string;

beforeAll(async () => {
  await h.start();
  acme = await h.company('OCR');
  scan = await corpusPage('serif-10pt');
  mixed = await h.upload(acme.key, 'mixed.pdf', Buffer.from(await scannedPdf([scan], [{ at: 0, lines: typed }])));
  image = await h.upload(acme.key, 'page.png', scan.png);
});
afterAll(async () => {
  await h.stop();
  rmSync(dir, { recursive: true, force: true });
});

const post = async (path: string, body: unknown) =>
  fetch(`${h.app.url}/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${acme.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('OCR prices', () => {
  it('3 credits per page for text, 10 per page for DOCX and searchable PDF; an image is one page', async () => {
    for (const [operation, credits] of [
      ['ocr-text', 6],
      ['ocr-docx', 20],
      ['ocr-pdf', 20],
    ] as const) {
      const res = await post('/estimate', { operation, upload_ids: [mixed] });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        operation,
        estimated_credits: credits,
        sources: [{ upload_id: mixed, pages: 2, credits }],
      });
    }
    const res = await post('/estimate', { operation: 'ocr-text', upload_ids: [image], options: { language: 'eng' } });
    expect(await res.json()).toMatchObject({ estimated_credits: 3, sources: [{ pages: 1 }] });
  });
});

describe('OCR jobs', () => {
  it('ocr-text: the typed page as it is, the scanned page recognised; charged once', async () => {
    const before = await h.wallet(acme.id);
    const job = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'ocr-text', upload_ids: [mixed] })).id,
    );
    expect(job).toMatchObject({ status: 'completed', charged_credits: 6 });
    const file = job.result!.files[0]!;
    expect(file).toMatchObject({ name: 'mixed-text.txt', content_type: 'text/plain; charset=utf-8' });
    const res = await h.download(acme.key, file.download_path);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const [first, second] = (await res.text()).split('\f');
    expect(words(first!)).toEqual(words(typed.join(' ')));
    expect(wordAccuracy(scan.truth, second!).recall).toBeGreaterThanOrEqual(0.98);
    expect(await h.wallet(acme.id)).toEqual({ available: before.available - 6, reserved: before.reserved });
  });

  it('ocr-pdf: same pages and sizes, the typed page keeps its only text layer, the scanned one becomes searchable', async () => {
    const job = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'ocr-pdf', upload_ids: [mixed], options: { language: 'eng' } })).id,
    );
    expect(job).toMatchObject({ status: 'completed', charged_credits: 20 });
    const file = job.result!.files[0]!;
    expect(file).toMatchObject({ name: 'mixed-searchable.pdf', content_type: 'application/pdf' });
    const bytes = Buffer.from(await (await h.download(acme.key, file.download_path)).arrayBuffer());
    const out = join(dir, 'out.pdf');
    writeFileSync(out, bytes);
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPages().map((p) => p.getSize())).toEqual([
      { width: 419.76, height: 595.44 },
      { width: (scan.png.readUInt32BE(16) / 300) * 72, height: (scan.png.readUInt32BE(20) / 300) * 72 },
    ]);
    const page = (n: number) =>
      execFileSync('pdftotext', ['-raw', '-f', String(n), '-l', String(n), out, '-']).toString('utf8');
    expect(words(page(1))).toEqual(words(typed.join(' ')));
    expect(wordAccuracy(scan.truth, page(2)).recall).toBeGreaterThanOrEqual(0.98);
  });

  it('ocr-docx of an image: a Word document of the recognised text', async () => {
    const job = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'ocr-docx', upload_ids: [image] })).id,
    );
    expect(job).toMatchObject({ status: 'completed', charged_credits: 10 });
    const file = job.result!.files[0]!;
    expect(file).toMatchObject({
      name: 'page-text.docx',
      content_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    const xml = new AdmZip(
      Buffer.from(await (await h.download(acme.key, file.download_path)).arrayBuffer()),
    ).readAsText('word/document.xml');
    const text = [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join(' ');
    expect(wordAccuracy(scan.truth, text).recall).toBeGreaterThanOrEqual(0.98);
  });

  it('pages scanned sideways and upside down: ocr-text and ocr-pdf read each one upright', async () => {
    const turned = await Promise.all(
      [90, 180, 270].map(async (angle) => ({
        png: await sharp(scan.png).rotate(angle).withMetadata({ density: 300 }).png().toBuffer(),
        dpi: 300,
      })),
    );
    const upload = await h.upload(acme.key, 'turned.pdf', Buffer.from(await scannedPdf(turned)));
    const text = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'ocr-text', upload_ids: [upload] })).id,
    );
    expect(text).toMatchObject({ status: 'completed', charged_credits: 9 });
    const pages = (await (await h.download(acme.key, text.result!.files[0]!.download_path)).text()).split('\f');
    pages.forEach((p, i) =>
      expect(wordAccuracy(scan.truth, p).recall, `ocr-text page ${i + 1}`).toBeGreaterThanOrEqual(0.95),
    );
    const pdf = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'ocr-pdf', upload_ids: [upload] })).id,
    );
    expect(pdf).toMatchObject({ status: 'completed', charged_credits: 30 });
    const out = join(dir, 'turned-searchable.pdf');
    writeFileSync(
      out,
      Buffer.from(await (await h.download(acme.key, pdf.result!.files[0]!.download_path)).arrayBuffer()),
    );
    for (const n of [1, 2, 3]) {
      const layer = execFileSync('pdftotext', ['-raw', '-f', String(n), '-l', String(n), out, '-']).toString('utf8');
      expect(wordAccuracy(scan.truth, layer).recall, `ocr-pdf page ${n}`).toBeGreaterThanOrEqual(0.95);
    }
  });

  it("a real scan (Tesseract's phototest) turned 0/90/180/270°, skewed 3°, and blurred past reading: every readable page read, the unreadable one in result.warnings (ocr-text and ocr-pdf)", async () => {
    const [photo] = await loadScans({ ids: ['phototest'] });
    const at = (img: ReturnType<typeof sharp>) =>
      img.greyscale().withMetadata({ density: photo!.dpi }).png().toBuffer();
    const pngs = [
      ...(await Promise.all([0, 90, 180, 270].map((t) => at(sharp(photo!.bytes).rotate(t))))),
      await at(sharp(photo!.bytes).rotate(3, { background: '#ffffff' })),
      // Blurred by 4 px: past reading on every path (blurred by 2 px it is now read, in sparse mode: page-retry.ts).
      await at(sharp(photo!.bytes).blur(4)),
    ];
    const upload = await h.upload(
      acme.key,
      'phototest-forms.pdf',
      Buffer.from(await scannedPdf(pngs.map((png) => ({ png, dpi: photo!.dpi })))),
    );
    const text = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'ocr-text', upload_ids: [upload] })).id,
    );
    expect(text).toMatchObject({
      status: 'completed',
      charged_credits: 18,
      result: { warnings: [expect.stringMatching(/^page 6 is hard to read \(text recognition confidence \d+ %\)/)] },
    });
    const pages = (await (await h.download(acme.key, text.result!.files[0]!.download_path)).text()).split('\f');
    for (const i of [0, 1, 2, 3, 4])
      expect(wordAccuracy(photo!.truthText, pages[i]!).recall, `ocr-text page ${i + 1}`).toBeGreaterThanOrEqual(0.95);
    const pdf = await h.waitForJob(
      acme.key,
      (await h.submitOk(acme.key, { operation: 'ocr-pdf', upload_ids: [upload] })).id,
    );
    // The searchable PDF names the same page, from the recognition that wrote its text layer.
    expect(pdf).toMatchObject({
      status: 'completed',
      result: { warnings: [expect.stringMatching(/^page 6 is hard to read \(text recognition confidence \d+ %\)/)] },
    });
    const out = join(dir, 'phototest-forms-searchable.pdf');
    writeFileSync(
      out,
      Buffer.from(await (await h.download(acme.key, pdf.result!.files[0]!.download_path)).arrayBuffer()),
    );
    for (const n of [1, 2, 3, 4, 5]) {
      const layer = execFileSync('pdftotext', ['-raw', '-f', String(n), '-l', String(n), out, '-']).toString('utf8');
      expect(wordAccuracy(photo!.truthText, layer).recall, `ocr-pdf page ${n}`).toBeGreaterThanOrEqual(0.95);
    }
  });

  it('a French page read with `fra` (and with `eng+fra`) and a German one with `deu`: every word, accents and ß included', async () => {
    for (const [lang, language] of [
      ['fra', 'fra'],
      ['fra', 'eng+fra'],
      ['deu', 'deu'],
    ] as const) {
      const page = await foreignPage(lang);
      const upload = await h.upload(acme.key, `${lang}-${language}.png`, page.png);
      const job = await h.waitForJob(
        acme.key,
        (await h.submitOk(acme.key, { operation: 'ocr-text', upload_ids: [upload], options: { language } })).id,
      );
      expect(job, language).toMatchObject({ status: 'completed', charged_credits: 3 });
      const text = await (await h.download(acme.key, job.result!.files[0]!.download_path)).text();
      expect(wordAccuracy(page.truth, text).recall, language).toBeGreaterThanOrEqual(0.98);
    }
  });
});

describe('OCR requests refused before anything is reserved', () => {
  it('a language that is not installed, or not a language code, is 422 naming options.language', async () => {
    const missing = await post('/estimate', {
      operation: 'ocr-text',
      upload_ids: [mixed],
      options: { language: 'eng+jpn' },
    });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toMatchObject({
      code: 'validation_failed',
      issues: [
        {
          path: 'options.language',
          message: 'jpn is not installed on this server; installed: eng, deu, fra, spa, ita, por, nld',
        },
      ],
    });
    for (const language of ['deu', 'fra+spa', 'ita+por+nld']) {
      expect(
        (await post('/estimate', { operation: 'ocr-text', upload_ids: [mixed], options: { language } })).status,
        language,
      ).toBe(200);
    }
    for (const language of ['English', 'eng+', 'eng+deu+fra+ita', 7]) {
      const res = await post('/estimate', { operation: 'ocr-pdf', upload_ids: [mixed], options: { language } });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { issues: Array<{ path: string }> }).issues.map((i) => i.path)).toEqual([
        'options.language',
      ]);
    }
    const unknown = await post('/estimate', { operation: 'ocr-docx', upload_ids: [mixed], options: { dpi: 600 } });
    expect(unknown.status).toBe(422);
  });

  it('a text upload is not an OCR source; an encrypted PDF must be unlocked first', async () => {
    const text = await h.upload(acme.key, 'notes.txt', Buffer.from('plain text already'));
    const res = await post('/estimate', { operation: 'ocr-text', upload_ids: [text] });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain('ocr-text needs a PDF or an image');
    const plain = join(dir, 'plain.pdf');
    writeFileSync(plain, await scannedPdf([scan]));
    execFileSync('qpdf', ['--encrypt', 'secret', 'owner-secret', '256', '--', plain, join(dir, 'locked.pdf')]);
    const locked = await h.upload(acme.key, 'locked.pdf', readFileSync(join(dir, 'locked.pdf')));
    const enc = await post('/estimate', { operation: 'ocr-pdf', upload_ids: [locked] });
    expect(enc.status).toBe(422);
    expect(JSON.stringify(await enc.json())).toContain('is encrypted; unlock it first with pdf-unlock');
  });
});
