/**
 * Calibration of the speaker clustering (adapters/providers/transcription/speakers.ts) on generated espeak-ng
 * dialogues: embeds each dialogue once through the offline engine, then sweeps the clustering's thresholds and prints
 * the diarization error rate (0.25 s collar) per voice count, and the region-level same/cross-speaker similarities.
 *
 *   npx tsx bench/speakers.ts [--dialogues 4] [--turns 14] [--out /tmp/paycore-speakers] [--similar]
 *
 * --similar: two-voice dialogues of the speech tests' voices (en-us and en-gb+f3), which the encoder hardly tells
 * apart (0.89 against 0.84–0.95 for one voice with itself), instead of 2, 3 and 4 of DIALOGUE_VOICES.
 *
 * Nothing but the engine (scripts/setup.sh) is needed; no servers. Figures: engines/transcription/README.md.
 *
 * This calibrated Resemblyzer's DEFAULT_CLUSTER_OPTIONS (before issue 30). The installed encoder is now CAM++, which
 * hears espeak-ng's voices as one speaker; to rerun the calibration, install Resemblyzer's weights and point
 * TRANSCRIPTION_SPEAKER_MODEL at its pretrained.pt (engines/transcription/README.md). Real voices:
 * bench/speech-corpus/bench.ts.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { OfflineWhisperProvider } from '../adapters/providers/transcription/offline-whisper.provider.js';
import {
  clusterSpeakers,
  DEFAULT_CLUSTER_OPTIONS,
  type ClusterOptions,
  type SpeakerRegions,
} from '../adapters/providers/transcription/speakers.js';
import { diarizationErrorRate } from '../support/der.js';
import { DIALOGUE_VOICES, makeDialogue, type Dialogue } from '../support/speaker-dialogue.js';
import { VOICES } from '../support/speech-corpus.js';

const { values } = parseArgs({
  options: {
    dialogues: { type: 'string', default: '4' },
    turns: { type: 'string', default: '14' },
    out: { type: 'string', default: '/tmp/paycore-speakers' },
    similar: { type: 'boolean', default: false },
  },
});
const perCount = Number(values.dialogues);
const turns = Number(values.turns);
const out = values.out;
await mkdir(out, { recursive: true });

interface Sample {
  voices: number;
  dialogue: Dialogue;
  regions: SpeakerRegions;
}

const provider = new OfflineWhisperProvider({
  transcription: false,
  timeoutMs: 600_000,
  ...(process.env['TRANSCRIPTION_SPEAKER_MODEL'] ? { speakerModel: process.env['TRANSCRIPTION_SPEAKER_MODEL'] } : {}),
});
const samples: Sample[] = [];
let audioSeconds = 0;
let engineMs = 0;
try {
  for (const voices of values.similar ? [2] : [2, 3, 4]) {
    for (let d = 0; d < perCount; d++) {
      const name = `${values.similar ? 'similar' : 'v'}${voices}-d${d}-t${turns}`;
      const set = values.similar
        ? VOICES.map((v) => ({ voice: v.voice, pitch: 50, speed: v.speed }))
        : DIALOGUE_VOICES.slice(0, voices);
      const dialogue = await makeDialogue(out, name, { voices: set, turns, seed: 1000 * voices + d });
      const cache = join(out, `${name}.regions.json`);
      let regions: SpeakerRegions;
      try {
        regions = JSON.parse(await readFile(cache, 'utf8')) as SpeakerRegions;
      } catch {
        const t0 = performance.now();
        regions = await provider.embedSpeakers({ path: dialogue.path });
        engineMs += performance.now() - t0;
        audioSeconds += dialogue.duration;
        await writeFile(cache, JSON.stringify(regions));
      }
      samples.push({ voices, dialogue, regions });
    }
  }
} finally {
  await provider.close();
}
if (audioSeconds > 0)
  console.log(
    `engine: ${audioSeconds.toFixed(0)} s of audio in ${(engineMs / 1000).toFixed(1)} s (real-time factor ${(engineMs / 1000 / audioSeconds).toFixed(3)})`,
  );

// Region-level similarities: a region's true speaker is the turn it overlaps most.
const same: number[] = [];
const cross: number[] = [];
for (const s of samples) {
  const labelled = s.regions.regions.map((r) => {
    let best = -1;
    let bestOverlap = 0;
    for (const t of s.dialogue.turns) {
      const o = Math.min(r.end, t.end) - Math.max(r.start, t.start);
      if (o > bestOverlap) [best, bestOverlap] = [t.speaker, o];
    }
    return { r, speaker: best };
  });
  for (let i = 0; i < labelled.length; i++) {
    for (let j = i + 1; j < labelled.length; j++) {
      const a = labelled[i]!;
      const b = labelled[j]!;
      if (a.speaker < 0 || b.speaker < 0) continue;
      const sim = a.r.embedding.reduce((acc, v, k) => acc + v * b.r.embedding[k]!, 0);
      (a.speaker === b.speaker ? same : cross).push(sim);
    }
  }
}
const stats = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(3);
  return `n=${xs.length} p5=${q(0.05)} p50=${q(0.5)} p95=${q(0.95)} mean=${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(3)}`;
};
console.log(`same speaker regions:  ${stats(same)}`);
console.log(`cross speaker regions: ${stats(cross)}`);

function evaluate(options: Partial<ClusterOptions>): {
  byVoices: Map<number, number>;
  speakersRight: number;
  overall: number;
} {
  const totals = new Map<number, { err: number; speech: number }>();
  let speakersRight = 0;
  let err = 0;
  let speech = 0;
  for (const s of samples) {
    const hyp = clusterSpeakers(s.regions.regions, options);
    const result = diarizationErrorRate(s.dialogue.turns, hyp);
    const e = result.der * result.speech;
    const t = totals.get(s.voices) ?? { err: 0, speech: 0 };
    totals.set(s.voices, { err: t.err + e, speech: t.speech + result.speech });
    err += e;
    speech += result.speech;
    if (new Set(hyp.map((h) => h.speaker)).size === s.voices) speakersRight++;
  }
  return {
    byVoices: new Map([...totals].map(([v, t]) => [v, t.err / t.speech])),
    speakersRight,
    overall: err / speech,
  };
}

console.log(`\n${samples.length} dialogues, ${turns} turns each; DER by voice count (speakers counted right)`);
console.log('threshold groupThreshold minSpeakerSeconds |   2 voices   3 voices   4 voices |  overall  count-right');
for (const threshold of [0.6, 0.64, 0.66, 0.68, 0.7, 0.72, 0.74, 0.76, 0.78, 0.8]) {
  for (const groupThreshold of [0.85, 0.9]) {
    for (const minSpeakerSeconds of [1, 5]) {
      const r = evaluate({ threshold, groupThreshold, minSpeakerSeconds });
      const cells = [2, 3, 4].map((v) => (r.byVoices.get(v) ?? NaN).toFixed(3).padStart(10)).join(' ');
      const mark =
        threshold === DEFAULT_CLUSTER_OPTIONS.threshold &&
        groupThreshold === DEFAULT_CLUSTER_OPTIONS.groupThreshold &&
        minSpeakerSeconds === DEFAULT_CLUSTER_OPTIONS.minSpeakerSeconds
          ? '  <- default'
          : '';
      console.log(
        `${threshold.toFixed(2).padStart(9)} ${groupThreshold.toFixed(2).padStart(14)} ${String(minSpeakerSeconds).padStart(17)} | ${cells} | ${r.overall.toFixed(3).padStart(8)} ${String(r.speakersRight).padStart(6)}/${samples.length}${mark}`,
      );
    }
  }
}
