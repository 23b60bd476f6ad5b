import { describe, expect, it } from 'vitest';
import { continuesWord, joinWords, mergeWordPieces } from '../../../domain/transcript-words.js';

/** Words as the offline engine gives them: faster-whisper's word pieces with their leading space stripped. */
const piece = (word: string, start: number, end: number, confidence = 0.9) => ({ word, start, end, confidence });

describe('mergeWordPieces', () => {
  it('makes "USB-C to the" whole from faster-whisper\'s pieces " USB", "-C", " to", " the"', () => {
    // Measured on test/fixtures/speech-real/real-2sp-radio-seam (chunk 0, portable kernels): the segment text is
    // " The Logitech Headphone USB-C to the", its words [" The", " Logitech", " Headphone", " USB", "-C", " to", " the"].
    const words = [
      piece('The', 6.25, 6.61),
      piece('Logitech', 6.67, 7.21),
      piece('Headphone', 7.21, 7.85),
      piece('USB', 7.85, 9.03, 0.8),
      piece('-C', 9.03, 9.2, 0.6),
      piece('to', 9.2, 9.3),
      piece('the', 9.3, 9.45),
    ];
    expect(mergeWordPieces(words)).toEqual([
      piece('The', 6.25, 6.61),
      piece('Logitech', 6.67, 7.21),
      piece('Headphone', 7.21, 7.85),
      piece('USB-C', 7.85, 9.2, 0.6),
      piece('to', 9.2, 9.3),
      piece('the', 9.3, 9.45),
    ]);
  });

  it('joins every part of "state-of-the-art" and "twenty-five", and a line-end "well-" with "known"', () => {
    const text = ['a', 'state', '-of', '-the', '-art', 'plan', 'for', 'twenty', '-five', 'well-', 'known', 'users'];
    const merged = mergeWordPieces(text.map((w, i) => piece(w, i, i + 0.5)));
    expect(merged.map((w) => w.word)).toEqual([
      'a',
      'state-of-the-art',
      'plan',
      'for',
      'twenty-five',
      'well-known',
      'users',
    ]);
    expect(merged[1]).toMatchObject({ start: 1, end: 4.5 });
  });

  it('keeps a dash standing alone, a leading hyphen after nothing, and pieces the caller says are not one word', () => {
    expect(
      mergeWordPieces(['yes', '-', 'and', '–', 'no'].map((w, i) => piece(w, i, i + 1))).map((w) => w.word),
    ).toEqual(['yes', '-', 'and', '–', 'no']);
    expect(mergeWordPieces([piece('-C', 0, 1), piece('to', 1, 2)]).map((w) => w.word)).toEqual(['-C', 'to']);
    const labelled = [
      { ...piece('USB', 0, 1), speaker: 'SPEAKER_1' },
      { ...piece('-C', 1, 2), speaker: 'SPEAKER_2' },
    ];
    expect(mergeWordPieces(labelled, (a, b) => a.speaker === b.speaker).map((w) => w.word)).toEqual(['USB', '-C']);
  });

  it("leaves the input alone and keeps the first piece's other fields", () => {
    const words = [
      { ...piece('USB', 0, 1), speaker: 'SPEAKER_1' },
      { ...piece('-C', 1, 2), speaker: 'SPEAKER_1' },
    ];
    const copy = structuredClone(words);
    expect(mergeWordPieces(words)).toEqual([{ ...piece('USB-C', 0, 2), speaker: 'SPEAKER_1' }]);
    expect(words).toEqual(copy);
  });
});

describe('continuesWord', () => {
  it('knows a hyphen piece from a dash and from closing punctuation', () => {
    expect(continuesWord('USB', '-C')).toBe(true);
    expect(continuesWord('twenty', '\u2011five')).toBe(true);
    expect(continuesWord('well-', 'known')).toBe(true);
    expect(continuesWord('yes', '-')).toBe(false);
    expect(continuesWord('yes', '—and')).toBe(false);
    expect(continuesWord('well-', '.')).toBe(false);
  });
});

describe('joinWords', () => {
  it('joins with spaces, none before closing punctuation nor around a hyphen piece', () => {
    expect(joinWords(['The', 'USB', '-C', 'to', 'the', 'twenty', '-five', 'well-', 'known', 'ones', '.'], 'en')).toBe(
      'The USB-C to the twenty-five well-known ones.',
    );
    expect(joinWords(['yes', '-', 'and', 'no,', 'maybe'], 'en')).toBe('yes - and no, maybe');
  });

  it('joins without spaces in languages written without them', () => {
    expect(joinWords(['今日', 'は', '良い'], 'ja')).toBe('今日は良い');
    expect(joinWords(['今日', 'は'], 'zh-CN')).toBe('今日は');
  });
});
