import { describe, expect, it } from 'vitest';
import { alignWords, normaliseWords, numbersToDigits, scoringWords, wordErrorRate } from '../../../../support/wer.js';

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

  // Whisper's English normaliser rules (the standard WER scoring of Whisper's own papers and tools): the same spoken
  // words written two ways are one word, a different word is still an error.
  it('scores numbers, contractions, spoken forms, brackets and hesitations as standard WER tools do', () => {
    expect(wordErrorRate('Testing one two three four five', 'Testing 1, 2, 3, 4, 5.').wer).toBe(0);
    expect(wordErrorRate('encoded at about two thousand five hundred bits', 'encoded at about 2,500 bits').wer).toBe(0);
    expect(wordErrorRate('twenty five percent of two hundred and five', '25% of 205').wer).toBe(0);
    expect(wordErrorRate("I'm gonna say we won't, um, go [laughter]", 'I am going to say we will not go').wer).toBe(0);
    expect(wordErrorRate("they're here and it's done", 'they are here and it is done').wer).toBe(0);
    // not lenient: other words, missing and extra words count
    expect(wordErrorRate('one of the best', 'won of the best').errors).toBe(1);
    expect(wordErrorRate('twenty five', '20 5').errors).toBe(2);
    expect(wordErrorRate('Fire fox', 'Firefox').errors).toBe(2);
    expect(wordErrorRate('we will go', "we'll not go").errors).toBe(1);
  });

  it('reads runs of number words as a speaker says them', () => {
    expect(numbersToDigits('one two three'.split(' '))).toEqual(['1', '2', '3']);
    expect(numbersToDigits('three thousand four hundred and twelve people'.split(' '))).toEqual(['3412', 'people']);
    expect(numbersToDigits('twenty one and twenty two'.split(' '))).toEqual(['21', 'and', '22']);
    expect(numbersToDigits('zero zero seven'.split(' '))).toEqual(['0', '0', '7']);
    expect(scoringWords('Mr. Smith said hmm (inaudible) fine')).toEqual(['mister', 'smith', 'said', 'fine']);
  });

  it('aligns words: matches, substitutions, deletions and insertions', () => {
    expect(alignWords(['a', 'b', 'c'], ['a', 'x', 'c', 'd']).map((s) => s.op)).toEqual(['C', 'S', 'C', 'I']);
    expect(alignWords(['a', 'b', 'c'], ['a', 'c'])).toEqual([
      { op: 'C', ref: 0, hyp: 0 },
      { op: 'D', ref: 1, hyp: -1 },
      { op: 'C', ref: 2, hyp: 1 },
    ]);
  });
});
