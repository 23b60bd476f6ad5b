/**
 * Speakers and words on the real speech corpus (bench/speech-corpus/README.md): per split (tune, held-out), the
 * diarization error rate (missed + false alarm + confusion over reference speech, optimal mapping, 0.25 s collar,
 * overlap scored: support/der.ts), the share of files whose speaker count is right, and the WER of the English
 * conversations whose every turn has a transcript. Per-file rows are printed for the tune split only; the held-out
 * split is reported as aggregates (it is never looked at to tune).
 *
 *   npx tsx bench/speech-corpus/bench.ts [--sweep] [--no-wer] [--tune-only] [--phone] [--similarity]
 *     [--phone-tune [--phone-tune-set s12|s14|s15]]
 *
 * --phone: every conversation's telephone-band copy instead (300–3400 Hz, 8 kHz mono, G.711 µ-law; made with ffmpeg
 * into `phone8k/` beside the corpus on first use, not committed). --similarity: region cosines of the same and of
 * different speakers on the tune split, and per file the true speakers' average linkage.
 * --sweep: the clustering's settings swept on the tune split only. --tune-only: the held-out split is neither run through
 * the engine nor scored (for work on tune; the held-out split is measured once, at the end).
 * The speaker encoder is the installed default (CAM++), or the checkpoint TRANSCRIPTION_SPEAKER_MODEL names (e.g.
 * Resemblyzer's pretrained.pt, engines/transcription/README.md); the clustering takes that encoder's defaults.
 * The engine's answers are cached next to the corpus (keyed by speakers.py, the encoder's checkpoint and the Whisper
 * model's lock), so a second run only clusters.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { defaultEngineLayout } from '../../adapters/providers/transcription/install-layout.js';
import { OfflineWhisperProvider } from '../../adapters/providers/transcription/offline-whisper.provider.js';
import {
  clusterSpeakers,
  isNarrowband,
  REAL_VOICE_CLUSTER_OPTIONS,
  type ClusterOptions,
  type SpeakerRegions,
} from '../../adapters/providers/transcription/speakers.js';
import type { Transcript } from '../../adapters/providers/transcription/transcription-provider.js';
import { diarizationErrorRate } from '../../support/der.js';
import { alignWords, scoringWords } from '../../support/wer.js';
import {
  loadPhoneTuneCorpus,
  loadSpeechCorpus,
  PHONE_TUNE_SETS,
  telephoneCopy,
  writeTelephoneCopy,
  type Conversation,
  type Split,
} from './corpus.js';

const { values } = parseArgs({
  options: {
    sweep: { type: 'boolean', default: false },
    'no-wer': { type: 'boolean', default: false },
    'tune-only': { type: 'boolean', default: false },
    phone: { type: 'boolean', default: false },
    similarity: { type: 'boolean', default: false },
    'phone-tune': { type: 'boolean', default: false },
    'phone-tune-set': { type: 'string', default: 's12' },
  },
});
const ENGINE = join(dirname(fileURLToPath(import.meta.url)), '../../engines/transcription');

const wideCorpus = await loadSpeechCorpus();
// --phone: every conversation as a phone line carries it (300–3400 Hz, 8 kHz mono, G.711 µ-law), made at bench
// time beside the corpus; same labels (the timing does not change). --phone-tune: the extra phone-band tune set
// (tune voices only, several phone codecs, short turns: corpus.ts, loadPhoneTuneCorpus) instead.
// --phone-tune-set s14 / s15: session 14's set (more 4-speaker calls) or session 15's (3- and 4-speaker calls) instead
// of session 12's 40 files (PHONE_TUNE_SETS).
const phoneTuneSet = PHONE_TUNE_SETS[values['phone-tune-set'] as keyof typeof PHONE_TUNE_SETS];
if (!phoneTuneSet) throw new Error(`--phone-tune-set: one of ${Object.keys(PHONE_TUNE_SETS).join(', ')}`);
const phoneTune = values['phone-tune'] ? await loadPhoneTuneCorpus(undefined, phoneTuneSet) : null;
const corpus: (Conversation & { channel?: string; turnStyle?: string })[] =
  phoneTune ?? (values.phone ? wideCorpus.map(telephoneCopy) : wideCorpus);
const speakerModel = process.env['TRANSCRIPTION_SPEAKER_MODEL'] || defaultEngineLayout().speakerModel;
const engineKey = createHash('sha256')
  .update(await readFile(join(ENGINE, 'speakers.py')))
  .update(await readFile(speakerModel))
  .update(await readFile(join(ENGINE, 'model.lock.json')))
  .digest('hex')
  .slice(0, 10);
// The transcripts also depend on worker.py's decoding (the second pass, session 10): cached under their own key, so
// a change of the decoding re-runs only the WER files' transcription.
const wordsKey = createHash('sha256')
  .update(await readFile(join(ENGINE, 'worker.py')))
  .update(await readFile(join(ENGINE, 'model.lock.json')))
  .digest('hex')
  .slice(0, 10);
console.log(
  `speaker encoder: ${speakerModel} (engine answers cached as *.engine-${engineKey}.json, transcripts as *.words-${wordsKey}.json)`,
);

interface Sample {
  c: Conversation & { channel?: string; turnStyle?: string };
  regions: SpeakerRegions;
  transcript: Transcript | null;
}

const provider = new OfflineWhisperProvider({
  timeoutMs: 900_000,
  cpuThreads: 2,
  cpuKernels: 'portable',
  speakerModel,
});
const samples: Sample[] = [];
let audio = 0;
let engineMs = 0;
try {
  for (const c of corpus.filter((x) => !(values['tune-only'] || phoneTune) || x.split === 'tune')) {
    const cache = c.path.replace(/\.wav$/, `.engine-${engineKey}.json`);
    if (values.phone && !existsSync(c.path))
      await writeTelephoneCopy(wideCorpus.find((w) => w.id === c.id)!.path, c.path);
    const cached = existsSync(cache)
      ? (JSON.parse(await readFile(cache, 'utf8')) as { regions?: SpeakerRegions; transcript?: Transcript | null })
      : {};
    const wordsCache = c.path.replace(/\.wav$/, `.words-${wordsKey}.json`);
    const cachedWords = existsSync(wordsCache)
      ? (JSON.parse(await readFile(wordsCache, 'utf8')) as { transcript: Transcript })
      : null;
    const t0 = performance.now();
    const regions = cached.regions ?? (await provider.embedSpeakers({ path: c.path }));
    const wantWords = c.text !== null && !values['no-wer'];
    const transcript =
      cachedWords?.transcript ?? (wantWords ? await provider.transcribe({ path: c.path, language: 'en' }) : null);
    if (!cached.regions || (wantWords && !cachedWords)) {
      engineMs += performance.now() - t0;
      audio += c.duration;
      if (!cached.regions) await writeFile(cache, JSON.stringify({ regions }));
      if (transcript) await writeFile(wordsCache, JSON.stringify({ transcript }));
    }
    samples.push({ c, regions, transcript });
  }
} finally {
  await provider.close();
}
if (audio > 0) console.log(`engine: ${audio.toFixed(0)} s of audio in ${(engineMs / 1000).toFixed(0)} s`);

interface Figures {
  files: number;
  der: number;
  missed: number;
  falseAlarm: number;
  confusion: number;
  countRight: number;
  /** Files with more speakers found than there are, and with fewer. */
  over: number;
  under: number;
  wer: number | null;
  werWords: number;
  /** Substitutions, deletions, insertions (of the WER's edits). */
  sdi: [number, number, number];
}

function evaluate(split: Split, options: Partial<ClusterOptions>, rows?: string[]): Figures {
  let err = 0;
  let speech = 0;
  let [missed, falseAlarm, confusion] = [0, 0, 0];
  let countRight = 0;
  let [over, under] = [0, 0];
  let files = 0;
  let edits = 0;
  let words = 0;
  const sdi: [number, number, number] = [0, 0, 0];
  for (const s of samples.filter((x) => x.c.split === split)) {
    files++;
    const turns = clusterSpeakers(s.regions.regions, options);
    const r = diarizationErrorRate(s.c.reference, turns);
    err += r.missed + r.falseAlarm + r.confusion;
    [missed, falseAlarm, confusion] = [missed + r.missed, falseAlarm + r.falseAlarm, confusion + r.confusion];
    speech += r.speech;
    const found = new Set(turns.map((t) => t.speaker)).size;
    if (found === s.c.speakers.length) countRight++;
    else if (found > s.c.speakers.length) over++;
    else under++;
    let wer = '';
    if (s.transcript && s.c.text) {
      const ref = scoringWords(s.c.text);
      const steps = alignWords(ref, scoringWords(s.transcript.words.map((w) => w.word).join(' ')));
      const e = steps.filter((x) => x.op !== 'C').length;
      for (const x of steps) if (x.op !== 'C') sdi['SDI'.indexOf(x.op)]!++;
      edits += e;
      words += ref.length;
      wer = (e / ref.length).toFixed(3);
    }
    rows?.push(
      `${s.c.id.padEnd(30)} ${s.c.duration.toFixed(1).padStart(6)} ${String(s.c.speakers.length).padStart(4)} ${String(found).padStart(5)} ${r.der.toFixed(3).padStart(6)} ${r.missed.toFixed(1).padStart(6)} ${r.falseAlarm.toFixed(1).padStart(5)} ${r.confusion.toFixed(1).padStart(6)} ${wer.padStart(6)}${isNarrowband(s.regions.regions) ? '  narrow-band' : ''}${s.c.channel ? `  ${s.c.channel} ${s.c.turnStyle}` : ''}`,
    );
  }
  return {
    files,
    der: err / speech,
    missed: missed / speech,
    falseAlarm: falseAlarm / speech,
    confusion: confusion / speech,
    countRight: countRight / files,
    over,
    under,
    wer: words ? edits / words : null,
    werWords: words,
    sdi,
  };
}

const heldOut = (f: () => Figures) =>
  values['tune-only'] || phoneTune ? '(held-out not run: --tune-only)' : line('held-out', f());
const line = (split: string, f: Figures) =>
  `${split.padEnd(9)} ${String(f.files).padStart(5)}  DER ${f.der.toFixed(3)} (missed ${f.missed.toFixed(3)}, false alarm ${f.falseAlarm.toFixed(3)}, confusion ${f.confusion.toFixed(3)})  count right ${(100 * f.countRight).toFixed(0)} % (over ${f.over}, under ${f.under})  WER ${f.wer === null ? '-' : `${f.wer.toFixed(3)} (${f.werWords} words; substitutions ${f.sdi[0]}, deletions ${f.sdi[1]}, insertions ${f.sdi[2]})`}`;

const rows: string[] = [];
const tune = evaluate('tune', {}, rows);
console.log(
  `\ntune split, per file (default clustering)\n${'file'.padEnd(30)} ${'sec'.padStart(6)} ${'true'.padStart(4)} ${'found'.padStart(5)} ${'DER'.padStart(6)} ${'miss'.padStart(6)} ${'FA'.padStart(5)} ${'conf'.padStart(6)} ${'WER'.padStart(6)}`,
);
for (const r of rows) console.log(r);
const dim = samples.find((x) => x.regions.regions.length)?.regions.regions[0]!.embedding.length ?? 0;
const camplus = dim === 192;
console.log(
  `\ndefault clustering (${camplus ? 'CAMPLUS_CLUSTER_OPTIONS' : 'DEFAULT_CLUSTER_OPTIONS'}, the ${dim}-value encoder's)\n${line('tune', tune)}\n${heldOut(() => evaluate('held-out', {}))}`,
);
if (!camplus) {
  console.log(
    `\nREAL_VOICE_CLUSTER_OPTIONS\n${line('tune', evaluate('tune', REAL_VOICE_CLUSTER_OPTIONS))}\n${heldOut(() => evaluate('held-out', REAL_VOICE_CLUSTER_OPTIONS))}`,
  );
  console.log(
    `\nbefore issue 30 (average linkage at 0.72 only)\n${line('tune', evaluate('tune', { lowThreshold: 1 }))}\n${heldOut(() => evaluate('held-out', { lowThreshold: 1 }))}`,
  );
}

if (values.sweep && camplus) {
  console.log('\nsweep on the tune split, average linkage: threshold minSpeakerSeconds -> DER, count right');
  for (const threshold of [0.2, 0.22, 0.24, 0.26, 0.28, 0.3, 0.32, 0.33, 0.34, 0.35, 0.36, 0.38, 0.4]) {
    for (const minSpeakerSeconds of [1, 2, 3, 5]) {
      const f = evaluate('tune', { threshold, minSpeakerSeconds, lowThreshold: 1 });
      console.log(
        `${threshold.toFixed(2)} ${String(minSpeakerSeconds).padStart(2)}  ${f.der.toFixed(3)}  ${(100 * f.countRight).toFixed(0)} % (over ${f.over}, under ${f.under})`,
      );
    }
  }
} else if (values.sweep) {
  console.log(
    '\nsweep on the tune split, the relative rule at threshold 0.74: lowThreshold relative -> DER, count right',
  );
  for (const lowThreshold of [0.56, 0.58, 0.6, 0.62, 0.64, 0.66, 0.68]) {
    for (const relative of [0.74, 0.76, 0.78, 0.8]) {
      const f = evaluate('tune', { threshold: 0.74, lowThreshold, relative });
      console.log(
        `${lowThreshold.toFixed(2)} ${relative.toFixed(2)}  ${f.der.toFixed(3)}  ${(100 * f.countRight).toFixed(0)} %`,
      );
    }
  }
  console.log('\nsweep on the tune split, average linkage alone: threshold minSpeakerSeconds -> DER, count right');
  for (const threshold of [0.5, 0.55, 0.57, 0.58, 0.59, 0.6, 0.61, 0.62, 0.63, 0.65, 0.7, 0.72, 0.75, 0.8]) {
    for (const minSpeakerSeconds of [1, 5]) {
      const f = evaluate('tune', { threshold, minSpeakerSeconds, lowThreshold: 1 });
      console.log(
        `${threshold.toFixed(2)} ${String(minSpeakerSeconds).padStart(2)}  ${f.der.toFixed(3)}  ${(100 * f.countRight).toFixed(0)} %`,
      );
    }
  }
}

if (values.similarity) {
  // Region-level cosines on the tune split, by the reference: each region given to the speaker holding at least 80 %
  // of it (else left out), pairs within a file; and per file the average linkage (duration-weighted mean cosine)
  // between the true speakers (highest cross pair) and within each (lowest), which is what the threshold must part.
  const q = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
  const same: number[] = [];
  const cross: number[] = [];
  const perFile: string[] = [];
  for (const s of samples.filter((x) => x.c.split === 'tune')) {
    const labelled = s.regions.regions.flatMap((r) => {
      const held = new Map<string, number>();
      for (const ref of s.c.reference) {
        const o = Math.min(r.end, ref.end) - Math.max(r.start, ref.start);
        if (o > 0) held.set(ref.speaker, (held.get(ref.speaker) ?? 0) + o);
      }
      const [speaker, t] = [...held].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
      return t >= 0.8 * (r.end - r.start) ? [{ r, speaker, w: r.end - r.start }] : [];
    });
    const link = new Map<string, [number, number]>();
    for (let i = 0; i < labelled.length; i++)
      for (let j = i + 1; j < labelled.length; j++) {
        const [a, b] = [labelled[i]!, labelled[j]!];
        const cos = a.r.embedding.reduce((acc, v, k) => acc + v * b.r.embedding[k]!, 0);
        (a.speaker === b.speaker ? same : cross).push(cos);
        const key = [a.speaker, b.speaker].sort().join('|');
        const [sw, sum] = link.get(key) ?? [0, 0];
        link.set(key, [sw + a.w * b.w, sum + a.w * b.w * cos]);
      }
    let maxCross = -1;
    let minWithin = 2;
    for (const [key, [w, sum]] of link) {
      const [x, y] = key.split('|');
      if (x === y) minWithin = Math.min(minWithin, sum / w);
      else maxCross = Math.max(maxCross, sum / w);
    }
    perFile.push(
      `${s.c.id.padEnd(16)} ${String(s.c.speakers.length).padStart(2)}  within (lowest) ${minWithin.toFixed(3)}  cross (highest) ${maxCross < -0.5 ? '  -  ' : maxCross.toFixed(3)}`,
    );
  }
  same.sort((a, b) => a - b);
  cross.sort((a, b) => a - b);
  const stats = (xs: number[]) =>
    `n ${xs.length}  p5 ${q(xs, 0.05).toFixed(3)}  p25 ${q(xs, 0.25).toFixed(3)}  median ${q(xs, 0.5).toFixed(3)}  p75 ${q(xs, 0.75).toFixed(3)}  p95 ${q(xs, 0.95).toFixed(3)}`;
  console.log(
    `\nregion cosines on the tune split${values.phone ? ' (phone band)' : ''}\nsame speaker       ${stats(same)}\ndifferent speakers ${stats(cross)}\n\nper file, average linkage of the true speakers\n${perFile.join('\n')}`,
  );
}
