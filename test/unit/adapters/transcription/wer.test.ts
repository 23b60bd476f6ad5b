import { describe, expect, it } from 'vitest';
import { normaliseWords, wordErrorRate } from '../../../../support/wer.js';

describe('word error rate', () => {
  it('normalises case, punctuation and hyphens the same way on both sides', () => {
    expect(normaliseWords("The fox's well-known jump, “quickly”!")).toEqual([
      'the',
      "fox's",
      'well',
      'known',
      'jump',
      'quickly',
    ]);
    expect(wordErrorRate('Hello, world.', 'hello world').wer).toBe(0);
  });

  it('counts substitutions, deletions and insertions over the reference length', () => {
    expect(wordErrorRate('a b c d', 'a x c d')).toEqual({ errors: 1, referenceWords: 4, wer: 0.25 });
    expect(wordErrorRate('a b c d', 'a c d')).toEqual({ errors: 1, referenceWords: 4, wer: 0.25 });
    expect(wordErrorRate('a b c d', 'a b c d e f')).toEqual({ errors: 2, referenceWords: 4, wer: 0.5 });
    expect(wordErrorRate('a b', '').wer).toBe(1);
    expect(wordErrorRate('', '').wer).toBe(0);
  });
});
