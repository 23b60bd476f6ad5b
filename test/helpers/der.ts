/**
 * Diarization error rate: (missed speech + false alarm + speaker confusion) / reference speech, on 10 ms frames, with
 * the hypothesis speakers mapped one-to-one onto the reference speakers so as to match the most time (exhaustive
 * search: a few speakers), and a collar around every reference boundary that is not scored. One speaker per frame on
 * each side (the dialogues here have no overlapping speech).
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
  /** Scored reference speech, seconds. */
  speech: number;
  /** Reference speaker → hypothesis speaker of the optimal mapping (absent: unmapped). */
  mapping: Map<string, string>;
}

const FRAME = 0.01;

function frames<S>(stretches: readonly Stretch<S>[], count: number): (string | null)[] {
  const out: (string | null)[] = new Array<string | null>(count).fill(null);
  for (const s of stretches) {
    for (let f = Math.max(0, Math.round(s.start / FRAME)); f < Math.min(count, Math.round(s.end / FRAME)); f++) out[f] = String(s.speaker);
  }
  return out;
}

export function diarizationErrorRate<R, H>(reference: readonly Stretch<R>[], hypothesis: readonly Stretch<H>[], collarSeconds = 0.25): DerResult {
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
  let both = 0;
  for (let f = 0; f < count; f++) {
    if (!scored[f]) continue;
    const r = ref[f] ?? null;
    const h = hyp[f] ?? null;
    if (r !== null) speechFrames++;
    if (r !== null && h === null) missed++;
    if (r === null && h !== null) falseAlarm++;
    if (r !== null && h !== null) {
      both++;
      const row = overlap.get(r) ?? new Map<string, number>();
      row.set(h, (row.get(h) ?? 0) + 1);
      overlap.set(r, row);
    }
  }
  const refSpeakers = [...new Set(ref.filter((r): r is string => r !== null))];
  const hypSpeakers = [...new Set(hyp.filter((h): h is string => h !== null))];
  let bestMatched = -1;
  let bestMapping = new Map<string, string>();
  const search = (i: number, used: Set<string>, matched: number, mapping: Map<string, string>) => {
    if (i === refSpeakers.length) {
      if (matched > bestMatched) [bestMatched, bestMapping] = [matched, new Map(mapping)];
      return;
    }
    const r = refSpeakers[i]!;
    search(i + 1, used, matched, mapping);
    for (const h of hypSpeakers) {
      if (used.has(h)) continue;
      used.add(h);
      mapping.set(r, h);
      search(i + 1, used, matched + (overlap.get(r)?.get(h) ?? 0), mapping);
      mapping.delete(r);
      used.delete(h);
    }
  };
  search(0, new Set(), 0, new Map());
  const confusion = both - Math.max(0, bestMatched);
  const speech = speechFrames * FRAME;
  return {
    der: speechFrames === 0 ? 0 : (missed + falseAlarm + confusion) / speechFrames,
    missed: missed * FRAME,
    falseAlarm: falseAlarm * FRAME,
    confusion: confusion * FRAME,
    speech,
    mapping: bestMapping,
  };
}
