import { describe, expect, it } from 'vitest';
import { continuesWord, joinWholeWords, joinWords, mergeWordPieces } from '../../../domain/transcript-words.js';

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

describe("mergeWordPieces with the engine's own word starts (spaced)", () => {
  // faster-whisper writes a space before each new word: " is", " -5" are two words (a minus number), " USB", "-C"
  // one. The offline worker sends whether each word began with a space (spaced); the guess is only for engines that
  // cannot say (spaced absent).
  const at = (word: string, i: number, spaced?: boolean) => ({
    ...piece(word, i, i + 0.5),
    ...(spaced === undefined ? {} : { spaced }),
  });

  it('keeps " is", " -5" two words and joins " USB", "-C" into "USB-C"', () => {
    const words = [at('is', 0, true), at('-5', 1, true), at('USB', 2, true), at('-C', 3, false), at('port', 4, true)];
    const merged = mergeWordPieces(words);
    expect(merged.map((w) => w.word)).toEqual(['is', '-5', 'USB-C', 'port']);
    // The whole word keeps its first piece's start of a word.
    expect(merged[2]).toMatchObject({ start: 2, end: 3.5, spaced: true });
  });

  it('joins a word after "well-" only when the engine wrote no space before it', () => {
    expect(mergeWordPieces([at('well-', 0, true), at('known', 1, false)]).map((w) => w.word)).toEqual(['well-known']);
    expect(mergeWordPieces([at('well-', 0, true), at('known', 1, true)]).map((w) => w.word)).toEqual([
      'well-',
      'known',
    ]);
  });

  it('still needs a hyphen to join: words of a language without spaces stay words', () => {
    expect(mergeWordPieces([at('今日', 0, false), at('は', 1, false)]).map((w) => w.word)).toEqual(['今日', 'は']);
  });

  it('guesses from the hyphen alone when the engine could not say (an answer without spaced)', () => {
    expect(mergeWordPieces([at('is', 0), at('-5', 1), at('USB', 2), at('-C', 3)]).map((w) => w.word)).toEqual([
      'is-5',
      'USB-C',
    ]);
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

  it("follows the engine's word start when it is known", () => {
    expect(continuesWord('is', '-5', true)).toBe(false);
    expect(continuesWord('USB', '-C', false)).toBe(true);
    expect(continuesWord('yes', '-', false)).toBe(false);
  });
});

describe('joinWords', () => {
  it('joins with spaces, none before closing punctuation nor around a hyphen piece', () => {
    expect(joinWords(['The', 'USB', '-C', 'to', 'the', 'twenty', '-five', 'well-', 'known', 'ones', '.'], 'en')).toBe(
      'The USB-C to the twenty-five well-known ones.',
    );
    expect(joinWords(['yes', '-', 'and', 'no,', 'maybe'], 'en')).toBe('yes - and no, maybe');
  });

  it('keeps a minus number apart when the engine wrote a space before it, and joins whole words with spaces', () => {
    const words = [
      { word: 'is', spaced: true },
      { word: '-5', spaced: true },
      { word: 'on', spaced: true },
      { word: 'USB', spaced: true },
      { word: '-C', spaced: false },
      { word: '.', spaced: false },
    ];
    expect(joinWords(words, 'en')).toBe('is -5 on USB-C.');
    // Words already made whole (a renderer's, a meeting document's): no guess, a minus number stays apart.
    expect(joinWholeWords(['it', 'is', '-5', 'today', '.'], 'en')).toBe('it is -5 today.');
    expect(joinWholeWords(['今日', 'は'], 'ja')).toBe('今日は');
  });

  it('joins without spaces in languages written without them', () => {
    expect(joinWords(['今日', 'は', '良い'], 'ja')).toBe('今日は良い');
    expect(joinWords(['今日', 'は'], 'zh-CN')).toBe('今日は');
  });
});
