import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import { z } from 'zod';
import { joinWholeWords, mergeWordPieces } from '../../domain/transcript-words.js';
import type {
  Transcript,
  TranscriptSegment,
  TranscriptWord,
} from '../providers/transcription/transcription-provider.js';

/**
 * Pure renderers from a transcript to each `output_format` of `transcribe`: TXT, SRT, VTT, JSON and DOCX.
 *
 * Speakers are optional: a segment or a word may carry a `speaker` label (e.g. `SPEAKER_1`, see speakerLabel); a
 * word without one takes the label of the segment it falls in. Labels are rendered when present and omitted
 * otherwise. Engine times are not trusted: every renderer works on a normalised copy (normaliseTranscript) whose
 * times are whole milliseconds, inside [0, duration], monotonic and non-overlapping, and whose words are whole (a
 * hyphenated word the engine gave in pieces is one word, domain/transcript-words.ts).
 */

export type LabelledSegment = TranscriptSegment & { speaker?: string };
export type LabelledWord = TranscriptWord & { speaker?: string };
export type LabelledTranscript = Omit<Transcript, 'segments' | 'words'> & {
  segments: LabelledSegment[];
  words: LabelledWord[];
};

/** The label of the n-th speaker (0-based): `SPEAKER_1`, `SPEAKER_2`, … */
export function speakerLabel(index: number): string {
  return `SPEAKER_${index + 1}`;
}

/** Subtitle cue rules (SRT and VTT). */
export interface CueOptions {
  /** A cue never lasts longer (default 6 s). */
  maxCueSeconds: number;
  /** A cue is extended to last at least this long when the next cue leaves room (default 1 s). */
  minCueSeconds: number;
  /** Characters per line (default 42). */
  maxLineLength: number;
  /** Lines per cue (default 2). */
  maxLines: number;
  /** A silence between two words at least this long ends the cue (default 1 s). */
  pauseSeconds: number;
}

export const DEFAULT_CUE_OPTIONS: Readonly<CueOptions> = Object.freeze({
  maxCueSeconds: 6,
  minCueSeconds: 1,
  maxLineLength: 42,
  maxLines: 2,
  pauseSeconds: 1,
});

/** A silence between two segments at least this long starts a new paragraph in TXT and DOCX. */
export const PARAGRAPH_PAUSE_SECONDS = 2;

// ---------------------------------------------------------------------------------------------------------------
// Normalisation

/** Characters no text output should hold: C0/C1 controls (line breaks become spaces), U+FFFE/U+FFFF. */
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROL = /[\u0000-\u001F\u007F-\u009F\uFFFE\uFFFF]/g;

function cleanText(text: string): string {
  return text.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
}

function cleanLabel(label: string | undefined): string | undefined {
  if (label === undefined) return undefined;
  const cleaned = cleanText(label);
  return cleaned === '' ? undefined : cleaned;
}

/** A word or segment of a normalised transcript: times in whole milliseconds. */
interface NWord {
  startMs: number;
  endMs: number;
  text: string;
  confidence: number;
  speaker: string | undefined;
  /** The engine's `spaced` (TranscriptWord): read by joinHyphenatedParts only, never rendered. */
  spaced?: boolean;
}
interface NSegment {
  startMs: number;
  endMs: number;
  text: string;
  speaker: string | undefined;
}
interface Normalised {
  language: string;
  durationMs: number;
  segments: NSegment[];
  words: NWord[];
}

function toMs(seconds: number): number {
  return Number.isFinite(seconds) ? Math.max(0, Math.round(seconds * 1000)) : Number.NaN;
}

/**
 * Times made usable: seconds to whole milliseconds, non-finite times replaced by the previous item's end, items
 * sorted by start (stable), starts non-decreasing, each end at least its start and at most the next start (no
 * overlap), everything clamped to [0, duration] (the duration grows to the last end when the engine under-reports
 * it). Empty words and segments are dropped.
 */
function normaliseItems<T extends { startMs: number; endMs: number }>(items: T[], durationMs: number): T[] {
  let previousEnd = 0;
  const filled = items.map((item) => {
    const startMs = Number.isNaN(item.startMs) ? previousEnd : item.startMs;
    const endMs = Number.isNaN(item.endMs) ? startMs : item.endMs;
    previousEnd = Math.max(startMs, endMs);
    return { ...item, startMs, endMs };
  });
  const sorted = filled
    .map((item, index) => ({ item, index }))
    .sort((a, b) => a.item.startMs - b.item.startMs || a.index - b.index)
    .map((x) => x.item);
  for (let i = 0; i < sorted.length; i += 1) {
    const item = sorted[i]!;
    item.startMs = Math.min(item.startMs, durationMs);
    item.endMs = Math.min(Math.max(item.endMs, item.startMs), durationMs);
  }
  for (let i = 0; i + 1 < sorted.length; i += 1) {
    const item = sorted[i]!;
    item.endMs = Math.max(item.startMs, Math.min(item.endMs, sorted[i + 1]!.startMs));
  }
  return sorted;
}

/** The speaker of the segment a time falls in (the last segment starting at or before it). */
function segmentSpeakerAt(segments: readonly NSegment[], ms: number): string | undefined {
  let found: NSegment | undefined;
  for (const segment of segments) {
    if (segment.startMs > ms) break;
    found = segment;
  }
  return found?.speaker;
}

/**
 * A hyphenated word the engine gave in pieces made whole again (domain/transcript-words.ts: faster-whisper starts a
 * word at a hyphen, "state-of-the-art" arrives as `state`, `-of`, `-the`, `-art`). A piece joins the previous word of
 * the same speaker, as the engine's `spaced` says (a word it began with a space, " -5", stays a word), or by the
 * hyphen alone when the word does not say; the whole word spans the pieces' times and keeps their lowest confidence.
 * The providers already give whole words; this holds for any transcript given to the renderers. The words are whole
 * afterwards: every text made from them joins them as whole words (joinWholeWords).
 */
function joinHyphenatedParts(words: readonly NWord[]): NWord[] {
  return mergeWordPieces(
    words.map(({ text, startMs, endMs, ...rest }) => ({ ...rest, word: text, start: startMs, end: endMs })),
    (previous, next) => previous.speaker === next.speaker,
  ).map(({ word, start, end, ...rest }) => ({ ...rest, text: word, startMs: start, endMs: end }));
}

function normalise(transcript: LabelledTranscript): Normalised {
  const rawSegments = transcript.segments
    .map((s) => ({
      startMs: toMs(s.start),
      endMs: toMs(s.end),
      text: cleanText(s.text),
      speaker: cleanLabel(s.speaker),
    }))
    .filter((s) => s.text !== '');
  const rawWords = transcript.words
    .map((w) => ({
      startMs: toMs(w.start),
      endMs: toMs(w.end),
      text: cleanText(w.word),
      confidence: Number.isFinite(w.confidence) ? Math.min(1, Math.max(0, w.confidence)) : 0,
      speaker: cleanLabel(w.speaker),
      ...(typeof w.spaced === 'boolean' ? { spaced: w.spaced } : {}),
    }))
    .filter((w) => w.text !== '');
  // A loop, not Math.max(...times): spreading a long transcript's times (hundreds of thousands) overflows the stack.
  let lastEnd = 0;
  for (const x of [...rawSegments, ...rawWords])
    for (const t of [x.startMs, x.endMs]) if (Number.isFinite(t) && t > lastEnd) lastEnd = t;
  const reported = toMs(transcript.duration);
  const durationMs = Number.isNaN(reported) ? lastEnd : Math.max(reported, lastEnd);
  const segments = normaliseItems(rawSegments, durationMs);
  const words = joinHyphenatedParts(
    normaliseItems(rawWords, durationMs).map((w) => ({
      ...w,
      speaker: w.speaker ?? segmentSpeakerAt(segments, w.startMs + (w.endMs - w.startMs) / 2),
    })),
  );
  // A segment without a label takes the label of the first word inside it.
  for (const segment of segments) {
    segment.speaker ??= words.find(
      (w) => w.startMs >= segment.startMs && w.startMs < Math.max(segment.endMs, segment.startMs + 1),
    )?.speaker;
  }
  const language = cleanText(transcript.language);
  return { language: language === '' ? 'und' : language, durationMs, segments, words };
}

/** Segments to use for paragraphs: the engine's, or (when it gave none) one per word. */
function paragraphSource(n: Normalised): NSegment[] {
  if (n.segments.length > 0 || n.words.length === 0) return n.segments;
  return n.words.map((w) => ({ startMs: w.startMs, endMs: w.endMs, text: w.text, speaker: w.speaker }));
}

interface TranscriptParagraph {
  startMs: number;
  endMs: number;
  speaker: string | undefined;
  text: string;
}

/** Consecutive segments of one speaker, a new paragraph when the speaker changes or after a long pause. */
function paragraphs(n: Normalised): TranscriptParagraph[] {
  const out: { startMs: number; endMs: number; speaker: string | undefined; parts: string[] }[] = [];
  for (const segment of paragraphSource(n)) {
    const current = out.at(-1);
    if (
      current !== undefined &&
      current.speaker === segment.speaker &&
      segment.startMs - current.endMs < PARAGRAPH_PAUSE_SECONDS * 1000
    ) {
      current.parts.push(segment.text);
      current.endMs = Math.max(current.endMs, segment.endMs);
    } else {
      out.push({ startMs: segment.startMs, endMs: segment.endMs, speaker: segment.speaker, parts: [segment.text] });
    }
  }
  return out.map((p) => ({
    startMs: p.startMs,
    endMs: p.endMs,
    speaker: p.speaker,
    text: joinWholeWords(p.parts, n.language),
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// TXT

/**
 * Plain text (a UTF-8 string, no byte order mark): one paragraph per run of one speaker, `SPEAKER_1: ` before it
 * when labels are present, paragraphs separated by a blank line, a final line feed. An empty transcript is ''.
 */
export function transcriptToTxt(transcript: LabelledTranscript): string {
  const ps = paragraphs(normalise(transcript));
  if (ps.length === 0) return '';
  return `${ps.map((p) => (p.speaker === undefined ? p.text : `${p.speaker}: ${p.text}`)).join('\n\n')}\n`;
}

// ---------------------------------------------------------------------------------------------------------------
// Subtitle cues

export interface SubtitleCue {
  startMs: number;
  endMs: number;
  speaker: string | undefined;
  /**
   * The cue's lines (1 to maxLines), unescaped. With a first-line prefix (CueLayout), the first line is '' when the
   * first word does not fit after the prefix: the prefix then stands alone on that line.
   */
  lines: string[];
}

/** How a format shows a cue's text: the characters it puts before the first line, by speaker (counted in its width). */
export interface CueLayout {
  firstLinePrefix?: (speaker: string | undefined) => number;
}

/** SRT writes `SPEAKER_1: ` before a labelled cue's first line: it is text on that line, so it counts. */
function srtSpeakerPrefix(speaker: string | undefined): string {
  return speaker === undefined ? '' : `${speaker.replace(/-->/g, '->')}: `;
}

/**
 * Greedy word wrap; undefined when the words do not fit in maxLines lines. `indent`: characters the first line
 * already carries (SRT's `SPEAKER_1: `, counted in full), so the first line holds that many fewer; when the first word
 * does not fit after them, the first line is '' (the prefix alone) and the words start on the next line. Words are
 * never cut: a word longer than a line has a line of its own, the one line allowed past maxLineLength.
 */
function wrap(words: readonly string[], language: string, options: CueOptions, indent = 0): string[] | undefined {
  const width = (lineIndex: number): number => options.maxLineLength - (lineIndex === 0 ? indent : 0);
  const length = (line: readonly string[]): number => Array.from(joinWholeWords(line, language)).length;
  const lines: string[][] = [];
  for (const word of words) {
    const line = lines.at(-1);
    if (line !== undefined && length([...line, word]) <= width(lines.length - 1)) line.push(word);
    else if (line === undefined && indent > 0 && length([word]) > width(0)) lines.push([], [word]);
    else lines.push([word]);
  }
  if (lines.length > options.maxLines) return undefined;
  if (lines.length === 2) {
    // Balance two lines: the split point with the shortest longer line (the first line counted with its indent).
    let best: [string, string] | undefined;
    let bestLongest = Infinity;
    for (let i = 1; i < words.length; i += 1) {
      const a = joinWholeWords(words.slice(0, i), language);
      const b = joinWholeWords(words.slice(i), language);
      if (Array.from(a).length > width(0) || Array.from(b).length > width(1)) continue;
      const longest = Math.max(Array.from(a).length + indent, Array.from(b).length);
      if (longest < bestLongest) [best, bestLongest] = [[a, b], longest];
    }
    if (best !== undefined) return best;
  }
  return lines.map((line) => joinWholeWords(line, language));
}

const SENTENCE_END = /[.!?…。！？]["'”’»)\]]*$/u;
const CLAUSE_END = /[,;:，；：、—–-]["'”’»)\]]*$/u;

/**
 * Cues from the words: a cue ends when the speaker changes, at a pause (options.pauseSeconds), after a sentence
 * once it has lasted minCueSeconds, or when the next word would make it longer than maxCueSeconds or more than
 * maxLines lines of maxLineLength characters; in that last case it is cut after its last punctuation mark (when it
 * has one in its second half) rather than before the word; a word left alone after such a cut takes the previous
 * cue's last word with it. Then times: cue starts strictly increase, a cue lasts at
 * least minCueSeconds when the next start allows, never more than maxCueSeconds, and ends at or before the next
 * cue's start.
 */
export function transcriptToCues(
  transcript: LabelledTranscript,
  options: Partial<CueOptions> = {},
  layout: CueLayout = {},
): SubtitleCue[] {
  const opts: CueOptions = { ...DEFAULT_CUE_OPTIONS, ...options };
  const n = normalise(transcript);
  // The first line's prefix counts in full (a rendered line holds at most maxLineLength characters, prefix included).
  const indentOf = (speaker: string | undefined): number => layout.firstLinePrefix?.(speaker) ?? 0;
  const words = n.words;
  const fits = (group: readonly NWord[]): boolean =>
    wrap(
      group.map((w) => w.text),
      n.language,
      opts,
      indentOf(group[0]?.speaker),
    ) !== undefined;
  const maxMs = Math.round(opts.maxCueSeconds * 1000);
  const minMs = Math.round(opts.minCueSeconds * 1000);
  const pauseMs = Math.round(opts.pauseSeconds * 1000);
  const groups: NWord[][] = [];
  let current: NWord[] = [];
  /** Groups closed only because the next word did not fit (not at a pause, a speaker change or a sentence end). */
  const softBreaks = new Set<NWord[]>();
  const close = (words: NWord[], soft = false): void => {
    if (words.length === 0) return;
    groups.push(words);
    if (soft) softBreaks.add(words);
  };
  for (const word of words) {
    const first = current[0];
    const last = current.at(-1);
    if (first === undefined || last === undefined) {
      current = [word];
      continue;
    }
    const hardBreak =
      word.speaker !== last.speaker ||
      word.startMs - last.endMs >= pauseMs ||
      (SENTENCE_END.test(last.text) && last.endMs - first.startMs >= minMs);
    if (hardBreak) {
      close(current);
      current = [word];
      continue;
    }
    const candidate = [...current, word];
    const tooLong = word.endMs - first.startMs > maxMs;
    const tooWide = !fits(candidate);
    if (!tooLong && !tooWide) {
      current = candidate;
      continue;
    }
    // Cut after the last punctuation mark in the second half of the cue, else before this word.
    let cut = current.length;
    for (let i = current.length - 1; i >= Math.ceil(current.length / 2) - 1 && i >= 0; i -= 1) {
      if (SENTENCE_END.test(current[i]!.text) || CLAUSE_END.test(current[i]!.text)) {
        cut = i + 1;
        break;
      }
    }
    close(current.slice(0, cut), cut === current.length);
    current = [...current.slice(cut), word];
    // The carried words (a suffix of a fitting cue) plus this one: when they do not fit, the word starts a cue alone.
    if (current.length > 1 && (word.endMs - current[0]!.startMs > maxMs || !fits(current))) {
      close(current.slice(0, -1));
      current = [word];
    }
  }
  close(current);
  // No lone word after a cue that was cut only because it was full: it takes the previous cue's last word with it
  // (when that cue keeps two words or more and the last word is not a punctuation cut point).
  for (let i = 1; i < groups.length; i += 1) {
    const previous = groups[i - 1]!;
    const group = groups[i]!;
    const lone = group[0]!;
    const moved = previous.at(-1)!;
    if (
      group.length === 1 &&
      previous.length > 2 &&
      softBreaks.has(previous) &&
      !SENTENCE_END.test(moved.text) &&
      !CLAUSE_END.test(moved.text) &&
      lone.endMs - moved.startMs <= maxMs
    ) {
      groups[i] = [previous.pop()!, lone];
    }
  }

  const cues: SubtitleCue[] = groups.map((g) => ({
    startMs: g[0]!.startMs,
    endMs: g.at(-1)!.endMs,
    speaker: g[0]!.speaker,
    lines: wrap(
      g.map((w) => w.text),
      n.language,
      opts,
      indentOf(g[0]!.speaker),
    ) ?? [
      joinWholeWords(
        g.map((w) => w.text),
        n.language,
      ),
    ],
  }));
  for (let i = 1; i < cues.length; i += 1) cues[i]!.startMs = Math.max(cues[i]!.startMs, cues[i - 1]!.startMs + 1);
  for (let i = 0; i < cues.length; i += 1) {
    const cue = cues[i]!;
    const next = cues[i + 1];
    let end = Math.max(cue.endMs, cue.startMs + minMs);
    end = Math.min(end, cue.startMs + maxMs);
    if (next !== undefined) end = Math.min(end, next.startMs);
    if (n.durationMs > cue.startMs) end = Math.min(end, Math.max(n.durationMs, cue.endMs));
    cue.endMs = Math.max(end, cue.startMs + 1);
  }
  return cues;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** `hh:mm:ss{sep}mmm` from milliseconds (hours grow past 99 if they must). */
export function formatTimestamp(ms: number, separator: ',' | '.'): string {
  const total = Math.max(0, Math.round(ms));
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const seconds = Math.floor((total % 60_000) / 1000);
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}${separator}${pad(total % 1000, 3)}`;
}

/**
 * SubRip: numbered cues from 1, `00:00:01,000 --> 00:00:02,500`, the text lines (`SPEAKER_1: ` before the first
 * when labelled, counted in that line's width; alone on the first line, as `SPEAKER_1:`, when the first word does not
 * fit after it), a blank line after each cue, CRLF-free (LF) UTF-8. SRT defines no escaping: the text is kept as is
 * except that `-->` becomes `->` so a line can never read as a timing line. An empty transcript is ''.
 */
export function transcriptToSrt(transcript: LabelledTranscript, options: Partial<CueOptions> = {}): string {
  return transcriptToCues(transcript, options, {
    firstLinePrefix: (speaker) => Array.from(srtSpeakerPrefix(speaker)).length,
  })
    .map((cue, i) => {
      const lines = cue.lines.map((line) => line.replace(/-->/g, '->'));
      if (cue.speaker !== undefined) lines[0] = `${srtSpeakerPrefix(cue.speaker)}${lines[0] ?? ''}`.trimEnd();
      return `${i + 1}\n${formatTimestamp(cue.startMs, ',')} --> ${formatTimestamp(cue.endMs, ',')}\n${lines.join('\n')}\n`;
    })
    .join('\n');
}

function escapeVtt(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * WebVTT: the `WEBVTT` header, then cues `00:00:01.000 --> 00:00:02.500` with their lines; a labelled cue starts
 * with a voice span `<v SPEAKER_1>`. Text and labels escape `&`, `<` and `>` (so `-->` cannot appear in a cue).
 * An empty transcript is the header alone.
 */
export function transcriptToVtt(transcript: LabelledTranscript, options: Partial<CueOptions> = {}): string {
  const cues = transcriptToCues(transcript, options).map((cue) => {
    const lines = cue.lines.map(escapeVtt);
    if (cue.speaker !== undefined) lines[0] = `<v ${escapeVtt(cue.speaker)}>${lines[0] ?? ''}`;
    return `${formatTimestamp(cue.startMs, '.')} --> ${formatTimestamp(cue.endMs, '.')}\n${lines.join('\n')}\n`;
  });
  return ['WEBVTT\n', ...cues].join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// JSON

const seconds = z.number().nonnegative().describe('Seconds from the start of the source, millisecond precision');
const speaker = z.string().nullable().describe('Speaker label (SPEAKER_1, …), null when speakers are not known');

/** The JSON output of `transcribe`. */
export const TranscriptJson = z
  .object({
    language: z.string().describe('ISO 639-1 code of the spoken language (`und` when unknown)'),
    duration: seconds.describe('Seconds of decoded audio'),
    segments: z.array(
      z
        .object({ start: seconds, end: seconds, text: z.string(), speaker })
        .describe('A phrase the engine decoded together'),
    ),
    words: z.array(
      z
        .object({ start: seconds, end: seconds, word: z.string(), confidence: z.number().min(0).max(1), speaker })
        .describe('One recognised word'),
    ),
  })
  .describe('A transcript: times are monotonic, non-overlapping and inside [0, duration]');
export type TranscriptJson = z.infer<typeof TranscriptJson>;

/** JSON Schema (draft 2020-12, as OpenAPI 3.1 uses) of TranscriptJson. */
export const transcriptJsonSchema = z.toJSONSchema(TranscriptJson);

/** The transcript as TranscriptJson (normalised times, in seconds). */
export function transcriptToJsonValue(transcript: LabelledTranscript): TranscriptJson {
  const n = normalise(transcript);
  return {
    language: n.language,
    duration: n.durationMs / 1000,
    segments: n.segments.map((s) => ({
      start: s.startMs / 1000,
      end: s.endMs / 1000,
      text: s.text,
      speaker: s.speaker ?? null,
    })),
    words: n.words.map((w) => ({
      start: w.startMs / 1000,
      end: w.endMs / 1000,
      word: w.text,
      confidence: w.confidence,
      speaker: w.speaker ?? null,
    })),
  };
}

/** TranscriptJson serialised (UTF-8, two-space indentation, final line feed). */
export function transcriptToJson(transcript: LabelledTranscript): string {
  return `${JSON.stringify(TranscriptJson.parse(transcriptToJsonValue(transcript)), null, 2)}\n`;
}

// ---------------------------------------------------------------------------------------------------------------
// DOCX

/** Characters XML 1.0 cannot hold are already removed by cleanText; this strips the rest (none expected). */
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const NOT_XML = /[\u0000-\u0008\u000B-\u001F\uFFFE\uFFFF]/g;

/**
 * A Word document (DOCX): a title, a line with the language and duration, then one paragraph per run of one
 * speaker, each starting with its timestamp `[hh:mm:ss]` and the speaker label in bold when present. An empty
 * transcript gives the title and a paragraph saying no speech was recognised.
 */
export async function transcriptToDocx(transcript: LabelledTranscript, title = 'Transcript'): Promise<Buffer> {
  const n = normalise(transcript);
  const ps = paragraphs(n);
  const children: Paragraph[] = [
    new Paragraph({
      text: cleanText(title).replace(NOT_XML, '') || 'Transcript',
      heading: HeadingLevel.TITLE,
      alignment: AlignmentType.LEFT,
    }),
    new Paragraph({
      children: [
        new TextRun({
          text: `Language: ${n.language} · Duration: ${formatTimestamp(n.durationMs, '.').slice(0, 8)}`,
          italics: true,
        }),
      ],
    }),
  ];
  if (ps.length === 0) children.push(new Paragraph({ text: 'No speech was recognised.' }));
  for (const p of ps) {
    const runs = [new TextRun({ text: `[${formatTimestamp(p.startMs, '.').slice(0, 8)}] `, color: '666666' })];
    if (p.speaker !== undefined) runs.push(new TextRun({ text: `${p.speaker}: `, bold: true }));
    runs.push(new TextRun({ text: p.text }));
    children.push(new Paragraph({ children: runs, spacing: { after: 160 } }));
  }
  const doc = new Document({
    creator: 'paycore transcription',
    title: cleanText(title) || 'Transcript',
    sections: [{ children }],
  });
  return Packer.toBuffer(doc);
}
