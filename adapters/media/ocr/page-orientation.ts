import { readFile } from 'node:fs/promises';
import { degrees, PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { writeWhole } from '../../storage/whole-files.js';
import { HARD_TO_READ_CONFIDENCE } from './ocr-engine.js';
import { isBetter, readsBadly, tracePage, type Scored } from './page-retry.js';

/**
 * A page's orientation when Tesseract's own detection is unsure (docs/processing.md, "OCR", "Turned pages"): every OCR
 * path (ocr-text, ocr-docx, ocr-pdf, extraction's OCR) hands its first read of a page here with a way to read the page
 * turned by a quarter turn, half a turn or three quarters, and keeps the read whose recognition is clearly best.
 *
 * Why: Tesseract's orientation detection (`--psm 0`, and the one inside `--psm 1`) judges the shapes of letters; on a
 * page of figures it is unsure and often wrong (Leptonica's table.27 upside down: "turn 0°" at confidence 6.3; at
 * 270°: "turn 270°", 180° off; table.15 upside down: "turn 180°" at 1.7), and `--psm 1` never turns a page upside
 * down on a weak margin (its rule: upside-down Latin text is improbable). Such pages read 0.015–0.080 of their words
 * (bench/README.md, "Issue 30, orientation and PDF forms, session 17"). The recognition itself tells the right turn:
 * upright, those tables read 220–442 words with confidence ≥ 60 at a mean of 66–85; upside down or sideways 41–132
 * at a mean of 28–34.
 *
 * Cost: nothing for a page whose first read is sure (orientationInDoubt); an unsure page costs up to three more
 * recognitions, fewer when a turn is no longer in doubt before the last.
 */

/** The turns tried, in degrees clockwise, in order: half a turn first (the one `--psm 1` never makes on its own). */
export const CANDIDATE_TURNS = [180, 90, 270] as const;

/**
 * Whether the first read of a page leaves its orientation in doubt: an inked page read under the warning floor
 * (HARD_TO_READ_CONFIDENCE) or with too few confident words. Measured: upright pages 89–95, hard upright pages 58–80
 * (c02-22 bilevel turned 3°, table.15, table.27, the corpus' degraded invoice); upside down or sideways 28–41. Not
 * UPRIGHT_CONFIDENCE (75): Tesseract's layout analysis reads a sideways invoice of short lines well enough (45
 * confident words at 84, its words in the wrong order) to replace the upright read of the degraded invoice (under 75).
 */
export const orientationInDoubt = (
  score: Scored<unknown>['score'],
  inked: boolean,
  /** The mean confidence under which it is; extraction's sparse pass, which detects no orientation, UPRIGHT_CONFIDENCE. */
  below: number = HARD_TO_READ_CONFIDENCE,
): boolean => inked && (score.confidence < below || readsBadly(score, inked));

/** `image` turned `turn` degrees clockwise into `out` (its resolution kept). */
export async function turnedImage(image: string, turn: number, out: string): Promise<string> {
  await sharp(image).rotate(turn).withMetadata().png().toFile(out);
  return out;
}

/** The one-page PDF `pdf` with its page turned `turn` degrees clockwise more (its /Rotate) into `out`. */
export async function turnedPdfPage(pdf: string, turn: number, out: string): Promise<void> {
  const doc = await PDFDocument.load(await readFile(pdf), { updateMetadata: false });
  const page = doc.getPage(0);
  page.setRotation(degrees((((page.getRotation().angle + turn) % 360) + 360) % 360));
  await writeWhole(out, await doc.save());
}

/**
 * The read of a page in its best orientation: `first` (the page as the path read it, with whatever turn Tesseract's
 * own detection made), and when its orientation is in doubt, the page read turned by each of CANDIDATE_TURNS
 * (`readTurned`, which must read the turned page as it stands, with no orientation detection of its own) until one
 * reads upright. A turned read is kept only when it does not read badly itself (page-retry.ts, readsBadly) and is
 * clearly better (isBetter: more confident words by a quarter); reads not kept are handed to `discard`. Resolves the kept read and its turn (0: the first).
 */
export async function uprightRead<T>(
  first: Scored<T>,
  inked: boolean,
  readTurned: (turn: number) => Promise<Scored<T>>,
  discard: (read: T) => Promise<void> = async () => {},
  opts: {
    /** The turns in the order to try them (e.g. the one Tesseract's orientation detection names first). */
    turns?: readonly number[];
    /** orientationInDoubt's `below`. */
    below?: number;
  } = {},
): Promise<Scored<T> & { turn: number }> {
  const { turns = CANDIDATE_TURNS, below = HARD_TO_READ_CONFIDENCE } = opts;
  let best = { ...first, turn: 0 };
  if (!orientationInDoubt(first.score, inked, below)) return best;
  const tried: number[] = [];
  for (const turn of turns) {
    const next = await readTurned(turn);
    tried.push(turn);
    // A turned read that itself reads badly says nothing of the page's orientation: Tesseract's phototest blurred by
    // 2 px reads no word in its layout pass, and a few fragments of a turned copy were "better" than none; the guard's
    // sparse retry of the upright page (page-retry.ts) reads it (0.93).
    if (!readsBadly(next.score, inked) && isBetter(next.score, best.score)) {
      await discard(best.read);
      best = { ...next, turn };
    } else await discard(next.read);
    if (!orientationInDoubt(best.score, inked, below)) break;
  }
  tracePage(() => ({ kind: 'orient', tried, turn: best.turn }));
  return best;
}
