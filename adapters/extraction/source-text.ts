import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { EXTRACTION_LIMITS, type Box, type PageText, type PositionedText } from '../../domain/extraction.js';
import { isUtf8Text } from '../media/measure.js';
import {
  HARD_TO_READ_CONFIDENCE,
  OcrSourceError,
  UPRIGHT_CONFIDENCE,
  type OcrEngine,
} from '../media/ocr/ocr-engine.js';
import { CANDIDATE_TURNS, orientationInDoubt, turnedImage, uprightRead } from '../media/ocr/page-orientation.js';
import { DETECTABLE_LANGUAGES, pageLanguage } from '../media/ocr/page-language.js';
import { imageForOcr } from '../media/ocr/page-resolution.js';
import { bestRead, scoreOfWords, type Scored } from '../media/ocr/page-retry.js';
import { BLURRED_PRINT_SHARE, straighten } from '../media/ocr/page-skew.js';
import { isPdf, normaliseImage, pdfPageSizes, renderDpi } from '../media/ocr/ocr-pages.js';
import { OcrEngineFailed, OcrEngineTimeout, OcrEngineUnavailable } from '../media/ocr/run-tool.js';
import { InvalidSourceError, ProviderUnavailableError } from '../providers/provider-errors.js';
import { einvoiceOfPdf, einvoiceOfText, type SourceEInvoice } from './einvoice/einvoice-source.js';
import { XmlRefused } from './einvoice/xml-tree.js';
import { layoutText, orderLines } from './reading-order.js';
import { capText, plainTextPages } from './text-pages.js';
import { parseTsvPage } from './tsv-words.js';

/**
 * Every source of `flow-extract` as positioned text (domain/extraction.ts; docs/processing.md, "Source text"):
 * - a PDF page with a text layer: pdftotext's words and boxes (poppler, `-tsv`), `source: 'text_layer'`;
 * - a PDF page with no text layer, or almost none (fewer than MIN_TEXT_LAYER_CHARS letters and digits, e.g. a scan
 *   with a stamped page number), and an image: rendered at 300 dpi (images: their own resolution) and read by
 *   Tesseract with word boxes, converted to points, `source: 'ocr'`;
 * - UTF-8 text: the pages it is charged for (one per started 4,000 bytes, text-pages.ts), `source: 'plain_text'`, zero boxes.
 * A PDF's embedded e-invoice XML, or a text source that is one, is attached as `einvoice` (einvoice/einvoice-source.ts);
 * an uploaded e-invoice XML that is refused (a DOCTYPE, too large, not well-formed) is an InvalidSourceError.
 * Lines are put in reading order by reading-order.ts. The text is capped at EXTRACTION_LIMITS.maxTextChars (see
 * text-pages.ts). A page OCR cannot finish (its time limit, an engine failure on it) becomes an empty page and a
 * warning; a damaged or encrypted PDF, or a file that is none of these, is an InvalidSourceError; a missing engine a
 * ProviderUnavailableError.
 */
export interface SourceTextOptions {
  /** The OCR engine (adapters/media/ocr/ocr-engine.ts): its programs, its per-run time limit and its page bound. */
  engine: OcrEngine;
  /** A folder of this call's own for rendered pages (removed page by page). */
  workDir: string;
  /**
   * The Tesseract language(s) of the first OCR pass and of a page whose language is not recognised, e.g. `eng` or
   * `eng+deu`; default `eng` (the worker passes the first of OCR_LANGUAGES).
   */
  language?: string;
  /**
   * The languages a page's language is chosen from (page-language.ts); default the installed ones (`tesseract
   * --list-langs`) that it has words for. An empty list: every page is read in `language`.
   */
  languages?: readonly string[];
  /** Stops the reading (the engines' programs are killed); the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Time limit of all the work on one page (rendering and OCR); default the engine's per-run limit. */
  pageTimeoutMs?: number;
}

/** A PDF page whose text layer has fewer letters and digits than this is read by OCR instead. */
export const MIN_TEXT_LAYER_CHARS = 12;

const letters = (s: string) => (s.match(/[\p{L}\p{N}]/gu) ?? []).length;

/** The page's work ran past its time limit. */
class PageTimeout extends Error {}

/** Runs `work` with a signal that fires on the caller's abort or after `ms`; a time-out rejects with PageTimeout. */
async function withPageLimit<T>(
  ms: number,
  outer: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const ctl = new AbortController();
  const onAbort = () => ctl.abort(outer?.reason);
  outer?.addEventListener('abort', onAbort, { once: true });
  if (outer?.aborted) onAbort();
  const timer = setTimeout(() => ctl.abort(new PageTimeout()), ms);
  try {
    return await work(ctl.signal);
  } catch (e) {
    if (ctl.signal.aborted && !outer?.aborted) throw new PageTimeout();
    throw e;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
  }
}

/** Engine failures: unreadable input is the client's, a missing engine an outage; anything else as it is. */
function classify(e: unknown): unknown {
  if (e instanceof OcrSourceError) return new InvalidSourceError(e.message);
  if (e instanceof OcrEngineUnavailable) return new ProviderUnavailableError(e.message);
  return e;
}

/** A warning about one page. */
interface PageNote {
  page: number;
  text: string;
}

const unreadPage = (page: number, e: unknown) =>
  `page ${page} could not be read (${e instanceof PageTimeout || e instanceof OcrEngineTimeout ? 'text recognition took too long' : 'text recognition failed'}); it is read as empty`;

/** Failures that cost one page, not the document. */
const pageFailure = (e: unknown) =>
  e instanceof PageTimeout ||
  e instanceof OcrEngineTimeout ||
  (e instanceof OcrEngineFailed && !/pdfto/.test(e.program));

function pageOf(page: number, tsv: string, scale: number, source: PageText['source']): PageText {
  const parsed = parseTsvPage(tsv, scale);
  return { page, ...layoutText(orderLines(parsed.segments)), source, width: parsed.width, height: parsed.height };
}

const overlap = (a: Box, b: Box) =>
  Math.min(a.x1, b.x1) > Math.max(a.x0, b.x0) && Math.min(a.y1, b.y1) > Math.max(a.y0, b.y0);

/** A page read by OCR, and by how many degrees clockwise its image was turned to stand upright (its boxes are the upright page's). */
interface OcrRead {
  page: PageText;
  turned: number;
  /** The layout pass's mean word confidence, 0–100 (0: the page has print on it and no word was read). */
  confidence: number;
  /** Whether the page has print on it (page-skew.ts). */
  inked: boolean;
  /** The share of its print that is blurred (page-skew.ts, blurredShare; 0 until ocrPage measured it). */
  blurred: number;
}

/**
 * A page OCR read with little confidence (and read some letters of, or that has print on it and read none) is named in
 * the notes: its values are likely wrong or missing; so is a page of which much of the print is blurred (page-skew.ts,
 * BLURRED_PRINT_SHARE), whose crisp part may read with high confidence.
 */
function noteIfHardToRead(notes: PageNote[], read: OcrRead): void {
  if (read.confidence < HARD_TO_READ_CONFIDENCE && (letters(read.page.text) > 0 || read.inked)) {
    notes.push({
      page: read.page.page,
      text: `page ${read.page.page} is hard to read (text recognition confidence ${Math.round(read.confidence)} %); check the values taken from it`,
    });
  } else if (read.blurred >= BLURRED_PRINT_SHARE) {
    // A crisp title read with high confidence above a body blurred past reading (page-skew.ts, BLURRED_PRINT_SHARE).
    notes.push({
      page: read.page.page,
      text: `page ${read.page.page} is partly blurred (${Math.round(read.blurred * 100)} % of its print has no sharp edge); check the values taken from it`,
    });
  }
}

/** A page's size as it stands once OCR turned it upright (width and height swap for a quarter turn). */
const uprightSize = (size: { width: number; height: number }, turned: number) =>
  turned % 180 === 90 ? { width: size.height, height: size.width } : { width: size.width, height: size.height };

/** The installed languages of each engine, asked once. */
const installed = new WeakMap<OcrEngine, Promise<string[]>>();

/** The languages a page's language is chosen from: the caller's, else the installed ones with a lexicon. */
async function candidateLanguages(opts: SourceTextOptions): Promise<readonly string[]> {
  if (opts.languages) return opts.languages;
  let list = installed.get(opts.engine);
  if (!list) {
    list = opts.engine.languages().catch(() => []);
    installed.set(opts.engine, list);
  }
  return (await list).filter((l) => DETECTABLE_LANGUAGES.includes(l));
}

/**
 * A page image read by Tesseract twice: a sparse pass (mode 11) in the caller's language, whose words tell the page's
 * language (page-language.ts), then its layout analysis (mode 3) in that language for the words in their blocks; the
 * sparse pass's words are added where they overlap none of the layout pass's: what the layout analysis drops, above
 * all a table's column of single-digit quantities. Both passes' words are ordered together (reading-order.ts).
 * Measured on the extraction corpus (docs/processing.md, "Measured corpus"): the same fields as mode 3 alone, line
 * items right 8 and 10 of 15 instead of 5 and 5 (scanned PDF, PNG), at about twice the OCR time of a page; the
 * language chosen from the first pass costs no third pass.
 * The page is straightened first (page-skew.ts); when the straightened page reads badly (page-retry.ts), the page is
 * read again as it was given and the better read kept (the sparse pass, the guard's other retry, is in every read).
 */
async function ocrPage(
  opts: SourceTextOptions,
  source: string,
  dpi: number,
  page: number,
  signal: AbortSignal,
): Promise<OcrRead> {
  const straightFile = `${source}.straight.png`;
  try {
    // A skewed scan is straightened first; its boxes are those of the straightened page, same size.
    const straight = await straighten(source, straightFile);
    const first = await readImage(opts, straight.path, dpi, page, signal, straight.inked);
    const best = await bestRead(first, straight.inked, [
      async () => (straight.path === source ? null : readImage(opts, source, dpi, page, signal, straight.inked)),
    ]);
    return { ...best.read, blurred: straight.blurred };
  } finally {
    await rm(straightFile, { force: true });
  }
}

/** One read of a page image (ocrPage), scored (page-retry.ts). */
async function readImage(
  opts: SourceTextOptions,
  source: string,
  dpi: number,
  page: number,
  signal: AbortSignal,
  inked: boolean,
): Promise<Scored<OcrRead>> {
  const first = opts.language ?? 'eng';
  const sparsePass = async (image: string) =>
    parseTsvPage(await opts.engine.recogniseTsv(image, first, dpi, signal, 'sparse'), 72 / dpi);
  const turnedFile = (turn: number) => `${source}.upright-${turn}.png`;
  try {
    const sparseRead = async (image: string) => {
      const sparse = await sparsePass(image);
      return {
        read: { image, sparse },
        score: scoreOfWords(sparse.segments.flatMap((s) => s.words.map((w) => w.confidence ?? 100))),
      };
    };
    const asGiven = await sparseRead(source);
    // Sideways or upside down? When the sparse pass leaves it in doubt, the page is read turned (page-orientation.ts),
    // Tesseract's orientation detection's turn first; a turn is kept only if it reads clearly better (a hard-to-read
    // upright page stays as it is).
    const hint = orientationInDoubt(asGiven.score, inked, UPRIGHT_CONFIDENCE)
      ? (await opts.engine.orientation(source, signal)).rotate
      : 0;
    const oriented = await uprightRead(
      asGiven,
      inked,
      async (turn) => sparseRead(await turnedImage(source, turn, turnedFile(turn))),
      async () => {},
      {
        turns: hint ? [hint, ...CANDIDATE_TURNS.filter((t) => t !== hint)] : CANDIDATE_TURNS,
        below: UPRIGHT_CONFIDENCE,
      },
    );
    const { image, sparse } = oriented.read;
    const turned = oriented.turn;
    const detected = pageLanguage(
      sparse.segments.flatMap((s) => s.words.map((w) => w.text)),
      await candidateLanguages(opts),
      first,
    );
    const layout = parseTsvPage(await opts.engine.recogniseTsv(image, detected, dpi, signal, 'layout'), 72 / dpi);
    const read = layout.segments.flatMap((s) => s.words);
    const missed = sparse.segments.flatMap((s) => s.words).filter((w) => !read.some((r) => overlap(r.box, w.box)));
    const segments = [...layout.segments, ...missed.map((w) => ({ words: [w], box: w.box }))];
    // Scored by the layout pass: on a page turned by a mis-measured skew, the layout analysis found no text while the
    // sparse pass read 49 fragments of words with a mean confidence of 80 (phototest under a picture of lines).
    const score = scoreOfWords(read.map((w) => w.confidence ?? 100));
    const kept = scoreOfWords([...read, ...missed].map((w) => w.confidence ?? 100));
    return {
      read: {
        page: { page, ...layoutText(orderLines(segments)), source: 'ocr', width: layout.width, height: layout.height },
        turned,
        // The layout pass's; when it read no word, that of the sparse words kept (0 for an inked page with none).
        confidence: read.length > 0 ? layout.confidence : missed.length > 0 ? kept.confidence : inked ? 0 : 100,
        inked,
        blurred: 0,
      },
      score,
    };
  } finally {
    for (const turn of CANDIDATE_TURNS) await rm(turnedFile(turn), { force: true });
  }
}

async function pdfText(
  path: string,
  opts: SourceTextOptions,
  notes: PageNote[],
  maxChars: number,
): Promise<PageText[]> {
  const sizes = await pdfPageSizes(path);
  const { engine } = opts;
  const limitMs = opts.pageTimeoutMs ?? engine.pageTimeoutMs;
  const read = async (page: number, signal: AbortSignal): Promise<PageText> => {
    const read = pageOf(page, await engine.pdfPageTsv(path, page, signal), 1, 'text_layer');
    // pdftotext gives the words as the page is shown (its /Rotate applied) but the page's size before the rotation.
    const layer = sizes[page - 1]!.rotation % 180 === 90 ? { ...read, width: read.height, height: read.width } : read;
    if (letters(layer.text) >= MIN_TEXT_LAYER_CHARS) return layer;
    const dpi = renderDpi(sizes[page - 1]!);
    const png = await engine.rasterise(path, page, dpi, join(opts.workDir, `extract-page-${page}`), signal);
    try {
      const read = await ocrPage(opts, png, dpi, page, signal);
      // The page size as the PDF gives it (the render's pixels are rounded), turned as the OCR turned the page upright.
      const shown = uprightSize(layer, read.turned);
      const scanned = { ...read.page, width: shown.width || read.page.width, height: shown.height || read.page.height };
      if (letters(scanned.text) < letters(layer.text)) return layer;
      noteIfHardToRead(notes, read);
      return scanned;
    } finally {
      await rm(png, { force: true });
    }
  };
  /** Characters of each page read so far (for the cap). */
  const lengths: Array<number | undefined> = sizes.map(() => undefined);
  const all = new AbortController();
  const onAbort = () => all.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  if (opts.signal?.aborted) onAbort();
  try {
    const results = await Promise.allSettled(
      sizes.map((size, i) =>
        engine.limit(async (): Promise<PageText> => {
          const page = i + 1;
          if (all.signal.aborted) throw all.signal.reason;
          // The earlier pages hold more than the cap already: the cap cuts before this page, so it is not read.
          const before = lengths.slice(0, i);
          if (before.every((l) => l !== undefined) && before.reduce((a: number, b) => a + b!, 0) > maxChars) {
            return { page, text: '', words: [], source: 'text_layer', width: 0, height: 0 };
          }
          try {
            const result = await withPageLimit(limitMs, all.signal, (signal) => read(page, signal));
            lengths[i] = result.text.length;
            return result;
          } catch (e) {
            if (!all.signal.aborted && pageFailure(e)) {
              lengths[i] = 0;
              notes.push({ page, text: unreadPage(page, e) });
              const turned = size.rotation % 180 === 90;
              return {
                page,
                text: '',
                words: [],
                source: 'ocr',
                width: turned ? size.height : size.width,
                height: turned ? size.width : size.height,
              };
            }
            if (!all.signal.aborted) all.abort(e);
            throw e;
          }
        }),
      ),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw classify(all.signal.aborted ? all.signal.reason : failed.reason);
    return results.map((r) => (r as PromiseFulfilledResult<PageText>).value);
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

async function imageText(path: string, opts: SourceTextOptions, notes: PageNote[]): Promise<PageText[]> {
  const png = join(opts.workDir, 'extract-image.png');
  const dpi = await normaliseImage(path, png, { pageSized: true });
  const enlarged = join(opts.workDir, 'extract-image-ocr.png');
  try {
    const { width, height } = await sharp(png).metadata();
    const size = {
      width: Math.round(((width ?? 0) * 72 * 100) / dpi) / 100,
      height: Math.round(((height ?? 0) * 72 * 100) / dpi) / 100,
    };
    try {
      const page = await opts.engine.limit(() =>
        withPageLimit(opts.pageTimeoutMs ?? opts.engine.pageTimeoutMs, opts.signal, async (signal) => {
          // A low-resolution image is enlarged first (page-resolution.ts); its boxes are still points of the page.
          const image = await imageForOcr(png, dpi, enlarged);
          return ocrPage(opts, image.path, image.dpi, 1, signal);
        }),
      );
      noteIfHardToRead(notes, page);
      return [{ ...page.page, ...uprightSize(size, page.turned) }];
    } catch (e) {
      if (opts.signal?.aborted || !pageFailure(e)) throw classify(e);
      notes.push({ page: 1, text: unreadPage(1, e) });
      return [{ page: 1, text: '', words: [], source: 'ocr', ...size }];
    }
  } finally {
    await rm(png, { force: true });
    await rm(enlarged, { force: true });
  }
}

/** The image formats uploads accept (adapters/media/measure.ts); SVG and the like are read as text. */
const IMAGE_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'tiff', 'heif']);

async function isImage(path: string): Promise<boolean> {
  try {
    const meta = await sharp(path, { limitInputPixels: false }).metadata();
    return IMAGE_FORMATS.has(meta.format ?? '') && !!meta.width && !!meta.height;
  } catch {
    return false;
  }
}

/**
 * Reads a source file (PDF, image or UTF-8 text, told apart by content) as positioned text, capped at
 * EXTRACTION_LIMITS.maxTextChars.
 */
export async function readSourceText(path: string, opts: SourceTextOptions): Promise<PositionedText> {
  opts.signal?.throwIfAborted();
  const notes: PageNote[] = [];
  let pages: PageText[];
  let einvoice: SourceEInvoice | null = null;
  const einvoiceNotes: string[] = [];
  if (await isPdf(path)) {
    pages = await pdfText(path, opts, notes, EXTRACTION_LIMITS.maxTextChars);
    const embedded = await einvoiceOfPdf(path);
    einvoice = embedded.einvoice;
    einvoiceNotes.push(...embedded.warnings);
  } else if (await isImage(path)) pages = await imageText(path, opts, notes);
  else {
    const bytes = await readFile(path);
    if (!isUtf8Text(bytes)) throw new InvalidSourceError('the file is not a PDF, an image or UTF-8 text');
    try {
      einvoice = einvoiceOfText(bytes);
    } catch (e) {
      if (e instanceof XmlRefused) throw new InvalidSourceError(`the e-invoice XML cannot be read: ${e.message}`);
      throw e;
    }
    pages = plainTextPages(bytes, EXTRACTION_LIMITS.maxTextChars);
  }
  opts.signal?.throwIfAborted();
  const capped = capText(pages, EXTRACTION_LIMITS.maxTextChars);
  // Notes of pages the cap left out are dropped with them.
  const kept = capped.pages.at(-1)?.page ?? 0;
  const pageNotes = notes
    .filter((n) => n.page <= kept)
    .sort((a, b) => a.page - b.page)
    .map((n) => n.text);
  return {
    pages: capped.pages,
    truncated: capped.truncated,
    warnings: [...pageNotes, ...capped.warnings, ...einvoiceNotes],
    ...(einvoice ? { einvoice: einvoice.xml } : {}),
  };
}
