import { joinWords } from '../../../domain/transcript-words.js';
import {
  speakerLabel,
  type LabelledSegment,
  type LabelledTranscript,
  type LabelledWord,
} from '../../documents/transcript-formats.js';
import type { Transcript, TranscriptWord } from './transcription-provider.js';

/**
 * Anonymous speakers, offline, in three steps the pipeline can spread over chunks of a long recording:
 *
 * 1. `SpeakerEmbedder.embedSpeakers({ path })` (OfflineWhisperProvider): the speech regions of one chunk's audio
 *    with one voice embedding each (engines/transcription/speakers.py: Silero VAD, regions of at most 3 s, the
 *    Resemblyzer encoder run in numpy). Plain JSON, times relative to the chunk: the caller moves them onto the
 *    source's timeline (`offsetRegions`) and may store them between activities (about 2 KB a region, 1.5 MB an hour).
 * 2. `clusterSpeakers(allRegions)`: one clustering over every chunk's regions, in bounded time and memory (below).
 * 3. `assignSpeakers(transcript, turns)`: speaker labels (`SPEAKER_1`, … by first appearance) on words and segments.
 */

/** One stretch of speech and its voice embedding (the encoder's 192 floats for CAM++, 256 for Resemblyzer; L2 norm 1, 4 decimals). */
export interface SpeakerRegion {
  start: number;
  end: number;
  embedding: number[];
  /**
   * The share of the region's energy above 4 kHz (engines/transcription/speakers.py; 3 significant digits): a few per
   * cent for wide-band speech, under 0.001 for audio that went through a telephone line or was sampled at 8 kHz.
   * Absent in regions stored before it was measured (taken as wide-band).
   */
  highBand?: number;
}

export interface SpeakerRegions {
  /** Seconds of audio the engine decoded. */
  duration: number;
  regions: SpeakerRegion[];
}

export interface SpeakerEmbedRequest {
  /** A local audio or video file (any container ffmpeg reads; its first audio stream). */
  path: string;
  signal?: AbortSignal;
}

export interface SpeakerEmbedder {
  embedSpeakers(request: SpeakerEmbedRequest): Promise<SpeakerRegions>;
}

/** A stretch of time given to one speaker; `speaker` is `SPEAKER_1`, `SPEAKER_2`, … numbered by first appearance. */
export interface SpeakerTurn {
  start: number;
  end: number;
  speaker: string;
}

/** Moves a chunk's regions onto the source's timeline (the chunk starts `offsetSeconds` into the source). */
export function offsetRegions(regions: readonly SpeakerRegion[], offsetSeconds: number): SpeakerRegion[] {
  const round = (t: number) => Math.round((t + offsetSeconds) * 1000) / 1000;
  return regions.map((r) => ({
    start: round(r.start),
    end: round(r.end),
    embedding: r.embedding,
    ...(r.highBand === undefined ? {} : { highBand: r.highBand }),
  }));
}

export interface ClusterOptions {
  /**
   * Two clusters of regions are one speaker when their average linkage (the duration-weighted mean cosine over their
   * pairs of regions) is at least this. Calibrated with the other two on the real corpus's tune split
   * (bench/speech-corpus/) and kept where the espeak-ng dialogues stay apart (engines/transcription/README.md).
   */
  threshold: number;
  /** First pass: a region joins the most similar running group when at least this similar, else starts one. */
  groupThreshold: number;
  /** First pass: at most this many groups (then a region joins the most similar one); bounds time and memory. */
  maxGroups: number;
  /**
   * A speaker heard for less than this in total (seconds), or for less than `minSpeakerShare` of all speech when that
   * is less, is merged into the most similar other one (a few stray regions are not a person). `Infinity` leaves the
   * share alone as the floor. Either way the floor is never under `minSpeakerFloorSeconds`: the floor is
   * max(minSpeakerFloorSeconds, min(minSpeakerSeconds, minSpeakerShare × speech)).
   */
  minSpeakerSeconds: number;
  minSpeakerShare: number;
  minSpeakerFloorSeconds: number;
  /** Consecutive regions of one speaker separated by at most this (seconds) make one turn. */
  joinGapSeconds: number;
  /**
   * Below `threshold`, two clusters still merge when their linkage is at least `lowThreshold` and at least `relative`
   * times the lower of the two clusters' own levels (the mean cosine within each). Real voices are less alike to
   * themselves than espeak-ng's, so what separates speakers is relative to the recording (README, "Speakers").
   */
  lowThreshold: number;
  relative: number;
  /**
   * What `relative` is measured against: `lower`, the lower of the two clusters' own levels; `pooled`, their own levels
   * together, the mean cosine over the pairs of distinct regions within either cluster (so each cluster's level counts
   * by how many pairs it is measured on: a small cluster's level barely moves it). With `pooled`, one person's
   * loosely heard regions and a few tight words of theirs still merge (the larger cluster's level decides), but two
   * people who each say a lot no longer merge because one of them is the looser.
   */
  relativeTo: 'lower' | 'pooled';
  /**
   * A speaker under the floor above still stays one of their own when they hold at least `minSpeakerFloorSeconds` and
   * their linkage to every other speaker is under `strangerMax` and under `strangerRelative` × that speaker's own level:
   * someone who says little and is unlike everyone else is not folded into someone else. `-Infinity` turns it off.
   */
  strangerMax: number;
  strangerRelative: number;
}

/**
 * For Resemblyzer's 256-value embeddings (the installed encoder): they keep the espeak-ng dialogues of the speaker tests
 * apart (their en-us+m3 and en-us+klatt voices are 0.66–0.71 alike, closer than different real people often are);
 * REAL_VOICE_CLUSTER_OPTIONS are calibrated on real voices (bench/speech-corpus/, tune split) and merge those two
 * espeak voices (engines/transcription/README.md, "Speakers on real voices").
 */
export const DEFAULT_CLUSTER_OPTIONS: Readonly<ClusterOptions> = Object.freeze({
  threshold: 0.72,
  groupThreshold: 0.9,
  maxGroups: 200,
  minSpeakerSeconds: 5,
  minSpeakerShare: 0.05,
  minSpeakerFloorSeconds: 0,
  joinGapSeconds: 1,
  lowThreshold: 0.68,
  relative: 0.78,
  relativeTo: 'lower',
  strangerMax: -Infinity,
  strangerRelative: 0,
});

/** Resemblyzer, calibrated on the real corpus's tune split: 13 of 14 speaker counts right, DER 0.072 (bench/README.md). */
export const REAL_VOICE_CLUSTER_OPTIONS: Readonly<ClusterOptions> = Object.freeze({
  ...DEFAULT_CLUSTER_OPTIONS,
  threshold: 0.74,
  lowThreshold: 0.6,
});

/**
 * For CAM++'s 192-value embeddings (engines/transcription/campplus.lock.json): plain average linkage at 0.30 and
 * speakers heard for at least 1 s, calibrated on the real corpus's tune split (bench/speech-corpus/compare-encoders.ts:
 * 0.26–0.32 get all 14 tune counts right, DER 0.041); held out, run once: DER 0.099, 14 of 16 counts right
 * (bench/README.md). The relative rule is off (lowThreshold 1).
 */
export const CAMPLUS_CLUSTER_OPTIONS: Readonly<ClusterOptions> = Object.freeze({
  ...DEFAULT_CLUSTER_OPTIONS,
  threshold: 0.3,
  minSpeakerSeconds: 1,
  lowThreshold: 1,
});

/**
 * CAM++ on telephone-band audio (300–3400 Hz or 8 kHz sampling: `isNarrowband`). The band-limit moves different
 * people's regions closer together (tune split, region cosines of different speakers: median 0.047 wide-band, 0.169 on
 * its phone-band copies; p95 0.267 and 0.352) while one person's stay where they were (median 0.478 and 0.480), so
 * the threshold is higher: 0.36, calibrated on the phone-band copies of the tune split with speakers.py's narrow-band
 * voice activity (bench/speech-corpus/bench.ts --phone --sweep: 0.34–0.35 and 0.37–0.40 get 13 of 14 counts right,
 * 0.36 14 of 14, DER 0.026; 0.30 9 of 14). Before that voice activity (Silero at 0.5 there) 0.34 was best (13 of 14).
 * Held-out phone-band copies, run once: DER 0.169 -> 0.103, but count right 75 % -> 56 % (bench/README.md, session 11).
 *
 * A speaker must hold at least 4 % of the recording's speech (`minSpeakerSeconds` off), session 12: on a larger
 * phone-band tune set (40 more conversations of tune voices through G.711, GSM, G.726, Speex and Opus with short turns,
 * `bench.ts --phone-tune`; 37 files with the tune copies, cached answers, `phone-sweep.ts`) the 1 s minimum at 0.36 got
 * 29 of 37 counts right (5 over: one person's short words as a speaker of their own, 3 under); the 4 % floor 31 of 37
 * (1 over, 5 under), DER 0.054 either way; 0.38 also 31, 0.34–0.35 30; a 5 % floor 30, 2 s minimum 27.
 * Session 13: and never under 1 s (`minSpeakerFloorSeconds`), so on a short recording (10 s of speech: 4 % is 0.4 s)
 * one sub-second region unlike its speaker's others is not a speaker of its own (wide-band tune file tune-2sp-1,
 * narrow-band by its codec2 voice: 3 speakers -> 2; no other tune file changes).
 *
 * Session 13, merging relative to the clusters' own levels: on all 54 phone-band tune files (the 40 above, all answered
 * now, and the 14 tune copies) most wrong counts were under-counts (15 of 16 at 0.36: a third or fourth person merged
 * at a linkage of 0.36–0.46), while each person's own regions were far more alike than that. Two clusters now merge
 * at a linkage of 0.5, or of at least 0.36 when that is also at least 0.62 × the lower of their own levels (the
 * relative rule, `lowThreshold` / `relative`): 38 -> 45 of 54 counts right (1 over, 15 -> 8 under), DER 0.058 ->
 * 0.035. A broad plateau (phone-sweep.ts): threshold 0.46–1, relative 0.60–0.65 all the same at lowThreshold 0.36;
 * lowThreshold 0.30–0.34 one file fewer; 0.42 over-counts (4). The wide-band tune split is unchanged (14 of 14).
 *
 * Session 14, someone who says little: 7 of the 8 under-counts left were not two people merged by the linkage but a
 * third or fourth person heard for 1–4 s (1.6–3.5 % of the speech, mostly the Common Voice speaker's short clips) and
 * folded in by the floor, though about 0.2–0.3 alike to everyone else. Such a speaker (at least 1 s) now stays when
 * their linkage to every other is under 0.30 and under 0.55 × that one's own level (`strangerMax`,
 * `strangerRelative`): 45 -> 49 of 54 counts right (1 -> 2 over, 8 -> 3 under), DER 0.035 -> 0.032. A plateau
 * (phone-sweep.ts): 0.28–0.32 × 0.50–0.65 give 49–50; the absolute bound alone is a knife edge (0.27 48, 0.28 50,
 * 0.29 48 with 3 over). The wide-band tune split is unchanged (14 of 14, DER 0.042).
 *
 * Session 15, two people who each say a lot: on the 66 phone-band tune files (the 54 and session 14's 12) the relative
 * rule's only merge of two true speakers that each held more than the floor was `phone-tune-4sp-10` (c2-morig 7.2 s,
 * own level 0.683, and ls-61 22.7 s, 0.800, linked at 0.457 >= 0.62 × 0.683). The merges it must keep were big
 * clusters taking pieces of their own speaker, whose own level is measured on few pairs. So `relative` is now measured
 * against both clusters' pairs together (`relativeTo: 'pooled'`; 0.62 × 0.791 there): that file 2 -> 3 speakers (DER
 * 0.129 -> 0.082), no other of the 66 files changes (58 of 66 counts right either way, DER 0.034 -> 0.033); the same
 * at relative 0.58–0.64 (phone-sweep.ts). Against the higher level instead, tune-1sp-1 splits (1 -> 2).
 */
export const CAMPLUS_NARROWBAND_CLUSTER_OPTIONS: Readonly<ClusterOptions> = Object.freeze({
  ...CAMPLUS_CLUSTER_OPTIONS,
  threshold: 0.5,
  lowThreshold: 0.36,
  relative: 0.62,
  minSpeakerSeconds: Infinity,
  minSpeakerShare: 0.04,
  minSpeakerFloorSeconds: 1,
  strangerMax: 0.3,
  strangerRelative: 0.55,
  relativeTo: 'pooled',
});

/**
 * A region is narrow-band when under this share of its energy lies above 4 kHz (wide-band speech: 0.004–0.05).
 * engines/transcription/speakers.py uses the same figure on a whole chunk to pick Silero's threshold.
 */
export const NARROWBAND_HIGH_SHARE = 0.0003;

/** Telephone-band input: at least half of the speech (by duration) in regions measured as narrow-band. */
export function isNarrowband(regions: readonly SpeakerRegion[]): boolean {
  let narrow = 0;
  let total = 0;
  for (const r of regions) {
    const d = Math.max(0, r.end - r.start);
    total += d;
    if (r.highBand !== undefined && r.highBand < NARROWBAND_HIGH_SHARE) narrow += d;
  }
  return total > 0 && narrow >= 0.5 * total;
}

/**
 * The defaults for an embedding length: CAM++'s (192; on narrow-band input its telephone-band setting) or
 * Resemblyzer's (any other).
 */
export function defaultClusterOptions(dim: number, narrowband = false): Readonly<ClusterOptions> {
  if (dim !== 192) return DEFAULT_CLUSTER_OPTIONS;
  return narrowband ? CAMPLUS_NARROWBAND_CLUSTER_OPTIONS : CAMPLUS_CLUSTER_OPTIONS;
}

function dot(a: Float32Array, ai: number, b: Float32Array, bi: number, dim: number): number {
  let s = 0;
  for (let k = 0; k < dim; k++) s += a[ai + k]! * b[bi + k]!;
  return s;
}

/**
 * Speaker turns from regions of one recording (every chunk's, on the source's timeline, any order).
 *
 * 1. One pass in time order: each region joins the most similar running group (cosine to the group's mean) when it
 *    is at least `groupThreshold` similar, else starts a new one, up to `maxGroups` (then it joins the nearest).
 *    Time O(regions × maxGroups), memory O(maxGroups) besides the input: 24,000 regions (20 hours) take about 2 s.
 * 2. Average-linkage agglomeration of the groups: the two clusters whose regions are most similar on average (mean
 *    cosine over all pairs, duration-weighted) merge while that mean is at least `threshold`, or at least
 *    `lowThreshold` and `relative` × the clusters' own level (`relativeTo`: the lower of the two levels, or both
 *    clusters' pairs together; a level is the mean cosine over pairs of distinct regions; with no such pair, the
 *    recording's median cosine of consecutive regions); then clusters
 *    heard for less than `minSpeakerSeconds` (or `minSpeakerShare` of the speech) merge into their most similar one.
 *    O(maxGroups³) at most, with a maintained matrix of the groups' dot products.
 * 3. Every region is given again to the speaker it is most similar to on average (undoes the first pass's order
 *    effects).
 * Speakers are numbered by first appearance; consecutive regions of one speaker become one turn.
 */
export function clusterSpeakers(
  regions: readonly SpeakerRegion[],
  options: Partial<ClusterOptions> = {},
): SpeakerTurn[] {
  // The embedding's length is the encoder's (CAM++ 192, Resemblyzer 256): the first region's; others are ignored.
  const DIM = regions.find((r) => r.embedding.length > 0)?.embedding.length ?? 0;
  const sorted = regions
    .filter((r) => r.embedding.length === DIM && r.end > r.start)
    .sort((a, b) => a.start - b.start || a.end - b.end);
  // Telephone-band recordings take their own threshold (CAMPLUS_NARROWBAND_CLUSTER_OPTIONS), decided over the whole
  // recording (every chunk's regions), so all chunks are clustered alike.
  const o = { ...defaultClusterOptions(DIM, isNarrowband(sorted)), ...options };
  const n = sorted.length;
  if (n === 0) return [];
  const emb = new Float32Array(n * DIM);
  const weight = new Float64Array(n);
  sorted.forEach((r, i) => {
    let norm = 0;
    for (const v of r.embedding) norm += v * v;
    norm = Math.sqrt(norm) || 1;
    for (let k = 0; k < DIM; k++) emb[i * DIM + k] = r.embedding[k]! / norm;
    weight[i] = r.end - r.start;
  });

  // 1. Online grouping (cosine to each group's normalised mean).
  const maxGroups = Math.max(1, Math.floor(o.maxGroups));
  const sums = new Float32Array(maxGroups * DIM);
  const unit = new Float32Array(maxGroups * DIM);
  const groupWeight = new Float64Array(maxGroups);
  const groupSquares = new Float64Array(maxGroups);
  let groups = 0;
  const groupOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let best = -1;
    let bestSim = -Infinity;
    for (let g = 0; g < groups; g++) {
      const s = dot(emb, i * DIM, unit, g * DIM, DIM);
      if (s > bestSim) [best, bestSim] = [g, s];
    }
    if (best < 0 || (bestSim < o.groupThreshold && groups < maxGroups)) best = groups++;
    groupOf[i] = best;
    groupWeight[best]! += weight[i]!;
    groupSquares[best]! += weight[i]! ** 2;
    for (let k = 0; k < DIM; k++) sums[best * DIM + k]! += weight[i]! * emb[i * DIM + k]!;
    const norm = Math.sqrt(dot(sums, best * DIM, sums, best * DIM, DIM)) || 1;
    for (let k = 0; k < DIM; k++) unit[best * DIM + k] = sums[best * DIM + k]! / norm;
  }

  // 2. Average-linkage agglomeration: the similarity of two clusters is the mean cosine over their pairs of regions
  //    (weighted by duration), dot(sumA, sumB) / (weightA · weightB); it does not grow with the clusters' size as the
  //    cosine of their means does. Sums merge by addition, so the matrix of dot products updates in O(clusters).
  const k = groups;
  const dots = new Float64Array(k * k);
  for (let a = 0; a < k; a++)
    for (let b = a; b < k; b++) dots[a * k + b] = dots[b * k + a] = dot(sums, a * DIM, sums, b * DIM, DIM);
  const clusterWeight = groupWeight.slice(0, k);
  const clusterSquares = groupSquares.slice(0, k);
  const parent = Int32Array.from({ length: k }, (_, g) => g);
  let alive = Array.from({ length: k }, (_, g) => g);
  const linkage = (a: number, b: number) => dots[a * k + b]! / (clusterWeight[a]! * clusterWeight[b]!);
  const merge = (a: number, b: number) => {
    const self = dots[a * k + a]! + 2 * dots[a * k + b]! + dots[b * k + b]!;
    for (const c of alive)
      if (c !== a && c !== b) dots[a * k + c] = dots[c * k + a] = dots[a * k + c]! + dots[b * k + c]!;
    dots[a * k + a] = self;
    clusterWeight[a]! += clusterWeight[b]!;
    clusterWeight[b] = 0;
    clusterSquares[a]! += clusterSquares[b]!;
    parent[b] = a;
    alive = alive.filter((c) => c !== b);
  };
  const mergeWhile = (accept: (sim: number, a: number, b: number) => boolean) => {
    for (;;) {
      let pair: [number, number] | null = null;
      let bestSim = -Infinity;
      for (let x = 0; x < alive.length; x++) {
        for (let y = x + 1; y < alive.length; y++) {
          const [a, b] = [alive[x]!, alive[y]!];
          const sim = linkage(a, b);
          if (sim > bestSim && accept(sim, a, b)) [pair, bestSim] = [[a, b], sim];
        }
      }
      if (!pair) return;
      merge(pair[0], pair[1]);
    }
  };
  // The recording's own same-speaker level: the median cosine of consecutive regions under 0.5 s apart (mostly one
  // speaker's); a cluster's own level: the mean cosine over its pairs of distinct regions (the recording's for a
  // cluster of one region).
  const adjacent: number[] = [];
  for (let i = 1; i < n; i++)
    if (sorted[i]!.start - sorted[i - 1]!.end <= 0.5) adjacent.push(dot(emb, i * DIM, emb, (i - 1) * DIM, DIM));
  adjacent.sort((x, y) => x - y);
  const level = adjacent.length ? adjacent[Math.floor(adjacent.length / 2)]! : 1;
  const levelOf = (cs: readonly number[]) => {
    let [pairs, sum] = [0, 0];
    for (const c of cs) {
      pairs += clusterWeight[c]! ** 2 - clusterSquares[c]!;
      sum += dots[c * k + c]! - clusterSquares[c]!;
    }
    return pairs > 1e-9 ? sum / pairs : level;
  };
  const within = (c: number) => levelOf([c]);
  const ownLevel = (a: number, b: number) =>
    o.relativeTo === 'pooled' ? levelOf([a, b]) : Math.min(within(a), within(b));
  mergeWhile((sim, a, b) => sim >= o.threshold || (sim >= o.lowThreshold && sim >= o.relative * ownLevel(a, b)));
  const totalSpeech = weight.reduce((a, b) => a + b, 0);
  const minSpeaker = Math.max(o.minSpeakerFloorSeconds, Math.min(o.minSpeakerSeconds, o.minSpeakerShare * totalSpeech));
  // The lighter of the two is folded in unless it is a stranger to the heavier (see `strangerMax`); small clusters
  // most alike merge first, so one person's pieces can gather into one such speaker.
  mergeWhile((sim, a, b) => {
    const [light, heavy] = clusterWeight[a]! < clusterWeight[b]! ? [a, b] : [b, a];
    if (clusterWeight[light]! >= minSpeaker) return false;
    return (
      clusterWeight[light]! < o.minSpeakerFloorSeconds ||
      sim >= o.strangerMax ||
      sim >= o.strangerRelative * within(heavy)
    );
  });

  // 3. Every region goes to the speaker it is most similar to on average (undoes the first pass's order effects).
  const root = (g: number): number => (parent[g] === g ? g : root(parent[g]!));
  const speakerSums = new Float32Array(k * DIM);
  for (let g = 0; g < k; g++) {
    const r = root(g);
    for (let d = 0; d < DIM; d++) speakerSums[r * DIM + d]! += sums[g * DIM + d]!;
  }
  const speakerOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let best = alive[0]!;
    let bestSim = -Infinity;
    for (const c of alive) {
      const sim = dot(emb, i * DIM, speakerSums, c * DIM, DIM) / clusterWeight[c]!;
      if (sim > bestSim) [best, bestSim] = [c, sim];
    }
    speakerOf[i] = best;
  }

  // Number by first appearance and join consecutive regions of one speaker.
  const number = new Map<number, number>();
  const turns: SpeakerTurn[] = [];
  for (let i = 0; i < n; i++) {
    const c = speakerOf[i]!;
    if (!number.has(c)) number.set(c, number.size);
    const speaker = speakerLabel(number.get(c)!);
    const r = sorted[i]!;
    const last = turns.at(-1);
    if (last && last.speaker === speaker && r.start - last.end <= o.joinGapSeconds)
      last.end = Math.max(last.end, r.end);
    else turns.push({ start: r.start, end: r.end, speaker });
  }
  return turns;
}

/** The speaker of the turn covering the word's middle, else the turn nearest to it (turns sorted by start). */
function speakerAt(turns: readonly SpeakerTurn[], start: number, end: number): string {
  const mid = (start + end) / 2;
  let lo = 0;
  let hi = turns.length - 1;
  while (lo < hi) {
    const m = (lo + hi + 1) >> 1;
    if (turns[m]!.start <= mid) lo = m;
    else hi = m - 1;
  }
  let best = turns[lo]!;
  let bestDistance = Infinity;
  for (let i = Math.max(0, lo - 2); i <= Math.min(turns.length - 1, lo + 2); i++) {
    const t = turns[i]!;
    const distance = mid < t.start ? t.start - mid : mid > t.end ? mid - t.end : 0;
    if (distance < bestDistance) [best, bestDistance] = [t, distance];
  }
  return best.speaker;
}

/** A speaker change inside a segment splits it only when the new speaker holds at least this long a run of words. */
const MIN_SPLIT_RUN_SECONDS = 0.5;

/**
 * Labels a transcript with speakers: each word gets the speaker whose turn covers its middle (else the nearest
 * turn); a segment is split where the speaker of its words changes for a run of at least 0.5 s (a shorter run, one
 * misheard word, stays inside), and each (part of a) segment takes the speaker who holds most of its words' time.
 * Without turns (no speech found) the transcript is returned unlabelled. Split parts get their words' text joined as
 * text is written (joinWords: spaces, none inside a hyphenated word), their first word's start and last word's end
 * (the first part keeps the segment's start, the last its end).
 */
export function assignSpeakers(transcript: Transcript, turns: readonly SpeakerTurn[]): LabelledTranscript {
  if (turns.length === 0) return { ...transcript, segments: [...transcript.segments], words: [...transcript.words] };
  const sortedTurns = [...turns].sort((a, b) => a.start - b.start);
  const words: LabelledWord[] = transcript.words.map((w) => ({
    ...w,
    speaker: speakerAt(sortedTurns, w.start, w.end),
  }));

  // Words of each segment: the segment whose span holds the word's middle, else the last one starting before it.
  const segs = transcript.segments;
  const byStart = segs.map((_, i) => i).sort((a, b) => segs[a]!.start - segs[b]!.start);
  const wordsOf: LabelledWord[][] = segs.map(() => []);
  let p = 0;
  for (const w of [...words].sort((a, b) => a.start - b.start)) {
    const mid = (w.start + w.end) / 2;
    while (p + 1 < byStart.length && segs[byStart[p + 1]!]!.start <= mid) p++;
    const current = byStart[p];
    if (current !== undefined) wordsOf[current]!.push(w);
  }

  const segments: LabelledSegment[] = [];
  segs.forEach((segment, s) => {
    const own = wordsOf[s]!;
    if (own.length === 0) {
      segments.push({ ...segment, speaker: speakerAt(sortedTurns, segment.start, segment.end) });
      return;
    }
    // Runs of one speaker; a run shorter than MIN_SPLIT_RUN_SECONDS joins the run before it (or after, at the start).
    const runs: LabelledWord[][] = [];
    for (const w of own) {
      const last = runs.at(-1);
      if (last && last[0]!.speaker === w.speaker) last.push(w);
      else runs.push([w]);
    }
    const span = (run: LabelledWord[]) => run.at(-1)!.end - run[0]!.start;
    const merged: LabelledWord[][] = [];
    for (const run of runs) {
      const last = merged.at(-1);
      if (last && (span(run) < MIN_SPLIT_RUN_SECONDS || last[0]!.speaker === run[0]!.speaker)) last.push(...run);
      else merged.push([...run]);
    }
    if (merged.length > 1 && span(merged[0]!) < MIN_SPLIT_RUN_SECONDS)
      merged.splice(0, 2, [...merged[0]!, ...merged[1]!]);
    if (merged.length === 1) {
      segments.push({ ...segment, speaker: majority(merged[0]!) });
      return;
    }
    merged.forEach((run, i) => {
      segments.push({
        start: i === 0 ? segment.start : run[0]!.start,
        end: i === merged.length - 1 ? segment.end : run.at(-1)!.end,
        text: joinWords(run, transcript.language),
        speaker: majority(run),
      });
    });
  });
  return { ...transcript, segments, words };
}

/** The speaker holding most of the words' time (the earliest such speaker on a tie). */
function majority(words: readonly (TranscriptWord & { speaker?: string })[]): string {
  const time = new Map<string, number>();
  for (const w of words)
    if (w.speaker) time.set(w.speaker, (time.get(w.speaker) ?? 0) + Math.max(0.01, w.end - w.start));
  let best = words[0]?.speaker ?? speakerLabel(0);
  for (const [speaker, t] of time) if (t > (time.get(best) ?? 0)) best = speaker;
  return best;
}
