import { joinWords } from '../../../domain/transcript-words.js';
import type { AudioChunk } from './chunking.js';
import type { Transcript, TranscriptSegment, TranscriptWord } from './transcription-provider.js';

/**
 * Per-chunk transcripts (times relative to their chunk) stitched back onto the source's timeline.
 *
 * - Words and segments are moved by their chunk's start.
 * - Each chunk owns the part of the timeline from the boundary with the previous chunk to the boundary with the next:
 *   the shared cut point after a cut in a silence, the middle of the overlap after a hard cut (chunking.ts). A word
 *   belongs to the chunk that owns its middle; the other chunk's copy is dropped, unless the owning chunk heard
 *   nothing at that time (no word of its own within the tolerance): Whisper skips the first words of a chunk that
 *   starts mid-sentence, and the other chunk's copy is then the only one.
 * - Words both chunks recognised around that middle (the same text, normalised, at about the same time) are
 *   counted once: the copy with the higher confidence is kept.
 * - Words the engine could not place in the chunk's audio are dropped: no duration (under Whisper's time step of
 *   0.02 s) and starting within UNPLACED_SECONDS of the chunk's end. Whisper, given audio that ends soon after speech, may go on
 *   writing a repetition loop ("USB-C to the USB-C to the …") that its word alignment times at the audio's last
 *   instant; a word really cut by the chunk's edge is whole in the next chunk (a hard cut overlaps), and a cut in a
 *   silence has no speech there.
 * - Words end up in time order (starts never decrease), inside [0, duration], each with end >= start.
 * - A segment keeps the words assigned to it (those whose middle it covers, else the nearest segment of its chunk);
 *   its bounds become its first word's start and last word's end, and its text is rebuilt from its words when some
 *   were dropped (joined as text is written: domain/transcript-words.ts). A segment left without words is dropped. A
 *   chunk without words (an engine without word timings) keeps the segments whose middle it owns.
 * - The language is the one of the most words (the earliest chunk's on a tie, or when there are no words).
 */

export interface ChunkTranscript {
  chunk: Pick<AudioChunk, 'index' | 'start' | 'end'>;
  transcript: Transcript;
}

export interface StitchOptions {
  /** Two copies of a word count as one when their middles are at most this far apart (seconds) or they overlap. Default 0.3. */
  duplicateToleranceSeconds?: number;
  /** Drop the words piled without duration at a chunk's end (see the module note). Default true; false only to
   * measure what they cost (bench/speech-corpus/wer-chunked.ts). */
  dropUnplacedWords?: boolean;
}

/** A word without duration (under Whisper's 0.02 s time step) starting this close to its chunk's end (seconds) was
 * not placed in the audio. */
export const UNPLACED_SECONDS = 0.1;
const NO_DURATION = 0.02;

interface Placed {
  word: TranscriptWord;
  part: number;
  segment: number; // index in the part's segments, or -1
  middle: number;
}

const normalise = (w: string) =>
  w
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}']+/gu, '');

const finite = (v: number, fallback = 0) => (Number.isFinite(v) ? v : fallback);

/** Which of the part's segments a word (chunk-relative middle) belongs to: the one covering it, else the nearest. */
function segmentOf(segments: TranscriptSegment[], middle: number): number {
  let best = -1;
  let distance = Infinity;
  for (const [i, s] of segments.entries()) {
    const d = middle < s.start ? s.start - middle : middle > s.end ? middle - s.end : 0;
    if (d < distance) {
      distance = d;
      best = i;
    }
  }
  return best;
}

/** Stitches the chunks' transcripts; `duration` is the source's measured duration (default: the last chunk's end). */
export function stitchTranscripts(
  parts: ChunkTranscript[],
  duration?: number,
  options: StitchOptions = {},
): Transcript {
  const tolerance = options.duplicateToleranceSeconds ?? 0.3;
  const ordered = [...parts].sort((a, b) => a.chunk.start - b.chunk.start || a.chunk.index - b.chunk.index);
  const total = duration ?? Math.max(0, ...ordered.map((p) => p.chunk.end));
  const clamp = (t: number) => Math.min(total, Math.max(0, finite(t)));

  // Boundaries between neighbours: the middle of their overlap (a cut point when they only touch).
  const boundary = (a: ChunkTranscript, b: ChunkTranscript) =>
    b.chunk.start < a.chunk.end ? (b.chunk.start + a.chunk.end) / 2 : b.chunk.start;
  const owns = (i: number, t: number) =>
    (i === 0 || t >= boundary(ordered[i - 1]!, ordered[i]!)) &&
    (i === ordered.length - 1 || t < boundary(ordered[i]!, ordered[i + 1]!));

  // Each part's words on the source's timeline, but for those piled without duration at the chunk's end.
  const dropUnplaced = options.dropUnplacedWords ?? true;
  const placedInAudio = (chunk: ChunkTranscript['chunk'], w: TranscriptWord) =>
    !dropUnplaced ||
    !(
      finite(w.end, w.start) - finite(w.start) < NO_DURATION &&
      finite(w.start) >= chunk.end - chunk.start - UNPLACED_SECONDS
    );
  const onTimeline = ordered.map(({ chunk, transcript }) =>
    transcript.words
      .filter((w) => placedInAudio(chunk, w))
      .map((w) => {
        const start = finite(w.start) + chunk.start;
        return { w, start, end: Math.max(start, finite(w.end, w.start) + chunk.start) };
      }),
  );
  // A word past its chunk's boundary is kept when it lies in the overlap with the neighbour owning that time and the
  // neighbour heard nothing there (no word within the tolerance): a chunk starting mid-sentence skips its first words.
  const unheardByOwner = (i: number, start: number, end: number) =>
    [i - 1, i + 1].some(
      (k) =>
        k >= 0 &&
        k < ordered.length &&
        owns(k, (start + end) / 2) &&
        start >= ordered[k]!.chunk.start &&
        end <= ordered[k]!.chunk.end &&
        !onTimeline[k]!.some((o) => o.start < end + tolerance && o.end > start - tolerance),
    );

  const placed: Placed[] = [];
  const wordCount = new Map<number, number>(); // part -> words it had
  for (const [i, { chunk, transcript }] of ordered.entries()) {
    wordCount.set(i, transcript.words.length);
    for (const { w, start, end } of onTimeline[i]!) {
      const middle = (start + end) / 2;
      if (!owns(i, middle) && !unheardByOwner(i, start, end)) continue;
      placed.push({
        word: { ...w, start, end },
        part: i,
        segment: segmentOf(transcript.segments, middle - chunk.start),
        middle,
      });
    }
  }
  placed.sort((a, b) => a.middle - b.middle || a.part - b.part);

  // Duplicates across a boundary: a word of part i+1 against the words of part i just before it.
  const dropped = new Set<Placed>();
  for (let k = 0; k < placed.length; k++) {
    const next = placed[k]!;
    if (next.part === 0) continue;
    const text = normalise(next.word.word);
    if (!text) continue;
    for (let j = k - 1; j >= 0; j--) {
      const prev = placed[j]!;
      if (next.middle - prev.middle > tolerance + (next.word.end - next.word.start) + (prev.word.end - prev.word.start))
        break;
      if (prev.part !== next.part - 1 || dropped.has(prev)) continue;
      const overlap = Math.min(prev.word.end, next.word.end) - Math.max(prev.word.start, next.word.start);
      if (normalise(prev.word.word) === text && (overlap > 0 || Math.abs(next.middle - prev.middle) <= tolerance)) {
        dropped.add(next.word.confidence > prev.word.confidence ? prev : next);
        break;
      }
    }
  }
  const kept = placed.filter((p) => !dropped.has(p));

  // Monotonic, inside the audio.
  const words: TranscriptWord[] = [];
  let lastStart = 0;
  for (const p of kept) {
    const start = Math.max(lastStart, clamp(p.word.start));
    const end = Math.max(start, clamp(p.word.end));
    p.word = { ...p.word, start, end };
    words.push(p.word);
    lastStart = start;
  }

  // Segments rebuilt from their words (or kept by their middle for a chunk without words).
  const bySegment = new Map<string, Placed[]>();
  for (const p of kept) {
    const key = `${p.part}:${p.segment}`;
    const list = bySegment.get(key);
    if (list) list.push(p);
    else bySegment.set(key, [p]);
  }
  const segments: TranscriptSegment[] = [];
  for (const [i, { chunk, transcript }] of ordered.entries()) {
    if ((wordCount.get(i) ?? 0) === 0) {
      for (const s of transcript.segments) {
        const start = clamp(finite(s.start) + chunk.start);
        const end = Math.max(start, clamp(finite(s.end, s.start) + chunk.start));
        if (owns(i, (start + end) / 2)) segments.push({ start, end, text: s.text });
      }
      continue;
    }
    const had = new Map<number, number>(); // segment -> words the engine gave it
    for (const w of transcript.words) {
      const si = segmentOf(transcript.segments, (finite(w.start) + finite(w.end, w.start)) / 2);
      had.set(si, (had.get(si) ?? 0) + 1);
    }
    for (const [si, s] of transcript.segments.entries()) {
      const mine = bySegment.get(`${i}:${si}`);
      if (!mine) continue;
      const text =
        mine.length === had.get(si)
          ? s.text
          : joinWords(
              mine.map((p) => p.word),
              transcript.language,
            );
      segments.push({ start: mine[0]!.word.start, end: Math.max(...mine.map((p) => p.word.end)), text });
    }
    const loose = bySegment.get(`${i}:-1`); // words of a transcript without segments: one segment of their own
    if (loose)
      segments.push({
        start: loose[0]!.word.start,
        end: Math.max(...loose.map((p) => p.word.end)),
        text: joinWords(
          loose.map((p) => p.word),
          transcript.language,
        ),
      });
  }
  segments.sort((a, b) => a.start - b.start);

  // Language of the most words.
  const votes = new Map<string, number>();
  for (const { transcript } of ordered)
    if (transcript.language)
      votes.set(transcript.language, (votes.get(transcript.language) ?? 0) + transcript.words.length);
  let language = ordered.find((p) => p.transcript.language)?.transcript.language ?? '';
  for (const [lang, n] of votes) if (n > (votes.get(language) ?? 0)) language = lang;

  return { language, duration: total, segments, words };
}
