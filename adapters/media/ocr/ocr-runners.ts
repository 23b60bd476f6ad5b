import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { OCR_OPERATIONS } from '../../../domain/validation/processing-request.js';
import { InvalidSourceError, ProviderUnavailableError } from '../../providers/provider-errors.js';
import type { OperationRunner, RunnerInput, RunnerSource } from '../runner-contract.js';
import { fileExists, writeWhole } from '../../storage/whole-files.js';
import { textPagesToDocx } from './docx-writer.js';
import {
  HARD_TO_READ_CONFIDENCE,
  OCR_DPI,
  OcrSourceError,
  UPRIGHT_CONFIDENCE,
  type OcrEngine,
  type RecogniseMode,
} from './ocr-engine.js';
import { parseTsvPage } from '../../extraction/tsv-words.js';
import { BLURRED_PRINT_SHARE, measureSkew, MIN_DESKEW_DEGREES, straighten, straightenBy } from './page-skew.js';
import { CANDIDATE_TURNS, turnedImage, turnedPdfPage, uprightRead } from './page-orientation.js';
import { imageForOcr } from './page-resolution.js';
import { bestRead, pageTrace, scoreOfTsv, tracePage } from './page-retry.js';
import { OcrEngineUnavailable } from './run-tool.js';
import { isPdf, normaliseImage, pdfPageSizes, renderDpi } from './ocr-pages.js';

/**
 * `ocr-text`, `ocr-docx` and `ocr-pdf` (docs/processing.md, "OCR"). A source is a PDF (scanned, or mixed with pages
 * that have text) or an image. A PDF is worked page by page:
 * - a page that already has a text layer keeps it: its text is pdftotext's (ocr-text, ocr-docx), and the page is
 *   copied unchanged (ocr-pdf), so no page ever gets a second layer of text;
 * - any other page is rendered at 300 dpi and read by Tesseract (ocr-text, ocr-docx), or made searchable by
 *   ocrmypdf (ocr-pdf: the page image as it was, with an invisible text layer).
 * Each finished page is saved in the job's checkpoint folder and reported as progress with the list of finished pages
 * as the checkpoint; a retry after a crash re-uses every listed page whose file is there, and does the rest.
 */
export type OcrOperation = (typeof OCR_OPERATIONS)[number];

export interface OcrRunnerOptions {
  /** The language when a request names none (the first of OCR_LANGUAGES). */
  defaultLanguage?: string;
  /** Told about resumed work (how many pages a retry re-used). */
  onResume?: (info: { operation: OcrOperation; reused: number[]; total: number }) => void;
}

/** The checkpoint an OCR runner reports: the pages (1-based) whose result is saved in the checkpoint folder. */
interface OcrCheckpoint {
  ocr: OcrOperation;
  pages: number[];
}

const isCheckpoint = (v: unknown, op: OcrOperation): v is OcrCheckpoint =>
  !!v &&
  typeof v === 'object' &&
  (v as OcrCheckpoint).ocr === op &&
  Array.isArray((v as OcrCheckpoint).pages) &&
  (v as OcrCheckpoint).pages.every((p) => Number.isInteger(p) && p > 0);

/** Engine failures the job pipeline knows: unreadable input is the client's; a missing engine is an outage. */
function classify(e: unknown): unknown {
  if (e instanceof OcrSourceError) return new InvalidSourceError(e.message);
  if (e instanceof OcrEngineUnavailable) return new ProviderUnavailableError(e.message);
  return e;
}

/**
 * Runs `work` for every page not in `done`, at most the engine's bound at once (shared by the process); reports
 * progress after each page with the finished pages as the checkpoint. On the first failure the pages in work are
 * stopped (their programs killed) and, once all have settled, the failure is thrown.
 */
async function eachPage(
  engine: OcrEngine,
  input: RunnerInput,
  op: OcrOperation,
  total: number,
  done: Set<number>,
  work: (page: number, signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const abort = new AbortController();
  const report = (detail: string) =>
    input.progress?.({
      fraction: done.size / total,
      detail,
      checkpoint: { ocr: op, pages: [...done].sort((a, b) => a - b) } satisfies OcrCheckpoint,
    });
  if (done.size > 0) report(`resumed: ${done.size} of ${total} pages already done`);
  if (input.checkpointDir) await mkdir(input.checkpointDir, { recursive: true, mode: 0o700 });
  const todo = Array.from({ length: total }, (_, i) => i + 1).filter((p) => !done.has(p));
  const results = await Promise.allSettled(
    todo.map((page) =>
      engine.limit(async () => {
        if (abort.signal.aborted) throw abort.signal.reason;
        try {
          await work(page, abort.signal);
        } catch (e) {
          if (!abort.signal.aborted) abort.abort(e);
          throw e;
        }
        done.add(page);
        report(`page ${page} of ${total} done (${done.size} of ${total})`);
      }),
    ),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw classify(abort.signal.aborted ? abort.signal.reason : failed.reason);
}

/** The pages a previous attempt finished and whose files are still in the checkpoint folder. */
async function resumedPages(
  input: RunnerInput,
  op: OcrOperation,
  total: number,
  fileOf: (page: number) => string[],
): Promise<Set<number>> {
  const done = new Set<number>();
  if (!input.checkpointDir || !isCheckpoint(input.resume, op)) return done;
  for (const page of input.resume.pages) {
    if (page > total) continue;
    for (const f of fileOf(page)) {
      if (await fileExists(f)) {
        done.add(page);
        break;
      }
    }
  }
  return done;
}

const only = (sources: RunnerSource[]): RunnerSource => {
  if (sources.length !== 1) throw new InvalidSourceError('this operation takes exactly one source');
  return sources[0]!;
};

/**
 * A page's text, the mean confidence of its words when OCR read it (null: a text layer, or no word read) and the share
 * of its print that is blurred (page-skew.ts, blurredShare; null: a text layer, or not known).
 */
interface PageRead {
  text: string;
  confidence: number | null;
  blurred: number | null;
}

/** What a page's warning is made of (hardToRead). */
type PageQuality = Pick<PageRead, 'confidence' | 'blurred'>;

/**
 * The mean confidence of the words of a recognition (Tesseract's TSV), to one decimal; a page with print on it
 * (`inked`) where Tesseract read no word at all has 0 (unreadable, not blank); null: no word on a blank page.
 */
function confidenceOf(tsv: string | null, inked: boolean): number | null {
  const words = tsv === null ? null : parseTsvPage(tsv, 1);
  return words && words.segments.length > 0 ? Math.round(words.confidence * 10) / 10 : inked ? 0 : null;
}

/**
 * Tesseract's text of an image (straightened first, page-skew.ts), with its words' mean confidence; a page with print
 * on it where Tesseract reads no word at all has confidence 0 (unreadable, not blank). A page that reads badly
 * (page-retry.ts) is read again as it was given (not straightened, when it was), then in Tesseract's sparse-text mode
 * (the better image so far), and the best read is kept: no extra recognition for a page that reads well.
 */
async function read(
  engine: OcrEngine,
  image: string,
  language: string,
  dpi: number,
  signal?: AbortSignal,
): Promise<PageRead> {
  const straight = await straighten(image, `${image}.straight.png`);
  const turned = (turn: number) => `${image}.turned-${turn}.png`;
  try {
    const attempt = async (path: string, mode: RecogniseMode) => {
      const { text, tsv } = await engine.recognise(path, language, dpi, signal, mode);
      return { read: { text, tsv, path }, score: scoreOfTsv(tsv) };
    };
    // The guard's retries first (page-retry.ts): the page as uploaded, then the sparse mode on the best image so far.
    const best = await bestRead(await attempt(straight.path, 'layout'), straight.inked, [
      async () => (straight.path === image ? null : attempt(image, 'layout')),
      async (sofar) => attempt(sofar.read.path, 'sparse'),
    ]);
    // A page whose orientation is still in doubt is also read turned (page-orientation.ts), each turn as it stands:
    // after the guard, so a page the layout pass reads nothing of upright (phototest blurred by 2 px) is read upright by
    // the sparse mode rather than turned for what Tesseract reads of a turned copy.
    const upright = await uprightRead(best, straight.inked, async (turn) =>
      attempt(await turnedImage(best.read.path, turn, turned(turn)), 'as-is'),
    );
    return {
      text: upright.read.text,
      confidence: confidenceOf(upright.read.tsv, straight.inked),
      blurred: straight.blurred,
    };
  } finally {
    if (straight.path !== image) await rm(straight.path, { force: true });
    for (const f of CANDIDATE_TURNS.map(turned)) await rm(f, { force: true });
  }
}

/**
 * The warnings of a result, so an unreadable scan is not handed back as if it were good (docs/processing.md, "OCR"):
 * each page whose text OCR read with a mean word confidence under HARD_TO_READ_CONFIDENCE (and some letters), else
 * each page of which at least BLURRED_PRINT_SHARE of the print is blurred (page-skew.ts): a crisp title read with
 * high confidence above a body read not at all.
 */
function hardToRead(pages: readonly PageQuality[]): string[] {
  return pages.flatMap(({ confidence: c, blurred: b }, i) =>
    c !== null && c < HARD_TO_READ_CONFIDENCE
      ? [
          `page ${i + 1} is hard to read (text recognition confidence ${Math.round(c)} %); its text is likely wrong or missing`,
        ]
      : b !== null && b >= BLURRED_PRINT_SHARE
        ? [
            `page ${i + 1} is partly blurred (${Math.round(b * 100)} % of its print has no sharp edge); its text is likely incomplete`,
          ]
        : [],
  );
}

/**
 * A page's confidence and blurred share, kept beside its checkpoint in the checkpoint folder (ocr-text, ocr-docx and
 * ocr-pdf), each only when there is one: a page read from its text layer has none, nor has a checkpoint from before
 * they were kept (no warning for that page).
 */
const qualityFiles = (dir: string, page: number) => ({
  confidence: join(dir, `page-${page}.confidence`),
  blurred: join(dir, `page-${page}.blurred`),
});

async function saveQuality(dir: string, page: number, quality: PageQuality): Promise<void> {
  const files = qualityFiles(dir, page);
  if (quality.confidence !== null) await writeWhole(files.confidence, String(quality.confidence));
  if (quality.blurred !== null) await writeWhole(files.blurred, String(quality.blurred));
}

async function savedQuality(dir: string, page: number): Promise<PageQuality> {
  const files = qualityFiles(dir, page);
  return { confidence: await savedFigure(files.confidence), blurred: await savedFigure(files.blurred) };
}

async function savedFigure(file: string): Promise<number | null> {
  if (!(await fileExists(file))) return null;
  const c = Number(await readFile(file, 'utf8'));
  return Number.isFinite(c) ? c : null;
}

/** The text of every page of the source (ocr-text, ocr-docx). */
async function recognisedPages(
  engine: OcrEngine,
  input: RunnerInput,
  op: OcrOperation,
  language: string,
  opts: OcrRunnerOptions,
): Promise<PageRead[]> {
  const source = only(input.sources);
  const dir = input.checkpointDir ?? input.workDir;
  if (!(await isPdf(source.path))) {
    const png = join(input.workDir, 'image.png');
    const dpi = await normaliseImage(source.path, png);
    try {
      // An image under MIN_OCR_DPI is enlarged to UPSCALE_TO_DPI first (page-resolution.ts), as a PDF page is rendered
      // at OCR_DPI and ocr-pdf recognises at it (--oversample).
      const page = await engine.limit(async () => {
        const image = await imageForOcr(png, dpi, join(input.workDir, 'image-ocr.png'));
        return read(engine, image.path, language, image.dpi);
      });
      input.progress?.({ fraction: 1, detail: 'page 1 of 1 done' });
      return [page];
    } catch (e) {
      throw classify(e);
    }
  }
  const sizes = await pdfPageSizes(source.path);
  const fileOf = (page: number) => join(dir, `page-${page}.txt`);
  const done = await resumedPages(input, op, sizes.length, (p) => [fileOf(p)]);
  if (done.size > 0) opts.onResume?.({ operation: op, reused: [...done].sort((a, b) => a - b), total: sizes.length });
  await eachPage(engine, input, op, sizes.length, done, async (page, signal) => {
    let text = await engine.pdfPageText(source.path, page, signal);
    if (text.trim() === '') {
      const dpi = renderDpi(sizes[page - 1]!);
      const png = await engine.rasterise(source.path, page, dpi, join(input.workDir, `page-${page}`), signal);
      const ocr = await read(engine, png, language, dpi, signal);
      text = ocr.text;
      await rm(png, { force: true });
      await saveQuality(dir, page, ocr);
    }
    await writeWhole(fileOf(page), text);
  });
  return Promise.all(
    sizes.map(async (_, i) => ({
      text: await readFile(fileOf(i + 1), 'utf8'),
      ...(await savedQuality(dir, i + 1)),
    })),
  );
}

/** The longest side of the low-resolution render a PDF page's skew is measured on (pixels). */
const SKEW_RENDER_SIDE = 1000;

/** The skew of a PDF page (page-skew.ts) and whether it has print on it, measured on a small greyscale render of it. */
async function pageSkew(
  engine: OcrEngine,
  pdf: string,
  page: number,
  size: { width: number; height: number },
  outBase: string,
  signal: AbortSignal,
): Promise<{ skew: number; inked: boolean; blurred: number }> {
  const dpi = Math.max(
    20,
    Math.min(OCR_DPI, Math.floor((SKEW_RENDER_SIDE * 72) / Math.max(size.width, size.height, 1))),
  );
  const png = await engine.rasterise(pdf, page, dpi, outBase, signal);
  try {
    return await measureSkew(png);
  } finally {
    await rm(png, { force: true });
  }
}

/** The /Rotate of the first page of `pdf`, in degrees (0, 90, 180, 270). */
async function firstPageRotation(pdf: string): Promise<number> {
  const doc = await PDFDocument.load(await readFile(pdf), { updateMetadata: false });
  return (((doc.getPage(0).getRotation().angle % 360) + 360) % 360) as number;
}

/** A page as ocrmypdf is given it: a one-page PDF whose page has /Rotate `rotation`, or an image at `dpi`. */
interface SearchableInput {
  input: string;
  rotation: number;
  dpi?: number;
}

/**
 * A searchable PDF of one page (`page`) into `out`; resolves its confidence (confidenceOf), which read was kept
 * (`asUploaded`: the page as it was given, not straightened) and by how much page-orientation.ts turned it (degrees
 * clockwise; 0: not). When ocrmypdf turned the page (its orientation detection) and the turned page reads below
 * UPRIGHT_CONFIDENCE, the page is also read as it stands and the better read is kept: orientation detection told
 * ocrmypdf to turn a real book page with a large picture, scanned bilevel and straightened, upside down (confidence
 * 8.5, above ROTATE_PAGES_THRESHOLD), and its layer read 2 % of the page's words. A page that still reads badly
 * (page-retry.ts) is made again from the page as uploaded (`asUploaded`, when the page was straightened), then in
 * Tesseract's sparse-text mode, and the best is kept; a page whose orientation is then still in doubt is made again
 * turned by each candidate turn (page-orientation.ts; a PDF page by its /Rotate, an image by its pixels) and a
 * clearly better read kept. The extra recognitions are paid only for pages that read poorly (docs/processing.md, "OCR").
 */
async function searchablePage(
  engine: OcrEngine,
  page: SearchableInput & { inked: boolean },
  out: string,
  language: string,
  signal?: AbortSignal,
  /** The page as it was given, when `page` is straightened (made only if it is needed; the caller removes it). */
  asUploaded?: () => Promise<SearchableInput>,
): Promise<{ confidence: number | null; asUploaded: boolean; turn: number }> {
  interface Made {
    file: string;
    tsv: string | null;
    src: SearchableInput;
    asUploaded: boolean;
    /** Made turned by page-orientation.ts: ocrmypdf is not to turn it again. */
    turned: boolean;
  }
  const make = async (src: SearchableInput, file: string, mode: 'layout' | 'sparse', turned = false): Promise<Made> => {
    const made = { file, src, asUploaded: false, turned };
    if (turned) {
      // A turn page-orientation.ts tries: read as it stands (no orientation detection, no vertical text).
      const opts = { rotate: false, mode: mode === 'layout' ? ('as-is' as const) : mode };
      return { ...made, tsv: (await engine.searchable(src.input, file, language, src.dpi, signal, opts)).tsv };
    }
    const { tsv } = await engine.searchable(src.input, file, language, src.dpi, signal, { mode });
    const first = tsv === null ? null : confidenceOf(tsv, page.inked);
    if (first === null || first >= UPRIGHT_CONFIDENCE) {
      // The bench counts the turns ocrmypdf made (page-retry.ts, pageTrace); no one else pays for reading the page.
      if (pageTrace.hasSubscribers) {
        const rotation = ((await firstPageRotation(file)) - src.rotation + 360) % 360;
        if (rotation !== 0) tracePage(() => ({ kind: 'turn', rotation, kept: true }));
      }
      return { ...made, tsv };
    }
    const rotation = ((await firstPageRotation(file)) - src.rotation + 360) % 360;
    if (rotation === 0) return { ...made, tsv };
    const still = `${file}.as-is.pdf`;
    const again = (await engine.searchable(src.input, still, language, src.dpi, signal, { rotate: false, mode })).tsv;
    const second = confidenceOf(again, page.inked);
    if (second !== null && second > first) {
      tracePage(() => ({ kind: 'turn', rotation, kept: false }));
      await rename(still, file);
      return { ...made, tsv: again };
    }
    tracePage(() => ({ kind: 'turn', rotation, kept: true }));
    await rm(still, { force: true });
    return { ...made, tsv };
  };
  const scored = (made: Made) => ({ read: made, score: scoreOfTsv(made.tsv) });
  const removeMade = (made: Made) => rm(made.file, { force: true });
  const temporary: string[] = [];
  /** `src` turned `turn` degrees clockwise: a PDF page by its /Rotate, an image by its pixels. */
  const turnedInput = async (src: SearchableInput, turn: number, tag: string): Promise<SearchableInput> => {
    const file = `${out}.${tag}-${turn}.${src.dpi ? 'png' : 'pdf'}`;
    temporary.push(file);
    if (src.dpi) return { ...src, input: await turnedImage(src.input, turn, file) };
    await turnedPdfPage(src.input, turn, file);
    return { input: file, rotation: (src.rotation + turn) % 360 };
  };
  try {
    // No TSV at all (ocrmypdf wrote none where it was looked for): the confidence is unknown, so nothing is warned.
    const first = await make(page, out, 'layout');
    if (first.tsv === null) return { confidence: null, asUploaded: false, turn: 0 };
    // The guard's retries first (page-retry.ts), then the turns of a page whose orientation is still in doubt
    // (page-orientation.ts), of the kept read's source, as it stands.
    const best = await bestRead(
      scored(first),
      page.inked,
      [
        async () =>
          asUploaded
            ? scored({ ...(await make(await asUploaded(), `${out}.as-uploaded.pdf`, 'layout')), asUploaded: true })
            : null,
        async (sofar) =>
          scored({
            ...(await make(sofar.read.src, `${out}.sparse.pdf`, 'sparse')),
            asUploaded: sofar.read.asUploaded,
          }),
      ],
      removeMade,
    );
    const upright = await uprightRead(
      best,
      page.inked,
      async (turn) =>
        scored({
          ...(await make(
            await turnedInput(best.read.src, turn, 'turned'),
            `${out}.turned-${turn}.pdf`,
            'layout',
            true,
          )),
          asUploaded: best.read.asUploaded,
        }),
      removeMade,
    );
    if (upright.read.file !== out) await rename(upright.read.file, out);
    return {
      confidence: confidenceOf(upright.read.tsv, page.inked),
      asUploaded: upright.read.asUploaded,
      turn: upright.turn,
    };
  } finally {
    for (const f of temporary) await rm(f, { force: true });
  }
}

/** Scales the one page of `pdf` (content and all) to `size` in points. */
async function fitPage(pdf: string, size: { width: number; height: number }): Promise<void> {
  const doc = await PDFDocument.load(await readFile(pdf), { updateMetadata: false });
  const page = doc.getPage(0);
  const now = page.getSize();
  page.scale(size.width / now.width, size.height / now.height);
  await writeWhole(pdf, await doc.save());
}

/** The plain-text result: each page's text, pages separated by a form feed (U+000C), as pdftotext writes them. */
export function joinPages(pages: readonly string[]): string {
  return pages.map((p) => `${p.replace(/\f/g, '').replace(/\s+$/, '')}\n`).join('\f');
}

/** The searchable PDF of the source and the warnings of its pages (hardToRead). */
async function searchablePdf(
  engine: OcrEngine,
  input: RunnerInput,
  language: string,
  opts: OcrRunnerOptions,
): Promise<{ pdf: Uint8Array; warnings: string[] }> {
  const source = only(input.sources);
  const dir = input.checkpointDir ?? input.workDir;
  const out = join(input.workDir, 'searchable.pdf');
  try {
    if (!(await isPdf(source.path))) {
      const png = join(input.workDir, 'image.png');
      const dpi = await normaliseImage(source.path, png);
      const quality = await engine.limit(async (): Promise<PageQuality> => {
        const straight = await straighten(png, join(input.workDir, 'image-straight.png'));
        const made = await searchablePage(
          engine,
          { input: straight.path, rotation: 0, dpi, inked: straight.inked },
          out,
          language,
          undefined,
          straight.path === png ? undefined : async () => ({ input: png, rotation: 0, dpi }),
        );
        return { confidence: made.confidence, blurred: straight.blurred };
      });
      input.progress?.({ fraction: 1, detail: 'page 1 of 1 done' });
      return { pdf: await readFile(out), warnings: hardToRead([quality]) };
    }
  } catch (e) {
    throw classify(e);
  }
  const sizes = await pdfPageSizes(source.path);
  const ocrFile = (page: number) => join(dir, `page-${page}.pdf`);
  const keptFile = (page: number) => join(dir, `page-${page}.kept`);
  const done = await resumedPages(input, 'ocr-pdf', sizes.length, (p) => [ocrFile(p), keptFile(p)]);
  if (done.size > 0)
    opts.onResume?.({ operation: 'ocr-pdf', reused: [...done].sort((a, b) => a - b), total: sizes.length });
  await eachPage(engine, input, 'ocr-pdf', sizes.length, done, async (page, signal) => {
    if ((await engine.pdfPageText(source.path, page, signal)).trim() !== '') {
      await writeWhole(keptFile(page), '');
      return;
    }
    const part = join(input.workDir, `ocr-${page}.pdf`);
    const size = sizes[page - 1]!;
    const { skew, inked, blurred } = await pageSkew(
      engine,
      source.path,
      page,
      size,
      join(input.workDir, `skew-${page}`),
      signal,
    );
    let confidence: number | null;
    if (Math.abs(skew) >= MIN_DESKEW_DEGREES) {
      // A skewed page is replaced by its straightened image (rendered in colour at the OCR resolution); a straight
      // page keeps its own image untouched (docs/processing.md, "OCR", "Skew").
      const dpi = renderDpi(size);
      const png = await engine.rasterise(source.path, page, dpi, join(input.workDir, `page-${page}`), signal, true);
      const straight = await straightenBy(png, skew, join(input.workDir, `page-${page}-straight.png`));
      // Should the straightened page read badly, the page as uploaded is tried too (page-retry.ts).
      const single = join(input.workDir, `source-${page}.pdf`);
      const made = await searchablePage(
        engine,
        { input: straight, rotation: 0, dpi, inked },
        part,
        language,
        signal,
        async () => {
          await engine.splitPage(source.path, page, single, signal);
          return { input: single, rotation: size.rotation };
        },
      );
      confidence = made.confidence;
      await rm(png, { force: true });
      await rm(straight, { force: true });
      await rm(single, { force: true });
      // The render's whole pixels make the page a fraction of a point larger: it gets the source page's size back (as
      // it is shown, turned by a quarter when page-orientation.ts turned the image by one).
      if (!made.asUploaded)
        await fitPage(
          part,
          (size.rotation + made.turn) % 180 === 90 ? { width: size.height, height: size.width } : size,
        );
    } else {
      const single = join(input.workDir, `source-${page}.pdf`);
      await engine.splitPage(source.path, page, single, signal);
      ({ confidence } = await searchablePage(
        engine,
        { input: single, rotation: size.rotation, inked },
        part,
        language,
        signal,
      ));
      await rm(single, { force: true });
    }
    await saveQuality(dir, page, { confidence, blurred });
    await rename(part, ocrFile(page));
  });
  const pages = await Promise.all(
    sizes.map(async (_, i) => ((await fileExists(keptFile(i + 1))) ? null : ocrFile(i + 1))),
  );
  try {
    await engine.assemble(source.path, pages, out);
  } catch (e) {
    throw classify(e);
  }
  const qualities = await Promise.all(sizes.map((_, i) => savedQuality(dir, i + 1)));
  return { pdf: await readFile(out), warnings: hardToRead(qualities) };
}

export function createOcrRunners(
  engine: OcrEngine,
  opts: OcrRunnerOptions = {},
): Record<OcrOperation, OperationRunner> {
  const languageOf = (o: Record<string, unknown>) =>
    typeof o['language'] === 'string' ? o['language'] : (opts.defaultLanguage ?? 'eng');
  return {
    'ocr-text': async (input) => {
      const pages = await recognisedPages(engine, input, 'ocr-text', languageOf(input.options), opts);
      return [
        {
          data: Buffer.from(joinPages(pages.map((p) => p.text)), 'utf8'),
          format: 'txt',
          warnings: hardToRead(pages),
        },
      ];
    },
    'ocr-docx': async (input) => {
      const pages = await recognisedPages(engine, input, 'ocr-docx', languageOf(input.options), opts);
      const data = await textPagesToDocx(pages.map((p) => p.text));
      return [{ data, format: 'docx', warnings: hardToRead(pages) }];
    },
    'ocr-pdf': async (input) => {
      const { pdf, warnings } = await searchablePdf(engine, input, languageOf(input.options), opts);
      return [{ data: pdf, format: 'pdf', warnings }];
    },
  };
}
