/**
 * Diarization error rate as NIST's md-eval scores it: (missed speech + false alarm + speaker confusion) / reference
 * speech, on 10 ms frames, with overlapping speech scored (a frame where two reference speakers talk counts twice).
 * Per scored frame with R reference and H hypothesis speakers of whom C are matched by the mapping:
 * missed max(0, R − H), false alarm max(0, H − R), confusion min(R, H) − C; the reference speech is the sum of R.
 * The hypothesis speakers are mapped one-to-one onto the reference speakers so as to match the most speaker-time
 * (exhaustive search: a few speakers). A collar around every reference boundary (start and end of each stretch) is
 * not scored.
 */

export interface Stretch<S> {
  start: number;
  end: number;
  speaker: S;
}

export interface DerResult {
  der: number;
  missed: number;
  falseAlarm: number;
  confusion: number;
  /** Scored reference speech, speaker-seconds (overlapping speech counted once per speaker). */
  speech: number;
  /** Reference speaker → hypothesis speaker of the optimal mapping (absent: unmapped). */
  mapping: Map<string, string>;
}

const FRAME = 0.01;

/** The speakers talking in each frame (a stretch covers frames [round(start/FRAME), round(end/FRAME))). */
function frames<S>(stretches: readonly Stretch<S>[], count: number): Set<string>[] {
  const out = Array.from({ length: count }, () => new Set<string>());
  for (const s of stretches) {
    for (let f = Math.max(0, Math.round(s.start / FRAME)); f < Math.min(count, Math.round(s.end / FRAME)); f++)
      out[f]!.add(String(s.speaker));
  }
  return out;
}

export function diarizationErrorRate<R, H>(
  reference: readonly Stretch<R>[],
  hypothesis: readonly Stretch<H>[],
  collarSeconds = 0.25,
): DerResult {
  const end = Math.max(0, ...reference.map((r) => r.end), ...hypothesis.map((h) => h.end));
  const count = Math.ceil(end / FRAME) + 1;
  const ref = frames(reference, count);
  const hyp = frames(hypothesis, count);
  const scored = new Array<boolean>(count).fill(true);
  const collar = Math.round(collarSeconds / FRAME);
  for (const r of reference) {
    for (const edge of [Math.round(r.start / FRAME), Math.round(r.end / FRAME)]) {
      for (let f = Math.max(0, edge - collar); f < Math.min(count, edge + collar); f++) scored[f] = false;
    }
  }
  const overlap = new Map<string, Map<string, number>>();
  let speechFrames = 0;
  let missed = 0;
  let falseAlarm = 0;
  let paired = 0;
  const refSpeakers = new Set<string>();
  const hypSpeakers = new Set<string>();
  for (let f = 0; f < count; f++) {
    if (!scored[f]) continue;
    const r = ref[f]!;
    const h = hyp[f]!;
    for (const s of r) refSpeakers.add(s);
    for (const s of h) hypSpeakers.add(s);
    speechFrames += r.size;
    missed += Math.max(0, r.size - h.size);
    falseAlarm += Math.max(0, h.size - r.size);
    paired += Math.min(r.size, h.size);
    for (const rs of r) {
      const row = overlap.get(rs) ?? new Map<string, number>();
      for (const hs of h) row.set(hs, (row.get(hs) ?? 0) + 1);
      overlap.set(rs, row);
    }
  }
  const refs = [...refSpeakers];
  const hyps = [...hypSpeakers];
  let bestMatched = 0;
  let bestMapping = new Map<string, string>();
  const search = (i: number, used: Set<string>, matched: number, mapping: Map<string, string>) => {
    if (i === refs.length) {
      if (matched > bestMatched || bestMapping.size === 0) [bestMatched, bestMapping] = [matched, new Map(mapping)];
      return;
    }
    const r = refs[i]!;
    search(i + 1, used, matched, mapping);
    for (const h of hyps) {
      if (used.has(h)) continue;
      used.add(h);
      mapping.set(r, h);
      search(i + 1, used, matched + (overlap.get(r)?.get(h) ?? 0), mapping);
      mapping.delete(r);
      used.delete(h);
    }
  };
  search(0, new Set(), 0, new Map());
  for (const [r, h] of [...bestMapping]) if ((overlap.get(r)?.get(h) ?? 0) === 0) bestMapping.delete(r);
  // A matched speaker-frame is one where both the reference speaker and its mapped hypothesis speaker talk; the
  // mapping is one-to-one, so at most min(R, H) of a frame's pairs match.
  const confusion = paired - bestMatched;
  return {
    der: speechFrames === 0 ? 0 : (missed + falseAlarm + confusion) / speechFrames,
    missed: missed * FRAME,
    falseAlarm: falseAlarm * FRAME,
    confusion: confusion * FRAME,
    speech: speechFrames * FRAME,
    mapping: bestMapping,
  };
}
