/**
 * Words of a transcript as text is written: one rule for every place that makes words or text from an engine's words
 * (the speech providers, the chunk stitcher, speaker labelling, the transcript and meeting renderers;
 * docs/processing.md "Transcription").
 *
 * faster-whisper starts a new word at a hyphen: "USB-C" comes as `" USB"`, `"-C"`, "state-of-the-art" as `" state"`,
 * `"-of"`, `"-the"`, `"-art"`, "well-known" sometimes as `"well-"`, `"known"`; a minus number is a word of its own,
 * after a space: "is -5" is `" is"`, `" -5"`. The space before a word is what tells them apart, so an engine's word
 * carries it (`spaced`: the offline worker sends it, the HTTP provider reads it when its server keeps the spaces) and
 * the join follows it: a word the engine began with a space is a word of its own; a word it began without one
 * continues the word before it when a hyphen stands between them (a piece starting with a hyphen directly followed by
 * a letter or digit, or a word after a piece that ends in a letter or digit and a hyphen). When the engine cannot say
 * (`spaced` absent: whisper-1, which gives no word a space; a worker answer or chunk file from before the field), the
 * hyphen alone decides, and a minus number right after a word is taken for a piece. A dash standing alone (`-`, `–`,
 * `—`) is punctuation between words, and stays a word of its own.
 */

/** A hyphen that joins word parts: ASCII hyphen-minus, U+2010 HYPHEN, U+2011 NON-BREAKING HYPHEN. */
const CONTINUES_WITH_HYPHEN = /^[-\u2010\u2011][\p{L}\p{N}]/u;
const OPENS_WITH_HYPHEN = /[\p{L}\p{N}][-\u2010\u2011]$/u;
const WORD_START = /^[\p{L}\p{N}]/u;

/**
 * Whether `next` continues the word `previous` (a hyphenated word given in pieces), so no space goes between them.
 * `nextSpaced`: whether the engine began `next` with a space (true: never; absent: unknown, the hyphen decides).
 */
export function continuesWord(previous: string, next: string, nextSpaced?: boolean): boolean {
  if (nextSpaced === true) return false;
  return CONTINUES_WITH_HYPHEN.test(next) || (OPENS_WITH_HYPHEN.test(previous) && WORD_START.test(next));
}

/** An engine's word as text: without its leading space, and whether it had one (absent when the engine cannot say). */
export interface EngineWordText {
  word: string;
  spaced?: boolean;
}

/** The fields of an engine's word that merging reads and writes. */
export interface WordPiece extends EngineWordText {
  start: number;
  end: number;
  confidence: number;
}

/**
 * Hyphenated words given in pieces made whole: a piece that continues the word before it (continuesWord, with the
 * piece's `spaced`) is appended to it; the whole word spans from its first piece's start to its pieces' latest end and
 * keeps their lowest confidence, and every other field of its first piece (its `spaced` too). `samePiece` may refuse
 * a merge (e.g. pieces given to two speakers). Words are trimmed by the caller; the input is not changed.
 */
export function mergeWordPieces<W extends WordPiece>(
  words: readonly W[],
  samePiece: (previous: W, next: W) => boolean = () => true,
): W[] {
  const out: W[] = [];
  for (const word of words) {
    const previous = out.at(-1);
    if (previous !== undefined && continuesWord(previous.word, word.word, word.spaced) && samePiece(previous, word)) {
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
 * (continuesWord: a piece the engine began without a space, or, for a plain string or a word without `spaced`, the
 * hyphen alone), or without spaces in languages written without them (zh, ja, th, …). Each word is trimmed.
 */
export function joinWords(words: readonly (string | EngineWordText)[], language: string): string {
  const noSpace = NO_SPACE_LANGUAGES.has(language.toLowerCase().split(/[-_]/)[0] ?? '');
  let out = '';
  let previous = '';
  for (const item of words) {
    const word = (typeof item === 'string' ? item : item.word).trim();
    if (word === '') continue;
    const spaced = typeof item === 'string' ? undefined : item.spaced;
    if (out === '' || noSpace || ATTACHES_LEFT.test(word) || continuesWord(previous, word, spaced)) out += word;
    else out += ` ${word}`;
    previous = word;
  }
  return out;
}

/**
 * Whole words joined as text (words already made whole by mergeWordPieces, e.g. a normalised transcript's, or segment
 * texts): as joinWords, but no word is taken for a piece of the one before it, so "is", "-5" stays "is -5".
 */
export function joinWholeWords(words: readonly string[], language: string): string {
  return joinWords(
    words.map((word) => ({ word, spaced: true })),
    language,
  );
}
