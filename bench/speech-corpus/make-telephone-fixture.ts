/**
 * Writes the telephone-band copy of a committed real conversation (test/fixtures/speech-real/README.md): the
 * 16 kHz FLAC band-limited to 300–3400 Hz, resampled to 8 kHz mono and stored as G.711 µ-law WAV (what a phone
 * line carries), through the platform's own ffmpeg wrapper (runMediaTool, inputs guarded). The labels are the
 * source's (the timing does not change), under the new id. Run once after changing it:
 *
 *   npx tsx bench/speech-corpus/make-telephone-fixture.ts [SOURCE_ID]     # default real-dialogue-2
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileArg, runMediaTool } from '../../adapters/media/av/media-process.js';
import { TELEPHONE_BAND_ARGS } from './corpus.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/speech-real');
const source = process.argv[2] ?? 'real-dialogue-2';
const id = `${source}-phone8k`;
const out = join(dir, `${id}.wav`);

await runMediaTool(
  'ffmpeg',
  'ffmpeg',
  ['-y', '-v', 'error', '-i', fileArg(join(dir, `${source}.flac`)), ...TELEPHONE_BAND_ARGS, fileArg(out)],
  { timeoutMs: 60_000 },
);
const labels = JSON.parse(await readFile(join(dir, `${source}.json`), 'utf8')) as Record<string, unknown>;
await writeFile(join(dir, `${id}.json`), `${JSON.stringify({ ...labels, id, path: `${id}.wav` }, null, 1)}\n`);
const rttm = await readFile(join(dir, `${source}.rttm`), 'utf8');
await writeFile(join(dir, `${id}.rttm`), rttm.replaceAll(` ${source} `, ` ${id} `));
console.log(`${id}: ${out}`);
