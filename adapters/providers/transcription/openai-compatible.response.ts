import { mergeWordPieces } from '../../../domain/transcript-words.js';
import { ProviderUnusableError } from '../provider-errors.js';
import { z } from 'zod';
import type { Transcript, TranscriptSegment, TranscriptWord } from './transcription-provider.js';
import { TranscriptionProviderConfigError } from './transcription-provider.js';
import { normalizeLanguage } from './whisper-languages.js';

/**
 * The answer of an OpenAI-compatible transcription API was not JSON or broke the `verbose_json` schema. The client
 * tries the request again a bounded number of times; past that, this error reaches the pipeline, which treats it
 * as unexpected (retried a few times, then the job fails as `processing_error`).
 */
export class TranscriptionAnswerError extends ProviderUnusableError {
  constructor(message: string) {
    super(message);
    this.name = 'TranscriptionAnswerError';
  }
}

/** Seconds: a finite non-negative number (a few compatible servers send numeric strings). */
const seconds = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\d+(\.\d+)?$/)
      .transform(Number),
  ])
  .pipe(z.number().finite().min(0));
const probability = z.number().finite().min(0).max(1);

const wordSchema = z.object({
  word: z.string(),
  start: seconds,
  end: seconds,
  /** Not in OpenAI's answer; faster-whisper servers send `probability`. */
  probability: probability.optional(),
  confidence: probability.optional(),
});

const segmentSchema = z.object({
  start: seconds,
  end: seconds,
  text: z.string(),
  avg_logprob: z.number().finite().max(0).optional(),
  /** Some compatible servers nest the words in their segments instead of (or as well as) the top-level list. */
  words: z.array(wordSchema).optional(),
});

/** OpenAI's `verbose_json` transcription (extra fields such as `task`, `text`, `tokens` or `usage` are ignored). */
export const verboseTranscriptionSchema = z.object({
  language: z.string().optional(),
  duration: seconds,
  /** The whole transcript (whisper-1 writes it with its spaces; its words carry none). */
  text: z.string().optional(),
  segments: z.array(segmentSchema).default([]),
  words: z.array(wordSchema).optional(),
});

type WireWord = z.infer<typeof wordSchema>;

/** Words that carry text: a letter or a digit (not a lone punctuation mark). */
const SPOKEN = /[\p{L}\p{N}]/u;

/**
 * Checks and maps a `verbose_json` answer onto the Transcript:
 * - language: the reported Whisper name (`english`) as ISO 639-1 (whisper-languages.ts), else the requested code;
 *   neither → TranscriptionAnswerError.
 * - words: the top-level `words`, else the segments' `words`; trimmed, empty ones dropped, sorted by start, an end
 *   before its start raised to the start. Segments with speech but no word anywhere mean the model ignored
 *   `timestamp_granularities[]=word`: TranscriptionProviderConfigError (choose a model that supports it).
 * - confidence: the word's own `probability`/`confidence` when the server sends one; otherwise (OpenAI) the
 *   geometric mean token probability of the segment the word's middle falls in, exp(avg_logprob); otherwise 1
 *   (unknown is not reported as doubtful). Rounded to 4 decimals.
 */
export function parseVerboseTranscription(body: string, requestedLanguage?: string): Transcript {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new TranscriptionAnswerError('the answer is not JSON');
  }
  const parsed = verboseTranscriptionSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new TranscriptionAnswerError(
      `the answer breaks the verbose_json schema at ${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
  }
  const answer = parsed.data;
  const language =
    (answer.language !== undefined ? normalizeLanguage(answer.language) : null) ??
    (requestedLanguage ? (normalizeLanguage(requestedLanguage) ?? requestedLanguage) : null);
  if (!language) throw new TranscriptionAnswerError('the answer names no language Whisper knows');

  const segments: (TranscriptSegment & { confidence?: number })[] = answer.segments.map((s) => ({
    start: s.start,
    end: Math.max(s.start, s.end),
    text: s.text.trim(),
    ...(s.avg_logprob !== undefined ? { confidence: Math.min(1, Math.exp(s.avg_logprob)) } : {}),
  }));
  const wireWords: WireWord[] = answer.words ?? answer.segments.flatMap((s) => s.words ?? []);
  // A faster-whisper server keeps each word's leading space (" USB", "-C", " is", " -5"): each word then says whether
  // it had one (spaced). whisper-1 gives no word a space, but its answer's text has them: each word is found there in
  // order, and the character before it says. Where the text stops holding the words, the hyphen alone decides.
  const keepsSpaces = wireWords.some((w) => /^\s/u.test(w.word));
  const spacedInText = keepsSpaces ? null : spacesFromText(answer.text, wireWords);
  const pieces = wireWords
    .map((w) => ({ w, text: w.word.trim() }))
    .filter(({ text }) => text.length > 0)
    .map(({ w, text }) => {
      const end = Math.max(w.start, w.end);
      const own = w.probability ?? w.confidence;
      const middle = (w.start + end) / 2;
      const segment = own === undefined ? segments.find((s) => middle >= s.start && middle <= s.end) : undefined;
      const confidence = round4(own ?? segment?.confidence ?? 1);
      const word: TranscriptWord = { start: w.start, end, word: text, confidence };
      const spaced = keepsSpaces ? /^\s/u.test(w.word) : spacedInText?.get(w);
      return spaced === undefined ? word : { ...word, spaced };
    })
    .sort((a, b) => a.start - b.start);
  // Whole words (domain/transcript-words.ts): "USB-C" given as " USB", "-C" is one word, " is", " -5" two.
  const words: TranscriptWord[] = mergeWordPieces(pieces);
  if (words.length === 0 && segments.some((s) => SPOKEN.test(s.text))) {
    throw new TranscriptionProviderConfigError(
      'the transcription API answered without word timestamps: TRANSCRIPTION_API_MODEL must support timestamp_granularities[]=word (e.g. whisper-1)',
    );
  }
  return {
    language,
    duration: answer.duration,
    segments: segments.map(({ start, end, text }) => ({ start, end, text })),
    words,
  };
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * Whether each word stood after a space (or at the start) in the answer's text, found there in the order given; none
 * once a word is not found (the text and the words disagree from there on).
 */
function spacesFromText(text: string | undefined, words: readonly WireWord[]): Map<WireWord, boolean> | null {
  if (text === undefined) return null;
  const found = new Map<WireWord, boolean>();
  let at = 0;
  for (const w of words) {
    const word = w.word.trim();
    if (word.length === 0) continue;
    const i = text.indexOf(word, at);
    if (i < 0) break;
    found.set(w, i === 0 || /\s/u.test(text[i - 1]!));
    at = i + word.length;
  }
  return found;
}
