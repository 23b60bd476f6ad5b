import { channel } from 'node:diagnostics_channel';
import { parseTsvPage } from '../../extraction/tsv-words.js';
import { HARD_TO_READ_CONFIDENCE } from './ocr-engine.js';

/**
 * The guard against a page that reads (almost) nothing once it was turned and straightened, whatever the cause
 * (docs/processing.md, "OCR", "Pages that read badly"): every OCR path (ocr-text, ocr-docx, ocr-pdf, extraction's OCR)
 * hands its first read of a page here with the other reads it can make of it (the page as uploaded, not straightened;
 * Tesseract's sparse-text mode), and keeps the best. The other reads are made only when the first reads badly
 * (readsBadly), so a page that reads well costs nothing more than counting its words.
 * Found: a page whose skew is mis-measured (a picture of parallel lines out-weighs its text lines in page-skew.ts's
 * profile) is turned that much before it is read, and read 0.000 on every path (bench/README.md, "Issue 30, session 10").
 */

/**
 * What the page guard did with each page, for the OCR bench (bench/ocr-corpus/bench.ts counts it as totals): a
 * `node:diagnostics_channel` channel, so nothing is built or sent when no one subscribes. Messages are PageTrace.
 */
export const pageTrace = channel('paycore.ocr.page');

export type PageTrace =
  /** page-skew.ts measured a page: its skew (degrees), whether it has print, on which axis its lines run. */
  | {
      kind: 'skew';
      skew: number;
      inked: boolean;
      axis: 'rows' | 'columns';
      contrast: number;
      letterSized: boolean;
      /** The share of its print that is blurred (page-skew.ts, blurredShare). */
      blurred: number;
    }
  /**
   * bestRead's outcome: the first read's score, each retry's (null: nothing to try), which read was kept (0: the
   * first; k: the k-th retry) and whether the kept read still reads badly.
   */
  | {
      kind: 'read';
      inked: boolean;
      first: ReadScore;
      retries: Array<ReadScore | null>;
      kept: number;
      stillBad: boolean;
    }
  /** ocr-pdf: ocrmypdf turned a page by its orientation detection (degrees), and whether that turn was kept. */
  | { kind: 'turn'; rotation: number; kept: boolean }
  /** page-orientation.ts: a page whose orientation was in doubt, the turns read (degrees) and the one kept (0: none). */
  | { kind: 'orient'; tried: number[]; turn: number };

/** Publishes `trace` when someone listens (the bench). */
export function tracePage(trace: () => PageTrace): void {
  if (pageTrace.hasSubscribers) pageTrace.publish(trace());
}

/** How well a read went: its words, those read with at least HARD_TO_READ_CONFIDENCE, and their mean confidence. */
export interface ReadScore {
  words: number;
  confident: number;
  /** Mean word confidence, 0–100; 0 when no word was read. */
  confidence: number;
}

/** An inked page read with fewer confident words than this reads badly (a stamp, a caption alone: a retry is cheap). */
export const MIN_CONFIDENT_WORDS = 5;

/** The score of a Tesseract TSV (null: no TSV, nothing known: a read that says nothing). */
export function scoreOfTsv(tsv: string | null): ReadScore {
  if (tsv === null) return { words: 0, confident: 0, confidence: 0 };
  const words = parseTsvPage(tsv, 1).segments.flatMap((s) => s.words);
  return scoreOfWords(words.map((w) => w.confidence ?? 100));
}

/** The score of a read's words given their confidences (0–100). */
export function scoreOfWords(confidences: readonly number[]): ReadScore {
  const words = confidences.length;
  return {
    words,
    confident: confidences.filter((c) => c >= HARD_TO_READ_CONFIDENCE).length,
    confidence: words ? confidences.reduce((a, b) => a + b, 0) / words : 0,
  };
}

/**
 * Below this mean word confidence (0–100) a read is very poor (a retry is made). Chosen under HARD_TO_READ_CONFIDENCE:
 * ocrmypdf's c02-22 (a 150-dpi book page, bilevel, turned 3°) reads 107 confident words at a mean of 58, and its
 * sparse-mode read had more confident words (127) but fewer of the page's (recall 0.46 against 0.54). The pages the
 * guard was made for read no word at all (phototest blurred by 2 px; phototest under a picture of lines, which
 * mis-measures its skew).
 */
export const RETRY_CONFIDENCE = 40;

/**
 * A page with print on it (`inked`) reads badly when it gave fewer than MIN_CONFIDENT_WORDS confident words (at least
 * HARD_TO_READ_CONFIDENCE) or a mean confidence under RETRY_CONFIDENCE. A blank page never does.
 */
export const readsBadly = (score: ReadScore, inked: boolean): boolean =>
  inked && (score.confident < MIN_CONFIDENT_WORDS || score.confidence < RETRY_CONFIDENCE);

/**
 * Whether read `a` is better than `b`: more confident words by more than a quarter (so a read in sparse mode, whose
 * words come in no particular order, replaces a layout read only when it clearly reads more), or as many and a higher
 * mean confidence.
 */
export function isBetter(a: ReadScore, b: ReadScore): boolean {
  if (a.confident > b.confident * 1.25) return true;
  if (a.confident < b.confident) return false;
  return a.confident === b.confident && a.confidence > b.confidence;
}

export interface Scored<T> {
  read: T;
  score: ReadScore;
}

/**
 * The best of a page's reads: `first`, and when it reads badly, each of `retries` in turn (each is given the best read
 * so far and may resolve null: nothing to try), until one no longer reads badly. A read not kept is handed to
 * `discard` (to remove its files). Resolves the kept read and how many retries ran.
 */
export async function bestRead<T>(
  first: Scored<T>,
  inked: boolean,
  retries: ReadonlyArray<(best: Scored<T>) => Promise<Scored<T> | null>>,
  discard: (read: T) => Promise<void> = async () => {},
): Promise<Scored<T> & { retried: number }> {
  let best = first;
  let retried = 0;
  let kept = 0;
  const tried: Array<ReadScore | null> = [];
  for (const retry of retries) {
    if (!readsBadly(best.score, inked)) break;
    const next = await retry(best);
    tried.push(next?.score ?? null);
    if (next === null) continue;
    retried++;
    if (isBetter(next.score, best.score)) {
      await discard(best.read);
      best = next;
      kept = tried.length;
    } else await discard(next.read);
  }
  const score = best.score;
  tracePage(() => ({
    kind: 'read',
    inked,
    first: first.score,
    retries: tried,
    kept,
    stillBad: readsBadly(score, inked),
  }));
  return { ...best, retried };
}
