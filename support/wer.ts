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

/**
 * The words a WER is computed on: `normaliseWords` after the rules of Whisper's English text normaliser (the one its
 * authors score WER with; engines/transcription/README.md, "How WER is scored"), written here from its documented
 * behaviour: text in brackets dropped, hesitations dropped, contractions and spoken forms expanded ("won't" → "will
 * not", "'re" → "are", "gonna" → "going to"), "%" read as "percent", digit groups joined ("2,500" → "2500") and
 * numbers written in words turned into digits ("twenty five" → "25", "one two three" → "1 2 3"), on both sides alike.
 * Not lenient: a different word, a missing word or an extra word still counts; only ways of writing the same spoken
 * words are made equal. Left out: British-American spellings, ordinals, decimals and years said in pairs.
 */
export function scoringWords(text: string): string[] {
  let t = text
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/\[[^\]]*\]|\([^)]*\)/g, ' ')
    .replace(/(\d),(?=\d{3}\b)/g, '$1')
    .replace(/%/g, ' percent ');
  for (const [pattern, replacement] of SPOKEN_FORMS) t = t.replace(pattern, replacement);
  return numbersToDigits(normaliseWords(t).filter((w) => !HESITATIONS.has(w)));
}

/** Hesitations, not scored (Whisper leaves them out; the references of real speech transcribe them). */
export const HESITATIONS: ReadonlySet<string> = new Set([
  'um',
  'uh',
  'hm',
  'hmm',
  'mm',
  'mhm',
  'mmm',
  'er',
  'erm',
  'ah',
  'eh',
]);

const SPOKEN_FORMS: [RegExp, string][] = [
  [/\bwon't\b/g, 'will not'],
  [/\bcan't\b/g, 'can not'],
  [/\blet's\b/g, 'let us'],
  [/\bain't\b/g, 'aint'],
  [/\by'all\b/g, 'you all'],
  [/\bwanna\b/g, 'want to'],
  [/\bgotta\b/g, 'got to'],
  [/\bgonna\b/g, 'going to'],
  [/\bi'ma\b|\bimma\b/g, 'i am going to'],
  [/\bma'am\b/g, 'madam'],
  [/\bmr\b\.?/g, 'mister '],
  [/\bmrs\b\.?/g, 'missus '],
  [/\bdr\b\.?/g, 'doctor '],
  [/n't\b/g, ' not'],
  [/'re\b/g, ' are'],
  [/'s\b/g, ' is'],
  [/'d\b/g, ' would'],
  [/'ll\b/g, ' will'],
  [/'ve\b/g, ' have'],
  [/'m\b/g, ' am'],
];

const UNITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const TEENS = [
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9 };

/**
 * Runs of number words turned into digits. A run is one number as long as it reads as one ("two hundred and five",
 * "twenty one", "three thousand four hundred"); a unit after a unit, a ten after a ten and the like start the next
 * number ("one two three" → "1 2 3"), as a speaker reading digits says them.
 */
export function numbersToDigits(words: readonly string[]): string[] {
  const out: string[] = [];
  let total = 0;
  let current = 0;
  let last: 'none' | 'unit' | 'teen' | 'ten' | 'hundred' | 'scale' = 'none';
  const flush = () => {
    if (last !== 'none') out.push(String(total + current));
    [total, current, last] = [0, 0, 'none'];
  };
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const unit = UNITS.indexOf(w);
    const teen = TEENS.indexOf(w);
    const ten = TENS.indexOf(w);
    if (unit >= 0) {
      if (last === 'unit' || last === 'teen' || (last === 'ten' && current % 10 !== 0)) flush();
      if (unit === 0 && last !== 'none') flush();
      current += unit;
      last = 'unit';
    } else if (teen >= 0) {
      if (last === 'unit' || last === 'teen' || last === 'ten') flush();
      current += 10 + teen;
      last = 'teen';
    } else if (ten >= 2) {
      if (last === 'unit' || last === 'teen' || last === 'ten') flush();
      current += 10 * ten;
      last = 'ten';
    } else if (w === 'hundred' && last !== 'none' && last !== 'hundred' && current > 0 && current < 100) {
      current *= 100;
      last = 'hundred';
    } else if (w in SCALES && last !== 'none' && last !== 'scale' && current > 0) {
      total += current * SCALES[w]!;
      current = 0;
      last = 'scale';
    } else if (w === 'and' && (last === 'hundred' || last === 'scale') && isNumberWord(words[i + 1])) {
      continue;
    } else {
      flush();
      out.push(w);
    }
  }
  flush();
  return out;
}

function isNumberWord(w: string | undefined): boolean {
  return w !== undefined && (UNITS.includes(w) || TEENS.includes(w) || TENS.indexOf(w) >= 2);
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
  const ref = scoringWords(reference);
  const errors = wordEditDistance(ref, scoringWords(hypothesis));
  return { errors, referenceWords: ref.length, wer: ref.length === 0 ? (errors === 0 ? 0 : 1) : errors / ref.length };
}

/** One step of a word alignment: a reference word matched (`C`), substituted (`S`) or deleted (`D`), or a hypothesis
 * word inserted (`I`); `ref`/`hyp` index the lists (−1 where the step has no word there). */
export interface AlignmentStep {
  op: 'C' | 'S' | 'D' | 'I';
  ref: number;
  hyp: number;
}

/** A minimum-edit alignment of two word lists (the full table, fine for the few thousand words of a test file). */
export function alignWords(reference: string[], hypothesis: string[]): AlignmentStep[] {
  const n = reference.length;
  const m = hypothesis.length;
  const d = Array.from({ length: n + 1 }, (_, i) => Int32Array.from({ length: m + 1 }, (_, j) => (i === 0 ? j : 0)));
  for (let i = 1; i <= n; i++) {
    d[i]![0] = i;
    for (let j = 1; j <= m; j++) {
      const same = reference[i - 1] === hypothesis[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j - 1]! + same, d[i - 1]![j]! + 1, d[i]![j - 1]! + 1);
    }
  }
  const steps: AlignmentStep[] = [];
  let [i, j] = [n, m];
  while (i > 0 || j > 0) {
    const same = i > 0 && j > 0 && reference[i - 1] === hypothesis[j - 1];
    if (i > 0 && j > 0 && d[i]![j] === d[i - 1]![j - 1]! + (same ? 0 : 1)) {
      steps.push({ op: same ? 'C' : 'S', ref: --i, hyp: --j });
    } else if (i > 0 && d[i]![j] === d[i - 1]![j]! + 1) {
      steps.push({ op: 'D', ref: --i, hyp: -1 });
    } else {
      steps.push({ op: 'I', ref: -1, hyp: --j });
    }
  }
  return steps.reverse();
}
