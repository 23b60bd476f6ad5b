import { describe, expect, it } from 'vitest';
import {
  normaliseSilences,
  planChunks,
  SilenceLogParser,
  validateChunking,
  type AudioChunk,
  type ChunkingOptions,
  type Silence,
} from '../../../../adapters/providers/transcription/chunking.js';

const opts: ChunkingOptions = { targetSeconds: 300, minSeconds: 30, maxSeconds: 600, overlapSeconds: 2 };

/** The plan covers [0, duration] with no gap; neighbours touch, or overlap by exactly `overlap` after a hard cut. */
function checkCover(chunks: AudioChunk[], duration: number, o = opts): void {
  expect(chunks[0]!.start).toBe(0);
  expect(chunks.at(-1)!.end).toBe(duration);
  for (const [i, c] of chunks.entries()) {
    expect(c.index).toBe(i);
    expect(c.end).toBeGreaterThan(c.start);
    expect(c.end - c.start).toBeLessThanOrEqual(o.maxSeconds + 1e-9);
    if (chunks.length > 1) expect(c.end - c.start).toBeGreaterThanOrEqual(o.minSeconds - 1e-9);
    if (i > 0) {
      const prev = chunks[i - 1]!;
      expect(c.start).toBeLessThanOrEqual(prev.end);
      expect(
        [0, o.overlapSeconds].some((ov) => Math.abs(prev.end - c.start - ov) < 1e-9),
        `overlap ${prev.end - c.start}`,
      ).toBe(true);
    }
  }
}

const inside = (t: number, silences: Silence[]) => silences.some((s) => t > s.start && t < s.end);

describe('planChunks', () => {
  it('cuts inside silences near the target length when there are many', () => {
    const duration = 3600;
    const silences = Array.from({ length: 360 }, (_, i) => ({ start: i * 10 + 7, end: i * 10 + 7.8 })); // every 10 s
    const chunks = planChunks(duration, silences, opts);
    checkCover(chunks, duration);
    for (const c of chunks.slice(0, -1)) expect(inside(c.end, silences), `cut ${c.end}`).toBe(true);
    for (const c of chunks.slice(0, -2)) expect(Math.abs(c.end - c.start - 300)).toBeLessThanOrEqual(5);
    expect(chunks.every((c, i) => i === 0 || c.start === chunks[i - 1]!.end)).toBe(true); // no overlap on silence cuts
  });

  it('prefers the longer of two silences equally near the target, and cuts in its middle (whole milliseconds)', () => {
    const chunks = planChunks(
      1000,
      [
        { start: 299, end: 299.5 },
        { start: 300.25, end: 301.25 },
      ],
      opts,
    );
    expect(chunks[0]!.end).toBe(300.75); // both 0.75 s from the target; the second is longer
    // Less than two targets left: aimed at the middle of the rest (350 of 700), no short last chunk.
    const balanced = planChunks(
      700,
      [
        { start: 399, end: 400 },
        { start: 349.5, end: 350.5 },
      ],
      { ...opts, targetSeconds: 400 },
    );
    expect(balanced.map((c) => [c.start, c.end])).toEqual([
      [0, 350],
      [350, 700],
    ]);
    const c2 = planChunks(
      1000,
      [
        { start: 299.5, end: 299.7 },
        { start: 300.1, end: 300.5 },
      ],
      opts,
    );
    expect(c2[0]!.end).toBe(300.3);
  });

  it('hard-cuts at the max length with an overlap when there is no silence', () => {
    const chunks = planChunks(1500, [], opts);
    checkCover(chunks, 1500);
    expect(chunks.map((c) => [c.start, c.end])).toEqual([
      [0, 600],
      [598, 1198],
      [1196, 1500],
    ]);
  });

  it('keeps the last chunk at least the minimum long (cut window ends min before the end)', () => {
    const chunks = planChunks(610, [], opts);
    expect(chunks.map((c) => [c.start, c.end])).toEqual([
      [0, 580],
      [578, 610],
    ]);
    // A silence past duration − min is not used.
    const c2 = planChunks(610, [{ start: 595, end: 596 }], opts);
    expect(c2[0]!.end).toBe(580);
  });

  it('ignores silences at the edges of the audio and outside the window', () => {
    const silences = [
      { start: 0, end: 12 },
      { start: 5, end: 29.9 }, // ends before start + min
      { start: 1490, end: 1500 },
    ];
    const chunks = planChunks(1500, silences, opts);
    checkCover(chunks, 1500);
    expect(chunks[0]!.end).toBe(600); // no usable silence: hard cut
  });

  it('gives one chunk for audio no longer than the max, none for empty audio', () => {
    expect(planChunks(600, [{ start: 100, end: 200 }], opts)).toEqual([{ index: 0, start: 0, end: 600 }]);
    expect(planChunks(3.2, [], opts)).toEqual([{ index: 0, start: 0, end: 3.2 }]);
    expect(planChunks(0, [], opts)).toEqual([]);
    expect(planChunks(Number.NaN, [], opts)).toEqual([]);
  });

  it('handles silences exactly on the window bounds: a cut strictly inside a silence, never on its edge', () => {
    // Window of the first cut: [30, 600]. A silence ending exactly at 30 and one starting exactly at 600 are unusable.
    const edges = [
      { start: 20, end: 30 },
      { start: 600, end: 610 },
    ];
    expect(planChunks(1500, edges, opts)[0]!.end).toBe(600); // hard cut
    // A silence that straddles the upper bound: the cut clamps to 600, still inside it.
    const c2 = planChunks(1500, [{ start: 599, end: 640 }], opts);
    expect(c2[0]!.end).toBe(600);
    expect(c2[1]!.start).toBe(600);
    // A silence straddling the lower bound (start + min).
    const c3 = planChunks(1500, [{ start: 10, end: 31 }], opts);
    expect(c3[0]!.end).toBe(30);
    checkCover(c3, 1500);
  });

  it('covers long audio with small chunks and random silences, every cut in a silence or a hard cut', () => {
    const small: ChunkingOptions = { targetSeconds: 8, minSeconds: 3, maxSeconds: 12, overlapSeconds: 1 };
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const silences: Silence[] = [];
    for (let t = 0; t < 600;) {
      t += 1 + random() * 25;
      const d = 0.3 + random() * 2;
      silences.push({ start: t, end: t + d });
      t += d;
    }
    const duration = 600;
    const chunks = planChunks(duration, silences, small);
    checkCover(chunks, duration, small);
    for (const [i, c] of chunks.slice(0, -1).entries()) {
      const next = chunks[i + 1]!;
      if (next.start === c.end) expect(inside(c.end, normaliseSilences(silences, duration))).toBe(true);
    }
  });

  it('rejects inconsistent options', () => {
    expect(() => validateChunking({ ...opts, minSeconds: 0 })).toThrow(RangeError);
    expect(() => validateChunking({ ...opts, targetSeconds: 700 })).toThrow(/min <= target <= max/);
    expect(() => validateChunking({ ...opts, overlapSeconds: 30 })).toThrow(/overlap/);
  });
});

describe('normaliseSilences', () => {
  it('sorts, clips, closes an open silence at the end and merges overlaps', () => {
    expect(
      normaliseSilences(
        [
          { start: 50, end: Infinity },
          { start: -0.01, end: 1 },
          { start: 10, end: 12 },
          { start: 11, end: 13 },
          { start: 20, end: 20 },
        ],
        55,
      ),
    ).toEqual([
      { start: 0, end: 1 },
      { start: 10, end: 13 },
      { start: 50, end: 55 },
    ]);
  });
});

describe('SilenceLogParser', () => {
  it('reads silencedetect lines among the rest of the log, only with the filter prefix at the line start', () => {
    const p = new SilenceLogParser();
    for (const line of [
      "Input #0, wav, from 'file:x.wav':",
      '  Metadata:',
      '    title           : [silencedetect @ 0x1] silence_start: 3',
      '                    : [silencedetect @ 0x1] silence_end: 4 | silence_duration: 1',
      '[silencedetect @ 0x560f65feba40] silence_start: -0.000125',
      '[silencedetect @ 0x560f65feba40] silence_end: 1.50009 | silence_duration: 1.50009',
      'size=N/A time=00:00:05.00 bitrate=N/A speed=5.64e+03x',
      '[silencedetect @ 0x560f65feba40] silence_start: 3.5',
      '[silencedetect @ 0x560f65feba40] silence_start: 3.7', // repeated start: the first one stands
      '[silencedetect @ 0x560f65feba40] silence_end: 5 | silence_duration: 1.5',
      '[silencedetect @ 0x560f65feba40] silence_end: 7.25 | silence_duration: 0.5', // end without start
      '[silencedetect @ 0x560f65feba40] silence_start: 1.2e1',
    ])
      p.line(line);
    expect(p.result()).toEqual([
      { start: 0, end: 1.50009 },
      { start: 3.5, end: 5 },
      { start: 0, end: 7.25 },
      { start: 12, end: Infinity },
    ]);
  });
});
