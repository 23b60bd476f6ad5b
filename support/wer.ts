/**
 * Word error rate: the word-level Levenshtein distance (substitutions + deletions + insertions) between a reference
 * and a hypothesis, divided by the reference's word count, after normalising both the same way.
 */

/** Lower case, letters/digits/apostrophes only (hyphens and other punctuation split words), single spaces. */
export function normaliseWords(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[’‘`]/g, "'")
    .replace(/[^a-z0-9' ]+/g, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
}

/** Edit distance between two word lists (one row of the dynamic-programming table kept). */
export function wordEditDistance(reference: string[], hypothesis: string[]): number {
  let previous = Array.from({ length: hypothesis.length + 1 }, (_, j) => j);
  for (let i = 1; i <= reference.length; i++) {
    const current = [i];
    for (let j = 1; j <= hypothesis.length; j++) {
      const substitution = previous[j - 1]! + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1);
      current[j] = Math.min(substitution, previous[j]! + 1, current[j - 1]! + 1);
    }
    previous = current;
  }
  return previous[hypothesis.length]!;
}

export interface WerResult {
  errors: number;
  referenceWords: number;
  wer: number;
}

export function wordErrorRate(reference: string, hypothesis: string): WerResult {
  const ref = normaliseWords(reference);
  const errors = wordEditDistance(ref, normaliseWords(hypothesis));
  return { errors, referenceWords: ref.length, wer: ref.length === 0 ? (errors === 0 ? 0 : 1) : errors / ref.length };
}
