/**
 * The clustering swept on whatever phone-band tune conversations the engine has answered so far (cached answers of
 * bench.ts --phone-tune and of the tune split's --phone copies; nothing is run through the engine here): per setting
 * DER, count right and the count errors split over/under. Tune material only. Session 13: the floor max(1 s, share)
 * and the merge relative to the clusters' own levels (lowThreshold, relative) below the threshold. Session 14: a small
 * speaker unlike everyone else kept (strangerMax, strangerRelative); the earlier sweeps run with it off, as they were.
 * Session 15: the relative rule measured against both clusters' pairs together (relativeTo 'pooled') or the lower of
 * their levels, at several `relative`; the earlier sweeps run with the lower level, as they were.
 *
 *   npx tsx bench/speech-corpus/phone-sweep.ts ENGINE_KEY [--s14 | --s15 | --all]
 *
 * --s14: session 14's set alone (PHONE_TUNE_SETS.s14: 4 two- and 8 four-speaker calls, built after the rule was
 * chosen on the other 54 files, to check it on calls it was not chosen on). --s15: session 15's set alone (4 three-
 * and 8 four-speaker calls, built after its rule was chosen). --all: the 54 files and session 14's 12 (66).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import {
  clusterSpeakers,
  type ClusterOptions,
  type SpeakerRegions,
} from '../../adapters/providers/transcription/speakers.js';
import { diarizationErrorRate } from '../../support/der.js';
import { loadPhoneTuneCorpus, loadSpeechCorpus, PHONE_TUNE_SETS, telephoneCopy, type Conversation } from './corpus.js';

const key = process.argv[2]!;
const files: { c: Conversation; regions: SpeakerRegions }[] = [];
const only = (['s14', 's15'] as const).find((s) => process.argv.includes(`--${s}`));
for (const c of only
  ? await loadPhoneTuneCorpus(undefined, PHONE_TUNE_SETS[only])
  : [
      ...(await loadPhoneTuneCorpus()),
      ...(await loadSpeechCorpus()).filter((x) => x.split === 'tune').map(telephoneCopy),
      ...(process.argv.includes('--all') ? await loadPhoneTuneCorpus(undefined, PHONE_TUNE_SETS.s14) : []),
    ]) {
  const cache = c.path.replace(/\.wav$/, `.engine-${key}.json`);
  if (existsSync(cache))
    files.push({ c, regions: (JSON.parse(await readFile(cache, 'utf8')) as { regions: SpeakerRegions }).regions });
}
console.log(`${files.length} phone-band tune files with cached answers`);
/** Session 14's and 15's rules off: the settings of the earlier sweeps as they were measured. */
const OFF = { strangerMax: -Infinity, relativeTo: 'lower' } as const;
/** Session 15's rule off: session 14's settings. */
const LOWER = { relativeTo: 'lower' } as const;
function score(o: Partial<ClusterOptions>) {
  let [err, speech, right, over, under] = [0, 0, 0, 0, 0];
  const wrong: string[] = [];
  for (const { c, regions } of files) {
    const turns = clusterSpeakers(regions.regions, o);
    const r = diarizationErrorRate(c.reference, turns);
    err += r.missed + r.falseAlarm + r.confusion;
    speech += r.speech;
    const found = new Set(turns.map((t) => t.speaker)).size;
    if (found === c.speakers.length) right++;
    else {
      if (found > c.speakers.length) over++;
      else under++;
      wrong.push(`${c.id}:${c.speakers.length}->${found}`);
    }
  }
  return { der: err / speech, right, over, under, wrong };
}
for (const threshold of [0.3, 0.32, 0.34, 0.35, 0.36, 0.38]) {
  for (const minSpeakerSeconds of [1, 2, 3, 4]) {
    const f = score({
      ...OFF,
      threshold,
      minSpeakerSeconds,
      minSpeakerShare: 1,
      minSpeakerFloorSeconds: 0,
      lowThreshold: 1,
    });
    console.log(
      `${threshold.toFixed(2)} min ${minSpeakerSeconds} s  DER ${f.der.toFixed(3)}  right ${f.right}/${files.length}  over ${f.over} under ${f.under}  ${threshold === 0.36 || threshold === 0.34 ? f.wrong.join(' ') : ''}`,
    );
  }
}
// A speaker floor relative to the recording: clusters under this share of all speech merge into the nearest.
for (const threshold of [0.34, 0.35, 0.36, 0.38]) {
  for (const share of [0.03, 0.04, 0.05, 0.08]) {
    const f = score({
      ...OFF,
      threshold,
      minSpeakerSeconds: 1e9,
      minSpeakerShare: share,
      minSpeakerFloorSeconds: 0,
      lowThreshold: 1,
    });
    console.log(
      `${threshold.toFixed(2)} share ${share.toFixed(2)}  DER ${f.der.toFixed(3)}  right ${f.right}/${files.length}  over ${f.over} under ${f.under}  ${f.wrong.join(' ')}`,
    );
  }
}
// Session 13: the same floor, never under 1 s (max(1 s, 4 %)); and below 0.5 a merge relative to the two clusters'
// own levels (mean cosine within each): linkage >= lowThreshold and >= relative x the lower level.
for (const share of [0.03, 0.04, 0.05]) {
  const f = score({
    ...OFF,
    threshold: 0.36,
    minSpeakerSeconds: Infinity,
    minSpeakerShare: share,
    minSpeakerFloorSeconds: 1,
    lowThreshold: 1,
  });
  console.log(
    `0.36 max(1 s, ${(100 * share).toFixed(0)} %)  DER ${f.der.toFixed(3)}  right ${f.right}/${files.length}  over ${f.over} under ${f.under}  ${f.wrong.join(' ')}`,
  );
}
for (const threshold of [0.46, 0.5, 0.55, 1]) {
  for (const lowThreshold of [0.3, 0.32, 0.34, 0.36, 0.42]) {
    for (const relative of [0.58, 0.6, 0.62, 0.65, 0.68]) {
      const f = score({
        ...OFF,
        threshold,
        lowThreshold,
        relative,
        minSpeakerSeconds: Infinity,
        minSpeakerShare: 0.04,
        minSpeakerFloorSeconds: 1,
      });
      console.log(
        `${threshold.toFixed(2)} low ${lowThreshold.toFixed(2)} relative ${relative.toFixed(2)} max(1 s, 4 %)  DER ${f.der.toFixed(3)}  right ${f.right}/${files.length}  over ${f.over} under ${f.under}  ${threshold === 0.5 && lowThreshold === 0.36 ? f.wrong.join(' ') : ''}`,
      );
    }
  }
}
// Session 14: below the floor, a speaker of at least 1 s whose linkage to every other is under strangerMax and under
// strangerRelative x that one's own level stays (10: the relative bound never binds, the absolute one alone).
for (const strangerMax of [0.26, 0.27, 0.28, 0.29, 0.3, 0.31, 0.32, 0.34]) {
  for (const strangerRelative of [0.45, 0.5, 0.55, 0.6, 0.65, 10]) {
    const f = score({ ...LOWER, strangerMax, strangerRelative });
    console.log(
      `stranger max ${strangerMax.toFixed(2)} relative ${strangerRelative}  DER ${f.der.toFixed(3)}  right ${f.right}/${files.length}  over ${f.over} under ${f.under}  ${strangerMax === 0.3 && strangerRelative === 0.55 ? f.wrong.join(' ') : ''}`,
    );
  }
}
// Session 15: the relative rule against both clusters' pairs together, or against the lower level, at several
// `relative` (the threshold 0.5 and lowThreshold 0.36 as installed).
for (const relativeTo of ['pooled', 'lower'] as const) {
  for (const relative of [0.56, 0.58, 0.6, 0.62, 0.64, 0.66, 0.68]) {
    const f = score({ relativeTo, relative });
    console.log(
      `relative ${relative.toFixed(2)} against ${relativeTo}  DER ${f.der.toFixed(3)}  right ${f.right}/${files.length}  over ${f.over} under ${f.under}  ${relative === 0.62 ? f.wrong.join(' ') : ''}`,
    );
  }
}
for (const [name, o] of [
  ['installed defaults', {}],
  [
    'before session 12 (0.36, 1 s minimum)',
    {
      ...OFF,
      threshold: 0.36,
      lowThreshold: 1,
      minSpeakerSeconds: 1,
      minSpeakerShare: 0.05,
      minSpeakerFloorSeconds: 0,
    },
  ],
  ['before session 13 (0.36, 4 %)', { ...OFF, threshold: 0.36, lowThreshold: 1, minSpeakerFloorSeconds: 0 }],
  ['session 13 floor alone (0.36, max(1 s, 4 %))', { ...OFF, threshold: 0.36, lowThreshold: 1 }],
  ['before session 14 (session 13: relative rule, max(1 s, 4 %))', OFF],
  ['before session 15 (session 14: a small stranger kept)', LOWER],
] as const) {
  const f = score(o);
  console.log(`${name}: DER ${f.der.toFixed(3)}  right ${f.right}/${files.length}  over ${f.over} under ${f.under}`);
}
