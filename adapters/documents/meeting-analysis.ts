import { joinWholeWords } from '../../domain/transcript-words.js';
import { PARAGRAPH_PAUSE_SECONDS, type TranscriptJson } from './transcript-formats.js';

/**
 * Pure analysis of a speaker-labelled transcript for the meeting document (meeting-document.ts): speakers with talk
 * time, turns (the timeline), sentences, an extractive summary and decision / action-item candidates found by cue
 * phrases, and an index that finds a quote in the transcript. Everything works on the normalised TranscriptJson
 * (transcriptToJsonValue: times monotonic, non-overlapping, inside [0, duration]) and is deterministic: ties are
 * broken by time. Text is never rewritten: every sentence and quote is the transcript's own words joined as the
 * transcript joins them (joinWholeWords: its words are whole). The rules are documented in docs/processing.md, "Meeting".
 */

/** A span of the transcript quoted verbatim; times in seconds (millisecond precision). */
export interface MeetingQuote {
  text: string;
  start: number;
  end: number;
  speaker: string | null;
}

/** A word (or, for a transcript without words, a segment): times in whole milliseconds. */
export interface MeetingUnit {
  startMs: number;
  endMs: number;
  text: string;
  speaker: string | null;
  /** 1 for a word; the number of space-separated words of a segment. */
  words: number;
}

export interface SpeakerStats {
  speaker: string | null;
  /** Milliseconds of speech: the speaker's words plus the pauses shorter than SPEECH_GAP_MS between them. */
  talkTimeMs: number;
  /** talkTimeMs over everyone's talk time, in [0, 1] (0 when nobody spoke). */
  share: number;
  words: number;
  turns: number;
  firstStartMs: number;
}

export interface MeetingTurn {
  startMs: number;
  endMs: number;
  speaker: string | null;
  text: string;
  /** The first TURN_EXCERPT_WORDS words, followed by ` …` when the turn is longer. */
  excerpt: string;
  words: number;
}

export interface MeetingSentence {
  startMs: number;
  endMs: number;
  speaker: string | null;
  text: string;
  words: number;
}

export interface CueCandidate {
  sentence: MeetingSentence;
  /** The cue phrases found in it (DECISION_CUES / ACTION_CUES, as they occur in the sentence, case-folded). */
  cues: string[];
}

/** Pauses shorter than this between one speaker's consecutive words count as talk time. */
export const SPEECH_GAP_MS = 1000;
/** A turn (timeline entry, transcript paragraph) ends when the speaker changes or after a pause this long. */
export const TURN_PAUSE_MS = PARAGRAPH_PAUSE_SECONDS * 1000;
/** A sentence ends at . ! ? … (and their CJK forms), a speaker change, a TURN_PAUSE_MS pause, or after this many words. */
export const MAX_SENTENCE_WORDS = 60;
/** Sentences shorter than this (in words) are never key sentences nor cue candidates. */
export const MIN_SENTENCE_WORDS = 4;
/** Two key sentences whose TF-IDF cosine similarity is above this are redundant: the lower-scored one is skipped. */
export const REDUNDANCY_THRESHOLD = 0.5;
/** Decision and action-item candidates listed at most (the earliest ones). */
export const MAX_CUE_CANDIDATES = 20;
/** A quote must hold at least this many tokens to be looked up (a one-word quote matches anywhere). */
export const MIN_QUOTE_TOKENS = 2;
/** Words of a turn in its excerpt (the timeline). */
export const TURN_EXCERPT_WORDS = 12;

const SENTENCE_END = /[.!?…。！？]["'”’»)\]]*$/u;

const ms = (seconds: number): number => Math.round(seconds * 1000);
export const toSeconds = (milliseconds: number): number => milliseconds / 1000;

/** The units of a transcript: its words, or its segments when it has no words. */
export function meetingUnits(t: TranscriptJson): MeetingUnit[] {
  if (t.words.length > 0)
    return t.words.map((w) => ({ startMs: ms(w.start), endMs: ms(w.end), text: w.word, speaker: w.speaker, words: 1 }));
  return t.segments.map((s) => ({
    startMs: ms(s.start),
    endMs: ms(s.end),
    text: s.text,
    speaker: s.speaker,
    words: s.text.split(' ').length,
  }));
}

/** Turns: runs of one speaker's words, split at a speaker change or a pause of TURN_PAUSE_MS or more. */
export function meetingTurns(units: readonly MeetingUnit[], language: string): MeetingTurn[] {
  const groups: MeetingUnit[][] = [];
  for (const unit of units) {
    const group = groups.at(-1);
    const last = group?.at(-1);
    if (group && last && last.speaker === unit.speaker && unit.startMs - last.endMs < TURN_PAUSE_MS) group.push(unit);
    else groups.push([unit]);
  }
  return groups.map((g) => ({
    startMs: g[0]!.startMs,
    endMs: g.at(-1)!.endMs,
    speaker: g[0]!.speaker,
    text: joinWholeWords(
      g.map((u) => u.text),
      language,
    ),
    excerpt:
      g.length > TURN_EXCERPT_WORDS
        ? `${joinWholeWords(
            g.slice(0, TURN_EXCERPT_WORDS).map((u) => u.text),
            language,
          )} …`
        : joinWholeWords(
            g.map((u) => u.text),
            language,
          ),
    words: g.reduce((sum, u) => sum + u.words, 0),
  }));
}

/** Speakers in order of first appearance with their talk time, share of speech, words and turns. */
export function speakerStats(units: readonly MeetingUnit[], turns: readonly MeetingTurn[]): SpeakerStats[] {
  const bySpeaker = new Map<string | null, SpeakerStats>();
  units.forEach((unit, i) => {
    let stats = bySpeaker.get(unit.speaker);
    if (!stats) {
      stats = { speaker: unit.speaker, talkTimeMs: 0, share: 0, words: 0, turns: 0, firstStartMs: unit.startMs };
      bySpeaker.set(unit.speaker, stats);
    }
    stats.words += unit.words;
    stats.talkTimeMs += unit.endMs - unit.startMs;
    const next = units[i + 1];
    if (next && next.speaker === unit.speaker && next.startMs - unit.endMs < SPEECH_GAP_MS)
      stats.talkTimeMs += Math.max(0, next.startMs - unit.endMs);
  });
  for (const turn of turns) bySpeaker.get(turn.speaker)!.turns += 1;
  const all = [...bySpeaker.values()];
  const total = all.reduce((sum, s) => sum + s.talkTimeMs, 0);
  for (const s of all) s.share = total > 0 ? Math.round((s.talkTimeMs / total) * 10_000) / 10_000 : 0;
  return all;
}

/** Sentences: split after sentence-final punctuation, at a speaker change, a TURN_PAUSE_MS pause, or MAX_SENTENCE_WORDS. */
export function meetingSentences(units: readonly MeetingUnit[], language: string): MeetingSentence[] {
  const groups: MeetingUnit[][] = [];
  let current: MeetingUnit[] = [];
  for (const unit of units) {
    const last = current.at(-1);
    if (
      last &&
      (last.speaker !== unit.speaker ||
        unit.startMs - last.endMs >= TURN_PAUSE_MS ||
        SENTENCE_END.test(last.text) ||
        current.reduce((sum, u) => sum + u.words, 0) >= MAX_SENTENCE_WORDS)
    ) {
      groups.push(current);
      current = [];
    }
    current.push(unit);
  }
  if (current.length > 0) groups.push(current);
  return groups.map((g) => ({
    startMs: g[0]!.startMs,
    endMs: g.at(-1)!.endMs,
    speaker: g[0]!.speaker,
    text: joinWholeWords(
      g.map((u) => u.text),
      language,
    ),
    words: g.reduce((sum, u) => sum + u.words, 0),
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Extractive summary

/** English function words left out of the sentence vectors (TF-IDF already damps frequent words in any language). */
const STOP_WORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between both but by can could did do does doing don't " +
    'down during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just let me more most ' +
    'my myself no nor not now of off on once only or other our ours ourselves out over own same she should so some such than that the their theirs them ' +
    'themselves then there these they this those through to too under until up very was we were what when where which while who whom why will with would ' +
    "you your yours yourself yourselves i'm it's that's we're you're they're i've we've i'll we'll you'll ok okay yeah yes uh um uhm hmm oh right well like"
  ).split(' '),
);

/** Word tokens of a sentence for its vector: Intl.Segmenter words (ICU, so CJK and Thai too), case-folded, minus STOP_WORDS. */
function contentTokens(text: string, segmenter: Intl.Segmenter): string[] {
  const out: string[] = [];
  for (const s of segmenter.segment(text.normalize('NFKC').toLowerCase().replace(/[‘’]/g, "'"))) {
    if (s.isWordLike && !STOP_WORDS.has(s.segment)) out.push(s.segment);
  }
  return out;
}

function segmenterFor(language: string): Intl.Segmenter {
  try {
    return new Intl.Segmenter(language === 'und' ? undefined : language, { granularity: 'word' });
  } catch {
    return new Intl.Segmenter(undefined, { granularity: 'word' });
  }
}

type Vector = Map<string, number>;

function dot(a: Vector, b: Vector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let sum = 0;
  for (const [term, weight] of small) sum += weight * (large.get(term) ?? 0);
  return sum;
}

/** How many key sentences: about one in ten, at least 3 (or all there are), at most 12. */
export function keySentenceCount(sentences: number): number {
  return Math.min(sentences, Math.max(3, Math.min(12, Math.ceil(sentences / 10))));
}

/**
 * The key sentences, in time order. Each sentence is a TF-IDF vector over its content tokens (tf = 1 + ln count,
 * idf = ln((1 + N) / (1 + df)) + 1, L2-normalised); its score is its centrality, the mean cosine similarity to every
 * other sentence (computed exactly as its dot product with the sum of all vectors, minus itself). Candidates are the
 * sentences of MIN_SENTENCE_WORDS words or more with two content tokens or more (all sentences with a content token
 * when none qualifies); they are taken by descending score (earlier first on ties), skipping any whose cosine
 * similarity to one already taken exceeds REDUNDANCY_THRESHOLD, until keySentenceCount(N) are taken.
 */
export function keySentences(sentences: readonly MeetingSentence[], language: string): MeetingSentence[] {
  const segmenter = segmenterFor(language);
  const tokens = sentences.map((s) => contentTokens(s.text, segmenter));
  const df = new Map<string, number>();
  for (const list of tokens) for (const term of new Set(list)) df.set(term, (df.get(term) ?? 0) + 1);
  const n = sentences.length;
  const vectors = tokens.map((list) => {
    const counts = new Map<string, number>();
    for (const term of list) counts.set(term, (counts.get(term) ?? 0) + 1);
    const v: Vector = new Map();
    let norm = 0;
    for (const [term, count] of counts) {
      const w = (1 + Math.log(count)) * (Math.log((1 + n) / (1 + df.get(term)!)) + 1);
      v.set(term, w);
      norm += w * w;
    }
    norm = Math.sqrt(norm);
    for (const [term, w] of v) v.set(term, w / norm);
    return v;
  });
  const sum: Vector = new Map();
  for (const v of vectors) for (const [term, w] of v) sum.set(term, (sum.get(term) ?? 0) + w);
  const score = vectors.map((v) => (v.size === 0 || n < 2 ? 0 : (dot(v, sum) - 1) / (n - 1)));
  let candidates = sentences
    .map((_, i) => i)
    .filter((i) => sentences[i]!.words >= MIN_SENTENCE_WORDS && vectors[i]!.size >= 2);
  if (candidates.length === 0) candidates = sentences.map((_, i) => i).filter((i) => vectors[i]!.size > 0);
  candidates.sort((a, b) => score[b]! - score[a]! || sentences[a]!.startMs - sentences[b]!.startMs || a - b);
  const wanted = keySentenceCount(candidates.length);
  const chosen: number[] = [];
  for (const i of candidates) {
    if (chosen.length >= wanted) break;
    if (chosen.some((j) => dot(vectors[i]!, vectors[j]!) > REDUNDANCY_THRESHOLD)) continue;
    chosen.push(i);
  }
  return chosen.sort((a, b) => a - b).map((i) => sentences[i]!);
}

// ---------------------------------------------------------------------------------------------------------------
// Cue phrases (English)

const WEEKDAY = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)';

/** Phrases that mark a decision, matched on whole words, case-insensitively. */
export const DECISION_CUES: readonly string[] = [
  'we decided',
  "we've decided",
  'we have decided',
  'it was decided',
  'decided to',
  'decided that',
  'the decision is',
  'final decision',
  'we agreed',
  "we've agreed",
  'we have agreed',
  'agreed to',
  'agreed that',
  'we all agree',
  "let's go with",
  "we'll go with",
  'we will go with',
  "we're going with",
  'we are going with',
  'settled on',
  'is approved',
  'are approved',
  'we approve',
  'consensus',
];

/** Phrases that mark an action item (a commitment, a request, a deadline), matched as DECISION_CUES are. */
export const ACTION_CUES: readonly string[] = [
  'action item',
  'to do',
  'to-do',
  'todo',
  'follow up',
  'follow-up',
  'i will',
  "i'll",
  'we will',
  "we'll",
  'will you',
  'can you',
  'could you',
  'please',
  'need to',
  'needs to',
  'have to',
  'has to',
  'make sure',
  'take care of',
  'responsible for',
  'in charge of',
  'deadline',
  'due',
  `by ${WEEKDAY}`,
  'by tomorrow',
  'by tonight',
  'by next week',
  'by the end of the (?:day|week|month)',
  'by end of (?:day|week|month)',
  'next week',
];

const cueRegex = (phrase: string): RegExp => new RegExp(`(?<![\\p{L}\\p{N}'])${phrase}(?![\\p{L}\\p{N}])`, 'u');
const DECISION_RES = DECISION_CUES.map((c) => [c, cueRegex(c)] as const);
const ACTION_RES = ACTION_CUES.map((c) => [c, cueRegex(c)] as const);

/** The cue phrases in a sentence as they occur there (case-folded), in the order of the cue list, without repeats. */
function cueMatches(text: string, cues: readonly (readonly [string, RegExp])[]): string[] {
  const folded = text.toLowerCase().replace(/[‘’]/g, "'");
  const found = cues.map(([, re]) => re.exec(folded)?.[0]).filter((m): m is string => m !== undefined);
  return [...new Set(found)];
}

/** Sentences of MIN_SENTENCE_WORDS words or more holding a cue, in time order (all of them; the caller caps). */
export function cueCandidates(sentences: readonly MeetingSentence[], kind: 'decision' | 'action'): CueCandidate[] {
  const cues = kind === 'decision' ? DECISION_RES : ACTION_RES;
  return sentences
    .filter((s) => s.words >= MIN_SENTENCE_WORDS)
    .map((sentence) => ({ sentence, cues: cueMatches(sentence.text, cues) }))
    .filter((c) => c.cues.length > 0);
}

// ---------------------------------------------------------------------------------------------------------------
// Quotes

const NO_SPACE_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}]/u;

/**
 * Tokens for matching a quote: NFKC, case-folded, curly apostrophes made straight, punctuation and whitespace dropped
 * (letters, marks and digits kept, with inner apostrophes); characters of scripts written without spaces are one
 * token each, so a quote matches however the engine cut those words.
 */
export function quoteTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[‘’]/g, "'")
    .matchAll(/[\p{L}\p{M}\p{N}]+(?:'[\p{L}\p{M}\p{N}]+)*/gu)) {
    if (NO_SPACE_SCRIPT.test(m[0])) out.push(...Array.from(m[0]));
    else out.push(m[0]);
  }
  return out;
}

/** Finds quotes in a transcript. */
export interface QuoteIndex {
  /**
   * The first place the quote occurs in the transcript (quoteTokens of both compared, so case, whitespace and
   * punctuation do not matter but every word does, in order), returned as the transcript's own words with their
   * time span and the speaker of the first word; null when it does not occur or is shorter than MIN_QUOTE_TOKENS.
   */
  find(quote: string): MeetingQuote | null;
  /** Whether the text occurs in the transcript as find() compares (one token is enough). */
  occurs(text: string): boolean;
}

export function quoteIndex(units: readonly MeetingUnit[], language: string): QuoteIndex {
  const tokens: string[] = [];
  const owner: number[] = [];
  units.forEach((unit, i) => {
    for (const token of quoteTokens(unit.text)) {
      tokens.push(token);
      owner.push(i);
    }
  });
  const positions = new Map<string, number[]>();
  tokens.forEach((token, i) => {
    const list = positions.get(token);
    if (list) list.push(i);
    else positions.set(token, [i]);
  });
  /** The first token position where q occurs, or -1. */
  const locate = (q: readonly string[]): number => {
    for (const p of positions.get(q[0]!) ?? []) {
      if (p + q.length > tokens.length) break;
      if (q.every((token, k) => tokens[p + k] === token)) return p;
    }
    return -1;
  };
  return {
    occurs(text) {
      const q = quoteTokens(text);
      return q.length > 0 && locate(q) >= 0;
    },
    find(quote) {
      const q = quoteTokens(quote);
      if (q.length < MIN_QUOTE_TOKENS) return null;
      const p = locate(q);
      if (p >= 0) {
        const first = owner[p]!;
        const last = owner[p + q.length - 1]!;
        const span = units.slice(first, last + 1);
        return {
          text: joinWholeWords(
            span.map((u) => u.text),
            language,
          ),
          start: toSeconds(span[0]!.startMs),
          end: toSeconds(span.at(-1)!.endMs),
          speaker: span[0]!.speaker,
        };
      }
      return null;
    },
  };
}

export function sentenceQuote(s: MeetingSentence): MeetingQuote {
  return { text: s.text, start: toSeconds(s.startMs), end: toSeconds(s.endMs), speaker: s.speaker };
}
