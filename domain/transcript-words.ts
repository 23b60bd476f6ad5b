/**
 * Words of a transcript as text is written: one rule for every place that makes words or text from an engine's words
 * (the speech providers, the chunk stitcher, speaker labelling, the transcript and meeting renderers;
 * docs/processing.md "Transcription").
 *
 * faster-whisper starts a new word at a hyphen: "USB-C" comes as `" USB"`, `"-C"`, "state-of-the-art" as `" state"`,
 * `"-of"`, `"-the"`, `"-art"`, "well-known" sometimes as `"well-"`, `"known"`. The offline engine strips each word's
 * leading space, so the pieces reach TypeScript as `USB`, `-C`. A piece that starts with a hyphen directly followed
 * by a letter or digit, or a word after a piece that ends in a letter or digit and a hyphen, continues the word
 * before it. A dash standing alone (`-`, `–`, `—`) is punctuation between words, and stays a word of its own.
 * Known limit: a number written with a minus sign right after a word ("is -5") is taken for a piece too, as the
 * offline engine's words reach here without their spaces (the HTTP provider, which has them, keeps " -5" apart, but
 * the renderers apply this rule to any transcript); Whisper writes such a number rarely ("minus five").
 */

/** A hyphen that joins word parts: ASCII hyphen-minus, U+2010 HYPHEN, U+2011 NON-BREAKING HYPHEN. */
const CONTINUES_WITH_HYPHEN = /^[-\u2010\u2011][\p{L}\p{N}]/u;
const OPENS_WITH_HYPHEN = /[\p{L}\p{N}][-\u2010\u2011]$/u;
const WORD_START = /^[\p{L}\p{N}]/u;

/** Whether `next` continues the word `previous` (a hyphenated word given in pieces), so no space goes between them. */
export function continuesWord(previous: string, next: string): boolean {
  return CONTINUES_WITH_HYPHEN.test(next) || (OPENS_WITH_HYPHEN.test(previous) && WORD_START.test(next));
}

/** The fields of an engine's word that merging reads and writes. */
export interface WordPiece {
  word: string;
  start: number;
  end: number;
  confidence: number;
}

/**
 * Hyphenated words given in pieces made whole: a piece that continues the word before it (continuesWord) is appended
 * to it; the whole word spans from its first piece's start to its pieces' latest end and keeps their lowest
 * confidence, and every other field of its first piece. `samePiece` may refuse a merge (e.g. pieces given to two
 * speakers). Words are trimmed by the caller; the input is not changed.
 */
export function mergeWordPieces<W extends WordPiece>(
  words: readonly W[],
  samePiece: (previous: W, next: W) => boolean = () => true,
): W[] {
  const out: W[] = [];
  for (const word of words) {
    const previous = out.at(-1);
    if (previous !== undefined && continuesWord(previous.word, word.word) && samePiece(previous, word)) {
      out[out.length - 1] = {
        ...previous,
        word: previous.word + word.word,
        end: Math.max(previous.end, word.end),
        confidence: Math.min(previous.confidence, word.confidence),
      };
    } else out.push({ ...word });
  }
  return out;
}

/** Languages written without spaces between words: words are joined directly. */
const NO_SPACE_LANGUAGES = new Set(['zh', 'ja', 'th', 'lo', 'km', 'my', 'bo', 'yue']);
/** Tokens that attach to the previous word (closing punctuation). */
const ATTACHES_LEFT = /^[,.;:!?…%)\]}»”’、。，！？；：]/u;

/**
 * Words joined as text: with spaces, none before closing punctuation nor between the pieces of a hyphenated word
 * (continuesWord), or without spaces in languages written without them (zh, ja, th, …). Each word is trimmed.
 */
export function joinWords(words: readonly string[], language: string): string {
  const noSpace = NO_SPACE_LANGUAGES.has(language.toLowerCase().split(/[-_]/)[0] ?? '');
  let out = '';
  let previous = '';
  for (const raw of words) {
    const word = raw.trim();
    if (word === '') continue;
    if (out === '' || noSpace || ATTACHES_LEFT.test(word) || continuesWord(previous, word)) out += word;
    else out += ` ${word}`;
    previous = word;
  }
  return out;
}
