import { describe, expect, it } from 'vitest';
import {
  bestRead,
  isBetter,
  MIN_CONFIDENT_WORDS,
  pageTrace,
  readsBadly,
  RETRY_CONFIDENCE,
  scoreOfTsv,
  scoreOfWords,
  type PageTrace,
  type ReadScore,
} from '../../../adapters/media/ocr/page-retry.js';

/** The guard for pages that read badly (adapters/media/ocr/page-retry.ts); the engines' side: ocr-real-scans.test.ts. */
const good: ReadScore = scoreOfWords(Array.from({ length: 60 }, () => 92));
const nothing: ReadScore = scoreOfWords([]);

describe('readsBadly', () => {
  it('an inked page with no word, too few confident words or a very low confidence reads badly; a blank page never', () => {
    expect(readsBadly(nothing, true)).toBe(true);
    expect(readsBadly(nothing, false)).toBe(false);
    expect(readsBadly(scoreOfWords(Array.from({ length: MIN_CONFIDENT_WORDS - 1 }, () => 95)), true)).toBe(true);
    expect(readsBadly(scoreOfWords(Array.from({ length: 50 }, () => RETRY_CONFIDENCE - 1)), true)).toBe(true);
    expect(readsBadly(good, true)).toBe(false);
  });
});

describe('scoreOfTsv', () => {
  it("counts Tesseract's words and those read with confidence, skipping empty ones", () => {
    const row = (conf: number, text: string) => `5\t1\t1\t1\t1\t1\t10\t10\t20\t10\t${conf}\t${text}`;
    const tsv = [
      'level\tpage_num',
      '1\t1\t0\t0\t0\t0\t0\t0\t100\t100\t-1\t',
      row(95, 'Total'),
      row(30, 'x'),
      row(-1, ' '),
    ];
    expect(scoreOfTsv(tsv.join('\n'))).toEqual({ words: 2, confident: 1, confidence: 62.5 });
    expect(scoreOfTsv(null)).toEqual(nothing);
  });
});

describe('isBetter', () => {
  it('clearly more confident words win; as many, the higher confidence', () => {
    expect(isBetter(good, nothing)).toBe(true);
    expect(isBetter(nothing, good)).toBe(false);
    expect(isBetter(scoreOfWords(Array.from({ length: 70 }, () => 80)), good)).toBe(false); // 70 < 60 × 1.25
    expect(isBetter(scoreOfWords(Array.from({ length: 60 }, () => 95)), good)).toBe(true);
  });
});

describe('bestRead', () => {
  it('a good first read costs no retry', async () => {
    let calls = 0;
    const got = await bestRead({ read: 'first', score: good }, true, [
      async () => {
        calls++;
        return null;
      },
    ]);
    expect({ read: got.read, retried: got.retried, calls }).toEqual({ read: 'first', retried: 0, calls: 0 });
  });

  it('a bad read is retried in turn until one reads well; the reads not kept are discarded', async () => {
    const discarded: string[] = [];
    const seen: string[] = [];
    const got = await bestRead(
      { read: 'straightened', score: nothing },
      true,
      [
        async () => null, // nothing to try (the page was not straightened)
        async (best) => {
          seen.push(best.read);
          return { read: 'sparse', score: good };
        },
        async () => {
          throw new Error('not reached: the page reads well');
        },
      ],
      async (r) => {
        discarded.push(r);
      },
    );
    expect({ read: got.read, retried: got.retried, seen, discarded }).toEqual({
      read: 'sparse',
      retried: 1,
      seen: ['straightened'],
      discarded: ['straightened'],
    });
  });

  it('a retry that reads no better is discarded and the first read kept', async () => {
    const discarded: string[] = [];
    const got = await bestRead(
      { read: 'first', score: scoreOfWords([50, 50]) },
      true,
      [async () => ({ read: 'second', score: nothing })],
      async (r) => {
        discarded.push(r);
      },
    );
    expect({ read: got.read, discarded }).toEqual({ read: 'first', discarded: ['second'] });
  });
});

describe('pageTrace', () => {
  it('tells a subscriber (the OCR bench) each retry and which read was kept; nothing when no one listens', async () => {
    const seen: PageTrace[] = [];
    const on = (m: unknown) => seen.push(m as PageTrace);
    pageTrace.subscribe(on);
    try {
      await bestRead({ read: 'straightened', score: nothing }, true, [
        async () => ({ read: 'as uploaded', score: nothing }),
        async () => ({ read: 'sparse', score: good }),
      ]);
      await bestRead({ read: 'first', score: good }, true, []);
    } finally {
      pageTrace.unsubscribe(on);
    }
    expect(seen).toEqual([
      { kind: 'read', inked: true, first: nothing, retries: [nothing, good], kept: 2, stillBad: false },
      { kind: 'read', inked: true, first: good, retries: [], kept: 0, stillBad: false },
    ]);
    await bestRead({ read: 'unheard', score: nothing }, true, []);
    expect(seen).toHaveLength(2);
  });
});
