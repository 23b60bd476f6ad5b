import { describe, expect, it } from 'vitest';
import { stitchTranscripts, type ChunkTranscript } from '../../../../adapters/providers/transcription/stitch.js';
import type {
  Transcript,
  TranscriptWord,
} from '../../../../adapters/providers/transcription/transcription-provider.js';

const w = (word: string, start: number, end: number, confidence = 0.9): TranscriptWord => ({
  word,
  start,
  end,
  confidence,
});

/** A transcript of one segment per group of words (the segment text is the words joined, as the engine gives it). */
function transcript(groups: TranscriptWord[][], language = 'en', duration = 0): Transcript {
  return {
    language,
    duration,
    segments: groups
      .filter((g) => g.length)
      .map((g) => ({
        start: g[0]!.start,
        end: g.at(-1)!.end,
        text: g
          .map((x) => x.word)
          .join('')
          .trim(),
      })),
    words: groups.flat(),
  };
}

const part = (index: number, start: number, end: number, t: Transcript): ChunkTranscript => ({
  chunk: { index, start, end },
  transcript: t,
});
const text = (t: Transcript) => t.words.map((x) => x.word.trim()).join(' ');

describe('stitchTranscripts', () => {
  it('moves words and segments by their chunk start (chunks cut in silences)', () => {
    const out = stitchTranscripts(
      [
        part(0, 0, 10, transcript([[w(' Hello', 1, 1.4), w(' world.', 1.5, 2)], [w(' Second', 6, 6.5)]])),
        part(1, 10, 20.5, transcript([[w(' Third', 0.5, 1), w(' one.', 1.1, 1.6)]])),
      ],
      20.5,
    );
    expect(out.duration).toBe(20.5);
    expect(out.words.map((x) => [x.word, x.start, x.end])).toEqual([
      [' Hello', 1, 1.4],
      [' world.', 1.5, 2],
      [' Second', 6, 6.5],
      [' Third', 10.5, 11],
      [' one.', 11.1, 11.6],
    ]);
    expect(out.segments).toEqual([
      { start: 1, end: 2, text: 'Hello world.' },
      { start: 6, end: 6.5, text: 'Second' },
      { start: 10.5, end: 11.6, text: 'Third one.' },
    ]);
  });

  it('drops the words an overlap gave twice, keeping the copy owned by the middle of the overlap', () => {
    // Hard cut at 30 with a 2 s overlap: chunk 1 starts at 28. Boundary: 29.
    const a = transcript([
      [
        w(' the', 26.8, 27),
        w(' quick', 27.1, 27.5),
        w(' brown', 28.3, 28.7),
        w(' fox', 28.9, 29.3),
        w(' ju', 29.8, 30),
      ],
    ]);
    const b = transcript([
      [w(' brown', 0.32, 0.7), w(' fox', 0.92, 1.28), w(' jumps', 1.6, 2.1), w(' over', 2.2, 2.5)],
    ]);
    const out = stitchTranscripts([part(0, 0, 30, a), part(1, 28, 40, b)], 40);
    expect(text(out)).toBe('the quick brown fox jumps over');
    // "fox": middle 29.1 in chunk 0's copy is past the boundary, so chunk 1's copy (middle 29.1) is the one kept; once.
    expect(out.words.filter((x) => x.word.trim() === 'fox')).toHaveLength(1);
    // The half word "ju" at the hard cut of chunk 0 lies past the boundary: gone; its segment is rebuilt from its words.
    expect(out.segments).toEqual([
      { start: 26.8, end: 28.7, text: 'the quick brown' },
      { start: 28.92, end: 30.5, text: 'fox jumps over' },
    ]);
  });

  it("rebuilds a segment's text from the words as the offline engine gives them (no leading space, hyphen pieces)", () => {
    // engines/transcription/worker.py strips each word's leading space, and faster-whisper starts a word at a hyphen:
    // "USB-C" is "USB", "-C". Hard cut at 30 with a 2 s overlap (boundary 29): the half word "ju" is dropped, so the
    // first segment's text is rebuilt from its words.
    const a: Transcript = {
      language: 'en',
      duration: 30,
      segments: [{ start: 26.8, end: 30, text: 'the USB-C port ju' }],
      words: [w('the', 26.8, 27), w('USB', 27.1, 27.5), w('-C', 27.5, 27.7), w('port', 28.3, 28.7), w('ju', 29.8, 30)],
    };
    const b: Transcript = {
      language: 'en',
      duration: 12,
      segments: [{ start: 1.6, end: 2.5, text: 'jumps over' }],
      words: [w('jumps', 1.6, 2.1), w('over', 2.2, 2.5)],
    };
    const out = stitchTranscripts([part(0, 0, 30, a), part(1, 28, 40, b)], 40);
    expect(out.segments.map((s) => s.text)).toEqual(['the USB-C port', 'jumps over']);
  });

  it("keeps a minus number the engine began with a space apart in a rebuilt text, and the words' spaced", () => {
    // worker.py says which words faster-whisper began with a space: " is", " -5" are two words, " USB", "-C" one.
    const s = (word: string, start: number, end: number, spaced: boolean) => ({ ...w(word, start, end), spaced });
    const a: Transcript = {
      language: 'en',
      duration: 30,
      segments: [{ start: 26.8, end: 30, text: 'is -5 on USB-C ju' }],
      words: [
        s('is', 26.8, 27, true),
        s('-5', 27.1, 27.5, true),
        s('on', 27.5, 27.7, true),
        s('USB', 27.8, 28.2, true),
        s('-C', 28.2, 28.5, false),
        s('ju', 29.8, 30, true),
      ],
    };
    const b: Transcript = {
      language: 'en',
      duration: 12,
      segments: [{ start: 1.6, end: 2.5, text: 'jumps over' }],
      words: [s('jumps', 1.6, 2.1, true), s('over', 2.2, 2.5, true)],
    };
    const out = stitchTranscripts([part(0, 0, 30, a), part(1, 28, 40, b)], 40);
    expect(out.segments.map((x) => x.text)).toEqual(['is -5 on USB-C', 'jumps over']);
    expect(out.words.map((x) => [x.word, x.spaced])).toEqual([
      ['is', true],
      ['-5', true],
      ['on', true],
      ['USB', true],
      ['-C', false],
      ['jumps', true],
      ['over', true],
    ]);
  });

  it('keeps a word past the boundary that the chunk owning that time did not hear (a chunk starting mid-sentence)', () => {
    // Issue 30 item 5, measured on real-2sp-en-overlap (chunked-overlap.test.ts): a chunk that starts 1 s before the
    // end of a sentence skips its last words (Whisper's first timestamp lands on the next sentence), so "curtain",
    // past the boundary (29) in chunk 0, was dropped though chunk 1 gave nothing at that time.
    const a = transcript([[w(' behind', 28.2, 28.6), w(' the', 28.6, 28.9), w(' curtain', 28.95, 29.2)]]);
    const b = transcript([[w(' He', 1.5, 1.8), w(' began', 1.8, 2.1)]]);
    const out = stitchTranscripts([part(0, 0, 30, a), part(1, 28, 40, b)], 40);
    expect(text(out)).toBe('behind the curtain He began');
    expect(out.segments.map((s) => s.text)).toEqual(['behind the curtain', 'He began']);
  });

  it('drops the words an engine piled without duration at a chunk’s end (a repetition loop), keeping the rest', () => {
    // Issue 30 item 5, measured on real-2sp-radio-seam (chunk-seam-loop.test.ts): a chunk of 9.538 s ending 0.4 s after
    // speech came back with "USB -C to the USB -C to the …", every word of the loop at 9.51–9.51 s.
    const loop = [' to', ' the', ' USB', '-C', ' to', ' the', ' USB', '-C'].map((x) => w(x, 9.51, 9.51, 0.9));
    const a = transcript([[w(' a', 6.25, 6.61), w(' Logitech', 6.67, 7.21), w(' USB', 7.85, 9.03), ...loop]]);
    const b = transcript([[w(" It's", 0.3, 0.62), w(' easy', 0.62, 0.82)]]);
    const out = stitchTranscripts([part(0, 0, 9.538, a), part(1, 9.538, 12.647, b)], 12.647);
    expect(text(out)).toBe("a Logitech USB It's easy");
    expect(out.segments.map((s) => s.text)).toEqual(['a Logitech USB', "It's easy"]);
    // A word with a duration at the end, or without one elsewhere, stays; so does the loop when asked to keep it.
    const c = transcript([[w(' go', 2, 2), w(' ahead', 9.45, 9.53)]]);
    expect(text(stitchTranscripts([part(0, 0, 9.538, c)], 9.538))).toBe('go ahead');
    expect(stitchTranscripts([part(0, 0, 9.538, a)], 9.538, { dropUnplacedWords: false }).words).toHaveLength(11);
  });

  it('counts a word seen by both chunks at about the same time around the boundary once (the more confident copy)', () => {
    // Boundary 29: chunk 0 places "fox" at 28.85–29.1 (middle 28.975, its own), chunk 1 at 28.95–29.25 (middle 29.1, its own).
    const a = transcript([[w(' brown', 28.3, 28.7), w(' fox', 28.85, 29.1, 0.6)]]);
    const b = transcript([[w(' Fox', 0.95, 1.25, 0.95), w(' jumps', 1.6, 2.1)]]);
    const out = stitchTranscripts([part(0, 0, 30, a), part(1, 28, 40, b)], 40);
    expect(out.words.map((x) => [x.word, x.start, x.confidence])).toEqual([
      [' brown', 28.3, 0.9],
      [' Fox', 28.95, 0.95],
      [' jumps', 29.6, 0.9],
    ]);
    // Different words at the same time are both kept.
    const c = transcript([[w(' box', 0.95, 1.25)]]);
    expect(text(stitchTranscripts([part(0, 0, 30, a), part(1, 28, 40, c)], 40))).toBe('brown fox box');
  });

  it('keeps words in time order and inside [0, duration] even when an engine gives odd times', () => {
    const a = transcript([[w(' a', -0.2, 0.1), w(' b', 0.5, 0.4), w(' c', 0.3, 0.6)]]);
    const b = transcript([[w(' d', 0.1, 0.3), w(' e', 4.8, 5.6)]]);
    const out = stitchTranscripts([part(1, 5, 10, b), part(0, 0, 5, a)], 10); // given out of order
    expect(out.words.map((x) => x.word.trim())).toEqual(['a', 'c', 'b', 'd', 'e']);
    let previous = 0;
    for (const x of out.words) {
      expect(x.start).toBeGreaterThanOrEqual(previous);
      expect(x.end).toBeGreaterThanOrEqual(x.start);
      expect(x.start).toBeGreaterThanOrEqual(0);
      expect(x.end).toBeLessThanOrEqual(10);
      previous = x.start;
    }
    expect(out.words.at(-1)!.end).toBe(10);
  });

  it('handles empty chunks, no chunks, and chunks without word timings', () => {
    const silent = transcript([], 'en');
    const out = stitchTranscripts(
      [part(0, 0, 10, silent), part(1, 10, 20, transcript([[w(' hi', 1, 1.3)]])), part(2, 20, 30, silent)],
      30,
    );
    expect(out.words.map((x) => [x.word, x.start])).toEqual([[' hi', 11]]);
    expect(out.segments).toEqual([{ start: 11, end: 11.3, text: 'hi' }]);
    expect(stitchTranscripts([], 0)).toEqual({ language: '', duration: 0, segments: [], words: [] });
    const noWords: Transcript = {
      language: 'en',
      duration: 12,
      segments: [
        { start: 0.5, end: 2, text: 'one' },
        { start: 11, end: 11.9, text: 'two' },
      ],
      words: [],
    };
    const segs = stitchTranscripts(
      [
        part(0, 0, 12, noWords),
        part(1, 10, 20, {
          ...noWords,
          segments: [
            { start: 0.8, end: 1.9, text: 'two' },
            { start: 3, end: 4, text: 'three' },
          ],
        }),
      ],
      20,
    );
    expect(segs.segments).toEqual([
      { start: 0.5, end: 2, text: 'one' },
      { start: 10.8, end: 11.9, text: 'two' },
      { start: 13, end: 14, text: 'three' },
    ]);
  });

  it('picks the language of the most words', () => {
    const en = transcript([[w(' one', 1, 2), w(' two', 3, 4)]], 'en');
    const de = transcript([[w(' eins', 1, 2), w(' zwei', 3, 4), w(' drei', 5, 6)]], 'de');
    expect(stitchTranscripts([part(0, 0, 10, en), part(1, 10, 20, de)], 20).language).toBe('de');
    expect(
      stitchTranscripts([part(0, 0, 10, en), part(1, 10, 20, transcript([[w(' a', 1, 2), w(' b', 3, 4)]], 'fr'))], 20)
        .language,
    ).toBe('en');
    expect(
      stitchTranscripts([part(0, 0, 10, transcript([], 'nl')), part(1, 10, 20, transcript([], 'en'))], 20).language,
    ).toBe('nl');
  });
});
