import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { preparePieces, splitOf, type ConversationSpec, type Piece } from './corpus.js';

const HERE = dirname(fileURLToPath(import.meta.url));

/**
 * The conversations wer-causes.ts and wer-chunked.ts build from the TUNE split's English voices (same specs and
 * seeds in both, so their figures are of the same audio); a spec whose voices are not all available is left out.
 */
export const WER_CAUSES_SPECS: readonly ConversationSpec[] = [
  { id: 'causes-2sp-radio', voices: ['c2-mmt1', 'c2-vk5qi'], turns: 10, overlap: true, seed: 101 },
  { id: 'causes-3sp', voices: ['cv-en', 'c2-ve9qrp', 'c2-morig'], turns: 10, overlap: true, seed: 102 },
  { id: 'causes-4sp', voices: ['ls-61', 'c2-mmt1', 'c2-vk5qi', 'c2-morig'], turns: 12, overlap: true, seed: 103 },
  { id: 'causes-2sp-radio-apart', voices: ['c2-ve9qrp', 'c2-mmt1'], turns: 10, overlap: false, seed: 104 },
  { id: 'causes-2sp-wide', voices: ['cv-en', 'ls-61'], turns: 14, overlap: true, seed: 202 },
];

/** The pieces of the tune split's English voices (voices.json), prepared in a scratch folder under `out`. */
export async function tuneEnglishPieces(out: string): Promise<Map<string, Piece[]>> {
  const voices = (
    JSON.parse(await readFile(join(HERE, 'voices.json'), 'utf8')) as {
      voices: { id: string; group: string; language: string; onlyIn?: string }[];
    }
  ).voices.filter((v) => v.language === 'en' && !v.onlyIn && splitOf(v.group) === 'tune');
  const work = await mkdtemp(join(out, 'work-'));
  const all = await preparePieces(work, (l) => process.stderr.write(`[speech-corpus] ${l}\n`)).finally(() =>
    rm(work, { recursive: true, force: true }),
  );
  return new Map<string, Piece[]>(voices.map((v) => [v.id, all.get(v.id)!]));
}

/** WER_CAUSES_SPECS whose voices `pieces` all has. */
export const availableSpecs = (pieces: ReadonlyMap<string, Piece[]>): ConversationSpec[] =>
  WER_CAUSES_SPECS.filter((s) => s.voices.every((v) => pieces.has(v)));
