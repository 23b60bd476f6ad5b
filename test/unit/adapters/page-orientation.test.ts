import { describe, expect, it } from 'vitest';
import { HARD_TO_READ_CONFIDENCE } from '../../../adapters/media/ocr/ocr-engine.js';
import { CANDIDATE_TURNS, orientationInDoubt, uprightRead } from '../../../adapters/media/ocr/page-orientation.js';
import { scoreOfWords, type ReadScore } from '../../../adapters/media/ocr/page-retry.js';

/** The orientation check for pages Tesseract is unsure of (page-orientation.ts); the engines' side: ocr-real-scans.test.ts. */
const reading = (confident: number, confidence: number, words = 500): ReadScore => ({ words, confident, confidence });
// Leptonica's table.27 as measured (confident words, mean): upright 442 at 85; upside down 51 at 30; sideways 80 at 34.
const upright = reading(442, 85);
const upsideDown = reading(51, 30);
const sideways = reading(80, 34);

describe('orientationInDoubt', () => {
  it('an inked page read under HARD_TO_READ_CONFIDENCE or with too few confident words; never a blank page', () => {
    expect(orientationInDoubt(upright, true)).toBe(false);
    expect(orientationInDoubt(reading(300, HARD_TO_READ_CONFIDENCE - 1), true)).toBe(true);
    expect(orientationInDoubt(reading(300, 66), true)).toBe(false);
    expect(orientationInDoubt(scoreOfWords([95, 95]), true)).toBe(true);
    expect(orientationInDoubt(upsideDown, false)).toBe(false);
  });
});

describe('uprightRead', () => {
  it('a sure first read is kept with no other read made', async () => {
    const tried: number[] = [];
    const got = await uprightRead({ read: 'first', score: upright }, true, async (turn) => {
      tried.push(turn);
      return { read: `turned ${turn}`, score: upright };
    });
    expect([got.read, got.turn, tried]).toEqual(['first', 0, []]);
  });

  it('a page read upside down: the half turn reads upright and the other turns are not read', async () => {
    const tried: number[] = [];
    const discarded: string[] = [];
    const got = await uprightRead(
      { read: 'first', score: upsideDown },
      true,
      async (turn) => {
        tried.push(turn);
        return { read: `turned ${turn}`, score: turn === 180 ? upright : sideways };
      },
      async (r) => void discarded.push(r),
    );
    expect([got.read, got.turn, tried, discarded]).toEqual(['turned 180', 180, [180], ['first']]);
  });

  it('a page whose detection turned it the wrong way sideways: each turn is read until one reads upright', async () => {
    const tried: number[] = [];
    const got = await uprightRead({ read: 'first', score: upsideDown }, true, async (turn) => {
      tried.push(turn);
      return { read: `turned ${turn}`, score: turn === 90 ? upright : turn === 180 ? sideways : upsideDown };
    });
    expect([got.read, got.turn, tried]).toEqual(['turned 90', 90, [180, 90]]);
  });

  it('a hard page no turn reads clearly better stays as it was read, after every turn was tried', async () => {
    const hard = reading(300, 55);
    const got = await uprightRead({ read: 'first', score: hard }, true, async (turn) => ({
      read: `turned ${turn}`,
      score: turn === 270 ? reading(330, 56) : upsideDown,
    }));
    expect([got.read, got.turn]).toEqual(['first', 0]);
    expect(CANDIDATE_TURNS).toEqual([180, 90, 270]);
  });

  it('a page that reads no word is not turned for a few fragments read turned (the bad-read guard reads it upright)', async () => {
    const got = await uprightRead({ read: 'first', score: scoreOfWords([]) }, true, async (turn) => ({
      read: `turned ${turn}`,
      score: scoreOfWords([70, 65, 20, 15]),
    }));
    expect([got.read, got.turn]).toEqual(['first', 0]);
  });
});
