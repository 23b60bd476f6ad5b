import { describe, expect, it } from 'vitest';
import {
  MB,
  PRICE_CLASS,
  quoteCredits,
  sourceCredits,
  TEXT_PAGE_SLACK,
  textPageStarts,
  textPages,
  type SourceMeasure,
} from '../../../domain/pricing.js';
import { seededRandom } from '../../../support/random.js';

const doc = (bytes: number, pages: number): SourceMeasure => ({ bytes, pages, durationSeconds: null });
const media = (durationSeconds: number): SourceMeasure => ({ bytes: 1_000, pages: 0, durationSeconds });

describe('file operations: 2 credits per started 25 MB or 10 pages, larger basis per source', () => {
  it.each([
    ['1 byte, 1 page', doc(1, 1), 2],
    ['10 pages', doc(1_000, 10), 2],
    ['11 pages', doc(1_000, 11), 4],
    ['20 pages', doc(1_000, 20), 4],
    ['21 pages', doc(1_000, 21), 6],
    ['100 pages', doc(1_000, 100), 20],
    ['exactly 25 MB', doc(25 * MB, 1), 2],
    ['25 MB + 1 byte', doc(25 * MB + 1, 1), 4],
    ['50 MB', doc(50 * MB, 1), 4],
    ['50 MB + 1 byte, 10 pages (bytes larger)', doc(50 * MB + 1, 10), 6],
    ['26 MB, 31 pages (pages larger)', doc(26 * MB, 31), 8],
    ['encrypted PDF, 0 pages', doc(300_000, 0), 2],
    ['an image counts one page', doc(4 * MB, 1), 2],
  ])('%s -> %i credits', (_l, m, credits) => {
    expect(sourceCredits('file', m)).toBe(credits);
  });

  it('sums per source (pdf-merge of three PDFs)', () => {
    expect(quoteCredits('pdf-merge', [doc(1_000, 10), doc(1_000, 11), doc(30 * MB, 2)])).toBe(2 + 4 + 4);
  });

  it('every file operation is priced as a file operation', () => {
    for (const op of ['pdf-extract', 'pdf-rotate', 'pdf-unlock', 'image-edit', 'image-compress', 'webp'] as const) {
      expect(PRICE_CLASS[op]).toBe('file');
    }
  });
});

describe('per page and per started minute', () => {
  it.each([
    ['ocr-text', doc(1, 1), 3],
    ['ocr-text', doc(1, 7), 21],
    ['ocr-docx', doc(1, 7), 70],
    ['ocr-pdf', doc(1, 1), 10],
    ['flow-extract', doc(1, 1), 25],
    ['flow-extract', doc(1, 4), 100],
  ] as const)('%s %j -> %i', (op, m, credits) => {
    expect(quoteCredits(op, [m])).toBe(credits);
  });

  it.each([
    ['transcribe', 1, 8],
    ['transcribe', 60, 8],
    ['transcribe', 60.001, 16],
    ['transcribe', 3600, 480],
    ['meeting', 59, 15],
    ['meeting', 61, 30],
    ['video-trim', 0.5, 4],
    ['audio-compress', 120, 8],
    ['audio-compress', 121, 12],
  ] as const)('%s of %d s -> %i credits', (op, seconds, credits) => {
    expect(quoteCredits(op, [media(seconds)])).toBe(credits);
  });
});

describe('text sources', () => {
  it.each([
    [1, 1],
    [4_000, 1],
    [4_001, 2],
    [8_000, 2],
    [8_001, 3],
    [0, 1],
  ])('%i bytes count %i pages', (bytes, pages) => {
    expect(textPages(bytes)).toBe(pages);
  });

  it('a text is cut into exactly the pages it counts, at a break near each 4,000-byte mark, never inside a character', () => {
    const random = seededRandom(18);
    const pieces = ['word ', 'Größe ', '日本語 ', '✓', '\n', '\f', 'x'.repeat(700), 'é'.repeat(300)];
    for (let round = 0; round < 200; round++) {
      let text = '';
      const length = Math.floor(random() * 20_000);
      while (Buffer.byteLength(text) < length) text += pieces[Math.floor(random() * pieces.length)];
      const bytes = Buffer.from(text);
      const starts = textPageStarts(bytes);
      expect(starts.length).toBe(textPages(bytes.length));
      expect(starts[0]).toBe(0);
      for (const [k, start] of starts.entries()) {
        if (k === 0) continue;
        expect(start).toBeGreaterThan(starts[k - 1]!);
        expect(start).toBeLessThan(bytes.length);
        expect(start).toBeGreaterThan(k * 4_000 - TEXT_PAGE_SLACK - 3);
        expect(start).toBeLessThanOrEqual(k * 4_000);
        expect(bytes[start]! & 0xc0).not.toBe(0x80); // a character's first byte
      }
      // The pages decode separately to the whole text.
      expect(starts.map((s, k) => bytes.subarray(s, starts[k + 1] ?? bytes.length).toString('utf8')).join('')).toBe(
        text,
      );
    }
  });
});
