import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOcrEngine } from '../../../adapters/media/ocr/ocr-engine.js';
import { createOcrRunners } from '../../../adapters/media/ocr/ocr-runners.js';
import { OcrEngineTimeout } from '../../../adapters/media/ocr/run-tool.js';
import type { RunnerInput, RunnerOutput, RunnerProgress } from '../../../adapters/media/runner-contract.js';
import { InvalidSourceError, ProviderUnavailableError } from '../../../adapters/providers/provider-errors.js';
import {
  corpusPage,
  scannedPdf,
  wordAccuracy,
  words,
  type CorpusPage,
  type VariantName,
} from '../../../support/ocr-corpus.js';

/** The bytes of an OCR result (the OCR runners return their outputs in memory). */
const bytes = (o: RunnerOutput | undefined): Uint8Array => {
  if (!o || !('data' in o)) throw new Error('expected an in-memory output');
  return o.data;
};

/**
 * The OCR runners on the real engines (Tesseract 5, ocrmypdf, poppler from Debian) on pages rendered from known
 * text. Floors are a little under what was measured on this machine (bench/README.md, "OCR accuracy"):
 * recall = share of the truth's words found; sequence = 1 − word edit distance / words (reading order counts).
 */
const FLOORS: Readonly<Partial<Record<VariantName, { recall: number; sequence: number }>>> = {
  'serif-10pt': { recall: 0.98, sequence: 0.97 }, // measured 1.000 / 1.000
  'skewed-noisy': { recall: 0.95, sequence: 0.93 }, // measured 1.000 / 1.000 (ocr-pdf's text layer 0.964 / 0.964)
  'two-column': { recall: 0.98, sequence: 0.95 }, // measured 1.000 / 1.000
  'invoice-degraded-200dpi': { recall: 0.88, sequence: 0.84 }, // measured 0.920 / 0.880 (text layer 0.940 / 0.900)
};
const VARIANTS = Object.keys(FLOORS) as VariantName[];

const dir = mkdtempSync(join(tmpdir(), 'ocr-runners-'));
let n = 0;
const input = (path: string, extra: Partial<RunnerInput> = {}): RunnerInput => {
  const workDir = join(dir, `work-${++n}`);
  mkdirSync(workDir);
  return { sources: [{ path, filename: 'scan.pdf' }], options: {}, workDir, ...extra };
};
const pdftotext = (file: string, page?: number) =>
  execFileSync('pdftotext', ['-raw', ...(page ? ['-f', String(page), '-l', String(page)] : []), file, '-']).toString(
    'utf8',
  );

let pages: CorpusPage[];
let scanned: string;
beforeAll(async () => {
  pages = [];
  for (const v of VARIANTS) pages.push(await corpusPage(v));
  scanned = join(dir, 'scanned.pdf');
  writeFileSync(scanned, await scannedPdf(pages));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ocr-text and ocr-pdf on a scanned PDF', () => {
  const runners = createOcrRunners(createOcrEngine({ concurrency: 2 }));

  it('reads every variant at least as well as its floor, and reports progress page by page', async () => {
    const progress: RunnerProgress[] = [];
    const [out] = await runners['ocr-text'](
      input(scanned, { progress: (p) => progress.push(p), checkpointDir: join(dir, 'ck-text') }),
    );
    expect(out!.format).toBe('txt');
    const texts = Buffer.from(bytes(out)).toString('utf8').split('\f');
    expect(texts).toHaveLength(pages.length);
    const measured: Record<string, unknown> = {};
    for (const [i, p] of pages.entries()) {
      const acc = wordAccuracy(p.truth, texts[i]!);
      measured[p.name] = acc;
      expect(acc.recall, `${p.name} recall`).toBeGreaterThanOrEqual(FLOORS[p.name as VariantName]!.recall);
      expect(acc.sequence, `${p.name} sequence`).toBeGreaterThanOrEqual(FLOORS[p.name as VariantName]!.sequence);
    }
    console.info('ocr-text word accuracy', measured);
    expect(progress.map((p) => p.fraction)).toEqual(pages.map((_, i) => (i + 1) / pages.length));
    expect(progress.at(-1)!.checkpoint).toEqual({ ocr: 'ocr-text', pages: pages.map((_, i) => i + 1) });
  });

  it('ocr-pdf keeps the page count and every page size, and its text layer reads as well as the plain text', async () => {
    const [out] = await runners['ocr-pdf'](input(scanned, { checkpointDir: join(dir, 'ck-pdf') }));
    expect(out!.format).toBe('pdf');
    const file = join(dir, 'searchable.pdf');
    writeFileSync(file, bytes(out));
    const src = await PDFDocument.load(readFileSync(scanned));
    const res = await PDFDocument.load(bytes(out));
    expect(res.getPageCount()).toBe(src.getPageCount());
    expect(res.getPages().map((p) => p.getSize())).toEqual(src.getPages().map((p) => p.getSize()));
    const [plain] = await runners['ocr-text'](input(scanned));
    const plainPages = Buffer.from(bytes(plain)).toString('utf8').split('\f');
    for (const [i, p] of pages.entries()) {
      const layer = wordAccuracy(p.truth, pdftotext(file, i + 1));
      const text = wordAccuracy(p.truth, plainPages[i]!);
      expect(layer.recall, `${p.name} text layer recall`).toBeGreaterThanOrEqual(
        Math.min(FLOORS[p.name as VariantName]!.recall, text.recall - 0.05),
      );
      expect(layer.sequence, `${p.name} text layer sequence`).toBeGreaterThanOrEqual(
        Math.min(FLOORS[p.name as VariantName]!.sequence, text.sequence - 0.05),
      );
    }
  });
});

describe('a mixed PDF: pages with a text layer keep it', () => {
  const runners = createOcrRunners(createOcrEngine({ concurrency: 2 }));
  const typed = ['Typed page with a real text layer', 'Reference number 88231 remains exact'];

  it('ocr-text takes the text layer as it is; ocr-pdf copies that page without a second layer', async () => {
    const mixed = join(dir, 'mixed.pdf');
    writeFileSync(mixed, await scannedPdf([pages[0]!], [{ at: 0, lines: typed }]));
    const [text] = await runners['ocr-text'](input(mixed));
    const [first, second] = Buffer.from(bytes(text)).toString('utf8').split('\f');
    expect(words(first!)).toEqual(words(typed.join(' ')));
    expect(wordAccuracy(pages[0]!.truth, second!).recall).toBeGreaterThanOrEqual(FLOORS['serif-10pt']!.recall);

    const [pdf] = await runners['ocr-pdf'](input(mixed));
    const file = join(dir, 'mixed-searchable.pdf');
    writeFileSync(file, bytes(pdf));
    expect(words(pdftotext(file, 1))).toEqual(words(typed.join(' '))); // once: no OCR layer added on top
    expect(wordAccuracy(pages[0]!.truth, pdftotext(file, 2)).recall).toBeGreaterThanOrEqual(
      FLOORS['serif-10pt']!.recall,
    );
  });

  it('ocr-docx writes one Word page per source page, paragraphs of the recognised text', async () => {
    const mixed = join(dir, 'mixed-docx.pdf');
    writeFileSync(mixed, await scannedPdf([pages[0]!], [{ at: 0, lines: typed }]));
    const [docx] = await runners['ocr-docx'](input(mixed));
    expect(docx!.format).toBe('docx');
    const xml = new AdmZip(Buffer.from(bytes(docx))).readAsText('word/document.xml');
    const text = [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join(' ');
    expect(text).toContain('Reference number 88231 remains exact');
    expect(wordAccuracy(pages[0]!.truth, text.replace(/^.*?88231 remains exact/, '')).recall).toBeGreaterThanOrEqual(
      FLOORS['serif-10pt']!.recall,
    );
    expect(xml.match(/<w:pageBreakBefore\/>/g)).toHaveLength(1);
  });
});

describe('images', () => {
  const runners = createOcrRunners(createOcrEngine());
  it("an image is read as one page; its searchable PDF has the image's size at its resolution", async () => {
    const png = join(dir, 'page.png');
    writeFileSync(png, pages[0]!.png);
    const [text] = await runners['ocr-text']({ ...input(png), sources: [{ path: png, filename: 'page.png' }] });
    expect(wordAccuracy(pages[0]!.truth, Buffer.from(bytes(text)).toString('utf8')).recall).toBeGreaterThanOrEqual(
      FLOORS['serif-10pt']!.recall,
    );
    const [pdf] = await runners['ocr-pdf']({ ...input(png), sources: [{ path: png, filename: 'page.png' }] });
    const doc = await PDFDocument.load(bytes(pdf));
    expect(doc.getPageCount()).toBe(1);
    const size = doc.getPage(0).getSize();
    expect(size.width).toBeCloseTo(5.83 * 72, 0);
    expect(size.height).toBeCloseTo(8.27 * 72, 0);
  });

  it("a file that is neither a PDF nor an image is the source's fault", async () => {
    const junk = join(dir, 'junk.bin');
    writeFileSync(junk, 'not an image at all');
    await expect(runners['ocr-text'](input(junk))).rejects.toBeInstanceOf(InvalidSourceError);
  });
});

/** A tesseract that logs each page it is given (and which attempt gave it), then runs the real one. */
function loggingTesseract(log: string, extra = ''): string {
  const path = join(dir, `tesseract-${++n}.sh`);
  writeFileSync(
    path,
    `#!/bin/sh\necho "start $(basename "$1")" >> "${log}"\n${extra}\ntesseract "$@"\nrc=$?\necho "end $(basename "$1")" >> "${log}"\nexit $rc\n`,
  );
  chmodSync(path, 0o755);
  return path;
}
/** The page images Tesseract was given (a skewed page's straightened copy, page-N.png.straight.png, is page N's). */
const logged = (log: string, what: 'start' | 'end') =>
  readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith(`${what} `))
    .map((l) => l.slice(what.length + 1).replace('.png.straight.png', '.png'));

describe('resume, bounds and failures', () => {
  it('a retry re-uses the pages its checkpoint lists (and whose files are there) and reads only the others', async () => {
    const checkpointDir = join(dir, 'ck-resume');
    const log1 = join(dir, 'resume-1.log');
    const first = createOcrRunners(createOcrEngine({ concurrency: 1, tesseractPath: loggingTesseract(log1) }));
    const checkpoints: unknown[] = [];
    const [full] = await first['ocr-text'](
      input(scanned, { checkpointDir, progress: (p) => checkpoints.push(p.checkpoint) }),
    );
    expect(logged(log1, 'start')).toEqual(pages.map((_, i) => `page-${i + 1}.png`));
    // As if the worker had died after its second page: the checkpoint of that moment, and page 3's file lost too.
    const resume = checkpoints[1];
    expect(resume).toEqual({ ocr: 'ocr-text', pages: [1, 2] });
    rmSync(join(checkpointDir, 'page-3.txt'));
    const log2 = join(dir, 'resume-2.log');
    const reused: number[][] = [];
    const second = createOcrRunners(createOcrEngine({ concurrency: 1, tesseractPath: loggingTesseract(log2) }), {
      onResume: (r) => reused.push(r.reused),
    });
    const progress: RunnerProgress[] = [];
    const [again] = await second['ocr-text'](
      input(scanned, { checkpointDir, resume, progress: (p) => progress.push(p) }),
    );
    expect(reused).toEqual([[1, 2]]);
    expect(logged(log2, 'start')).toEqual(pages.slice(2).map((_, i) => `page-${i + 3}.png`));
    expect(progress[0]).toMatchObject({ fraction: 2 / pages.length, checkpoint: { pages: [1, 2] } });
    expect(Buffer.from(bytes(again)).toString('utf8')).toBe(Buffer.from(bytes(full)).toString('utf8'));

    // A checkpoint of another operation, or one whose files are gone, starts over.
    const log3 = join(dir, 'resume-3.log');
    const third = createOcrRunners(createOcrEngine({ concurrency: 1, tesseractPath: loggingTesseract(log3) }));
    await third['ocr-text'](input(scanned, { checkpointDir: join(dir, 'ck-empty'), resume }));
    expect(logged(log3, 'start')).toHaveLength(pages.length);
  });

  it('ocr-pdf resumes the same way', async () => {
    const checkpointDir = join(dir, 'ck-pdf-resume');
    const runners = createOcrRunners(createOcrEngine({ concurrency: 1 }));
    const checkpoints: unknown[] = [];
    const [full] = await runners['ocr-pdf'](
      input(scanned, { checkpointDir, progress: (p) => checkpoints.push(p.checkpoint) }),
    );
    const reused: number[][] = [];
    const again = createOcrRunners(createOcrEngine({ concurrency: 1, ocrmypdfPath: '/nonexistent/ocrmypdf' }), {
      onResume: (r) => reused.push(r.reused),
    });
    // Every page is in the checkpoint: nothing is OCRed again (the engine here could not even start).
    const [out] = await again['ocr-pdf'](input(scanned, { checkpointDir, resume: checkpoints.at(-1) }));
    expect(reused).toEqual([pages.map((_, i) => i + 1)]);
    expect((await PDFDocument.load(bytes(out))).getPageCount()).toBe(
      (await PDFDocument.load(bytes(full))).getPageCount(),
    );
  });

  it('at most OCR_CONCURRENCY pages are read at once by one engine, whatever the number of jobs', async () => {
    const log = join(dir, 'bound.log');
    const engine = createOcrEngine({ concurrency: 1, tesseractPath: loggingTesseract(log) });
    const runners = createOcrRunners(engine);
    await Promise.all([runners['ocr-text'](input(scanned)), runners['ocr-text'](input(scanned))]);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(4 * pages.length);
    for (let i = 0; i < lines.length; i += 2) {
      expect(lines[i]).toMatch(/^start /);
      expect(lines[i + 1]).toBe(lines[i]!.replace('start', 'end'));
    }
  });

  it('a page past the time limit stops the engine and fails the attempt (retried by the job)', async () => {
    const slow = loggingTesseract(join(dir, 'slow.log'), 'exec sleep 30');
    const runners = createOcrRunners(createOcrEngine({ tesseractPath: slow, pageTimeoutMs: 1500 }));
    await expect(runners['ocr-text'](input(scanned))).rejects.toBeInstanceOf(OcrEngineTimeout);
  });

  it("a missing engine is an outage (the job waits), not the source's fault", async () => {
    const runners = createOcrRunners(createOcrEngine({ tesseractPath: '/nonexistent/tesseract' }));
    await expect(runners['ocr-text'](input(scanned))).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it("a damaged PDF is the source's fault", async () => {
    const broken = join(dir, 'broken.pdf');
    writeFileSync(broken, '%PDF-1.7\nnot really a pdf');
    const runners = createOcrRunners(createOcrEngine());
    await expect(runners['ocr-text'](input(broken))).rejects.toBeInstanceOf(InvalidSourceError);
  });
});
