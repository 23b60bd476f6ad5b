/**
 * Speaker encoders compared on the real corpus's TUNE split only (bench/speech-corpus/README.md): the regions of one
 * engine run (same voice activity) embedded by each encoder, the clustering swept per encoder on tune, DER and the
 * share of files whose speaker count is right. Held-out is never read here.
 *
 *   npx tsx bench/speech-corpus/compare-encoders.ts KEY [KEY…]
 *
 * KEY: the suffix of the cached engine answers `<id>.engine-<KEY>.json` beside the corpus (bench.ts writes them).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import {
  clusterSpeakers,
  type ClusterOptions,
  type SpeakerRegion,
  type SpeakerRegions,
} from '../../adapters/providers/transcription/speakers.js';
import { diarizationErrorRate } from '../../support/der.js';
import { loadSpeechCorpus } from './corpus.js';

const tune = (await loadSpeechCorpus()).filter((c) => c.split === 'tune');

for (const key of process.argv.slice(2)) {
  const files: { c: (typeof tune)[number]; regions: SpeakerRegion[] }[] = [];
  for (const c of tune) {
    const cache = c.path.replace(/\.wav$/, `.engine-${key}.json`);
    if (!existsSync(cache)) throw new Error(`${cache} missing`);
    const { regions } = JSON.parse(await readFile(cache, 'utf8')) as { regions: SpeakerRegions };
    files.push({ c, regions: regions.regions });
  }
  const evaluate = (o: Partial<ClusterOptions>) => {
    let [err, speech, right] = [0, 0, 0];
    for (const f of files) {
      const turns = clusterSpeakers(f.regions, o);
      const r = diarizationErrorRate(f.c.reference, turns);
      err += r.missed + r.falseAlarm + r.confusion;
      speech += r.speech;
      if (new Set(turns.map((t) => t.speaker)).size === f.c.speakers.length) right++;
    }
    return { der: err / speech, right: right / files.length };
  };
  const results: { o: Partial<ClusterOptions>; der: number; right: number }[] = [];
  for (let threshold = 0.3; threshold <= 0.86; threshold += 0.02) {
    for (const minSpeakerSeconds of [1, 5]) {
      results.push({
        o: { threshold, minSpeakerSeconds, lowThreshold: 1 },
        ...evaluate({ threshold, minSpeakerSeconds, lowThreshold: 1 }),
      });
      for (const lowThreshold of [0.2, 0.3, 0.4, 0.5, 0.6]) {
        if (lowThreshold >= threshold) continue;
        for (const relative of [0.7, 0.75, 0.8, 0.85]) {
          const o = { threshold, minSpeakerSeconds, lowThreshold, relative };
          results.push({ o, ...evaluate(o) });
        }
      }
    }
  }
  results.sort((a, b) => b.right - a.right || a.der - b.der);
  console.log(`\n${key}: ${files.length} tune files; best settings (count right first, then DER)`);
  for (const r of results.slice(0, 8))
    console.log(
      `  count right ${(100 * r.right).toFixed(0)} %  DER ${r.der.toFixed(3)}  ${JSON.stringify(r.o, (_k, v: unknown) => (typeof v === 'number' ? Number(v.toFixed(2)) : v))}`,
    );
  const byDer = [...results].sort((a, b) => a.der - b.der)[0]!;
  console.log(
    `  lowest DER: ${byDer.der.toFixed(3)} (count right ${(100 * byDer.right).toFixed(0)} %) ${JSON.stringify(byDer.o, (_k, v: unknown) => (typeof v === 'number' ? Number(v.toFixed(2)) : v))}`,
  );
}
