import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import pLimit, { type LimitFunction } from 'p-limit';
import { OcrEngineFailed, runTool } from './run-tool.js';

/**
 * The OCR engine as programs from Debian, each a child process with a time limit:
 * - poppler's `pdftotext` (a page's existing text layer) and `pdftoppm` (a page rendered at 300 dpi),
 * - Tesseract 5 (`tesseract`) for text, with its orientation detection (`osd` data) so turned pages are read upright,
 * - `ocrmypdf` for a searchable PDF page (the page as it was, with an invisible text layer), `--skip-text` so a
 *   page that already has text keeps it,
 * - qpdf to cut a page out of a PDF and to assemble the pages again into the source's own document.
 * Paths are always absolute ones this service chose, so none can be read as an option.
 * Every page's work runs under one bound per process (`limit`, OCR_CONCURRENCY), shared by all jobs of a worker.
 * Each Tesseract runs single-threaded (OMP_THREAD_LIMIT=1): the bound is the parallelism.
 */
export interface OcrEngineOptions {
  tesseractPath?: string;
  ocrmypdfPath?: string;
  pdftoppmPath?: string;
  pdftotextPath?: string;
  qpdfPath?: string;
  /** Time limit of one program run on one page (ms). */
  pageTimeoutMs?: number;
  /** Pages in work at once in this process (all jobs together). */
  concurrency?: number;
}

/**
 * Below this mean word confidence (0–100) a page OCR read is said to be hard to read in the result's warnings.
 * Measured: a Factur-X page whose font renders as boxes 51; clean pages 89–95; Tesseract's phototest.tif blurred
 * (Gaussian sigma 2 px at 200 dpi) 20, none of its words right.
 */
export const HARD_TO_READ_CONFIDENCE = 60;

/**
 * Below this mean word confidence (0–100) a read page is checked for being turned the wrong way (extraction's OCR: is
 * it sideways or upside down; ocr-pdf: was it turned by mistake). Measured: upright corpus pages (150-dpi scans
 * rendered at 300 dpi) 89–95; the same page turned 90°, 180°, 270°: 61, 30, 41.
 */
export const UPRIGHT_CONFIDENCE = 75;

/** The resolution pages are rendered at for recognition. */
export const OCR_DPI = 300;
/** Longest side of a rendered page in pixels; larger pages are rendered below 300 dpi (Tesseract's limit is 32,767). */
export const MAX_PAGE_PIXELS = 10_000;

const SINGLE_THREAD = { OMP_THREAD_LIMIT: '1' };
/**
 * ocrmypdf turns a page only when Tesseract's orientation confidence passes this (its default, 14, left real 150-dpi
 * pages turned 90°, 180° and 270° unturned: they score 9 to 11; upright pages are never told to turn).
 */
const ROTATE_PAGES_THRESHOLD = 5;

/** How `recognise` reads a page: Tesseract's page segmentation modes 1 (`layout`), 11 (`sparse`) and 3 (`as-is`). */
export type RecogniseMode = 'layout' | 'sparse' | 'as-is';
const RECOGNISE_PSM: Record<RecogniseMode, string> = { layout: '1', sparse: '11', 'as-is': '3' };

export interface OcrEngine {
  readonly limit: LimitFunction;
  readonly pageTimeoutMs: number;
  /** The text layer of page `page` (1-based) as pdftotext reads it; empty when the page has none. */
  pdfPageText(pdf: string, page: number, signal?: AbortSignal): Promise<string>;
  /** Renders page `page` as a greyscale PNG (`colour`: in colour) at `dpi`; resolves the file's path (`${outBase}.png`). */
  rasterise(
    pdf: string,
    page: number,
    dpi: number,
    outBase: string,
    signal?: AbortSignal,
    colour?: boolean,
  ): Promise<string>;
  /**
   * Tesseract's text of an image, and in the same run its words as TSV (for their confidence); both are read from
   * files beside the image (`${image}.ocr.txt`, `.tsv`), removed afterwards. `layout` (the default): page
   * segmentation mode 1 (orientation detection, then the layout analysis); `sparse`: mode 11 (as much text as it can
   * find wherever it is, in no particular order; a retry for a page the layout analysis reads badly, page-retry.ts);
   * `as-is`: mode 3 with no vertical text (the layout analysis with no orientation detection: the page read as it
   * stands, for a turn page-orientation.ts tries).
   */
  recognise(
    image: string,
    language: string,
    dpi: number,
    signal?: AbortSignal,
    mode?: RecogniseMode,
  ): Promise<{ text: string; tsv: string }>;
  /**
   * The words of page `page` (1-based) of a PDF's text layer with their boxes, as pdftotext's TSV (`-tsv`: points
   * from the page's top-left; the page's own row gives its size). A page without text has only its page row.
   */
  pdfPageTsv(pdf: string, page: number, signal?: AbortSignal): Promise<string>;
  /**
   * Tesseract's words of an image with their boxes (its `tsv` output: pixels of the image from its top-left).
   * `layout` (page segmentation mode 3, the default) analyses the page's blocks and columns; `sparse` (mode 11) finds
   * as much text as it can wherever it is, in no particular order: it keeps lone short words such as a table's
   * single-digit quantities, which the layout analysis drops, and misses some words the layout pass reads.
   */
  recogniseTsv(
    image: string,
    language: string,
    dpi: number,
    signal?: AbortSignal,
    mode?: 'layout' | 'sparse',
  ): Promise<string>;
  /**
   * Tesseract's orientation and script detection (page segmentation mode 0, the `osd` data): by how many degrees
   * clockwise the image must be turned to stand upright (0, 90, 180, 270), and its confidence.
   */
  orientation(image: string, signal?: AbortSignal): Promise<{ rotate: number; confidence: number }>;
  /** Copies page `page` of `pdf` into a one-page PDF. */
  splitPage(pdf: string, page: number, out: string, signal?: AbortSignal): Promise<void>;
  /**
   * A searchable PDF of a one-page PDF, or of an image at `imageDpi`; resolves the words of its recognition as
   * Tesseract's TSV (for their confidence; written by the same run; null when none was found: confidence unknown).
   * `rotate: false` keeps the page as it stands (no orientation detection); `mode: 'sparse'` recognises in
   * Tesseract's sparse-text mode (page segmentation mode 11) instead of its layout analysis; `mode: 'as-is'` reads no
   * block as vertical text (as recognise's `as-is`; with `rotate: false`, the page as it stands).
   */
  searchable(
    input: string,
    out: string,
    language: string,
    imageDpi?: number,
    signal?: AbortSignal,
    opts?: { rotate?: boolean; mode?: RecogniseMode },
  ): Promise<{ tsv: string | null }>;
  /** `source` with its pages replaced where `pages[i]` names a one-page PDF (null keeps the source's page). */
  assemble(source: string, pages: ReadonlyArray<string | null>, out: string): Promise<void>;
  /** The languages Tesseract has data for (`tesseract --list-langs`). */
  languages(): Promise<string[]>;
}

/** ocrmypdf's exit codes (its documented ExitCode) that mean the input, not the engine, is at fault. */
const OCRMYPDF_INPUT_FAULTS = new Set([2, 8]);

/** The source cannot be OCRed (a damaged or encrypted PDF); the message is safe to show. */
export class OcrSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OcrSourceError';
  }
}

export function createOcrEngine(opts: OcrEngineOptions = {}): OcrEngine {
  const tesseract = opts.tesseractPath ?? 'tesseract';
  const ocrmypdf = opts.ocrmypdfPath ?? 'ocrmypdf';
  const pdftoppm = opts.pdftoppmPath ?? 'pdftoppm';
  const pdftotext = opts.pdftotextPath ?? 'pdftotext';
  const qpdf = opts.qpdfPath ?? 'qpdf';
  const timeoutMs = opts.pageTimeoutMs ?? 180_000;
  const limit = pLimit(Math.max(1, opts.concurrency ?? 2));
  const run = (program: string, args: string[], signal?: AbortSignal, env?: Record<string, string>) =>
    runTool(program, args, { timeoutMs, ...(signal ? { signal } : {}), ...(env ? { env } : {}) });
  const onPdf = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (e) {
      if (e instanceof OcrEngineFailed && (e.program === pdftoppm || e.program === pdftotext))
        throw new OcrSourceError(`the PDF could not be read (${what})`);
      throw e;
    }
  };
  const qpdfRun = async (args: string[], signal?: AbortSignal) => {
    try {
      await run(qpdf, args, signal);
    } catch (e) {
      if (e instanceof OcrEngineFailed && e.exitCode === 3) return; // succeeded with warnings
      if (e instanceof OcrEngineFailed) throw new OcrSourceError('the PDF could not be read (qpdf)');
      throw e;
    }
  };

  return {
    limit,
    pageTimeoutMs: timeoutMs,
    pdfPageText: (pdf, page, signal) =>
      onPdf('text layer', async () =>
        (
          await run(pdftotext, ['-q', '-enc', 'UTF-8', '-f', String(page), '-l', String(page), pdf, '-'], signal)
        ).toString('utf8'),
      ),
    async rasterise(pdf, page, dpi, outBase, signal, colour = false) {
      await onPdf('rendering', () =>
        run(
          pdftoppm,
          [
            '-q',
            '-r',
            String(dpi),
            '-f',
            String(page),
            '-l',
            String(page),
            ...(colour ? [] : ['-gray']),
            '-png',
            '-singlefile',
            pdf,
            outBase,
          ],
          signal,
        ),
      );
      return `${outBase}.png`;
    },
    async recognise(image, language, dpi, signal, mode = 'layout') {
      // Page segmentation mode 1: mode 3's layout analysis after orientation detection, so a page scanned upside down
      // or sideways is read upright (a 180° page read 0 % of its words in mode 3).
      const base = `${image}.ocr`;
      try {
        await run(
          tesseract,
          [
            image,
            base,
            '-l',
            language,
            '--dpi',
            String(dpi),
            '--psm',
            RECOGNISE_PSM[mode],
            // As it stands: no block of it read as vertical text either (mode 3 reads a sideways table of figures that
            // way, 401 confident words at a mean of 79 against 442 at 85 upright; with this, 80 at 34).
            ...(mode === 'as-is' ? ['-c', 'textord_tabfind_vertical_text=0'] : []),
            'txt',
            'tsv',
          ],
          signal,
          SINGLE_THREAD,
        );
        return { text: await readFile(`${base}.txt`, 'utf8'), tsv: await readFile(`${base}.tsv`, 'utf8') };
      } finally {
        await rm(`${base}.txt`, { force: true });
        await rm(`${base}.tsv`, { force: true });
      }
    },
    pdfPageTsv: (pdf, page, signal) =>
      onPdf('text layer', async () =>
        (
          await run(
            pdftotext,
            ['-q', '-tsv', '-enc', 'UTF-8', '-f', String(page), '-l', String(page), pdf, '-'],
            signal,
          )
        ).toString('utf8'),
      ),
    async recogniseTsv(image, language, dpi, signal, mode = 'layout') {
      const out = await run(
        tesseract,
        [image, 'stdout', '-l', language, '--dpi', String(dpi), '--psm', mode === 'sparse' ? '11' : '3', 'tsv'],
        signal,
        SINGLE_THREAD,
      );
      return out.toString('utf8');
    },
    async orientation(image, signal) {
      let out: string;
      try {
        out = (await run(tesseract, [image, 'stdout', '--psm', '0'], signal, SINGLE_THREAD)).toString('utf8');
      } catch (e) {
        // Too little text to tell ("Too few characters"): upright as far as anyone can say.
        if (e instanceof OcrEngineFailed && !signal?.aborted) return { rotate: 0, confidence: 0 };
        throw e;
      }
      const rotate = Number(/^Rotate:\s*(\d+)/m.exec(out)?.[1] ?? 0);
      const confidence = Number(/^Orientation confidence:\s*([\d.]+)/m.exec(out)?.[1] ?? 0);
      return { rotate: [90, 180, 270].includes(rotate) ? rotate : 0, confidence };
    },
    splitPage: (pdf, page, out, signal) => qpdfRun([pdf, '--pages', '.', String(page), '--', out], signal),
    async searchable(input, out, language, imageDpi, signal, { rotate = true, mode = 'layout' } = {}) {
      // `as-is`: no vertical text either, as recognise's (a Tesseract config file of ours, in the work folder).
      // --rotate-pages: each page turned upright by Tesseract's orientation detection before it is read (its /Rotate set).
      // --oversample: a page image below OCR_DPI is recognised at OCR_DPI, as ocr-text renders it (the page keeps its own image).
      // --tesseract-config tsv: the recognition that writes the text layer also writes its words as TSV (Tesseract's
      // own `tsv` config), kept in ocrmypdf's work folder (--keep-temporary-files, made inside a folder of ours
      // through TMPDIR) and read from there: the page's confidence without a second recognition.
      const args = [
        '--skip-text',
        ...(rotate ? ['--rotate-pages', '--rotate-pages-threshold', String(ROTATE_PAGES_THRESHOLD)] : []),
        '--oversample',
        String(OCR_DPI),
        '--output-type',
        'pdf',
        '--pdf-renderer',
        'sandwich',
        '--optimize',
        '0',
        '--jobs',
        '1',
        '--quiet',
        '-l',
        language,
        '--tesseract-timeout',
        String(Math.ceil(timeoutMs / 1000)),
        ...(mode === 'sparse' ? ['--tesseract-pagesegmode', '11'] : []),
        '--tesseract-config',
        'tsv',
        '--keep-temporary-files',
      ];
      if (imageDpi) args.push('--image-dpi', String(imageDpi));
      const temp = await mkdtemp(join(dirname(out), 'ocrmypdf-work-'));
      try {
        if (mode === 'as-is') {
          const config = join(temp, 'as-is.config');
          await writeFile(config, 'textord_tabfind_vertical_text 0\n');
          args.push('--tesseract-config', config);
        }
        await run(ocrmypdf, [...args, '--', input, out], signal, { ...SINGLE_THREAD, TMPDIR: temp });
        for (const work of await readdir(temp, { withFileTypes: true })) {
          if (!work.isDirectory()) continue; // the as-is config
          const tsv = (await readdir(join(temp, work.name))).find((f) => f.endsWith('_ocr_tess.tsv'));
          if (tsv) return { tsv: await readFile(join(temp, work.name, tsv), 'utf8') };
        }
        return { tsv: null };
      } catch (e) {
        if (e instanceof OcrEngineFailed && e.exitCode !== null && OCRMYPDF_INPUT_FAULTS.has(e.exitCode))
          throw new OcrSourceError('the page could not be read (ocrmypdf)');
        throw e;
      } finally {
        await rm(temp, { recursive: true, force: true });
      }
    },
    async assemble(source, pages, out) {
      // qpdf keeps the primary input's document (metadata, outline, page labels) and takes each page from the list.
      const spec = pages.flatMap((file, i) => (file === null ? ['.', String(i + 1)] : [file, '1']));
      await qpdfRun([source, '--pages', ...spec, '--', out]);
    },
    async languages() {
      const out = (await runTool(tesseract, ['--list-langs'], { timeoutMs: 30_000 })).toString('utf8');
      return out
        .split('\n')
        .slice(1)
        .map((l) => l.trim())
        .filter((l) => l !== '');
    },
  };
}
