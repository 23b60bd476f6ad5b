import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The committed real conversations (test/fixtures/speech-real/README.md: real voices, exact speaker labels). */
export const REAL_SPEECH_FIXTURES = fileURLToPath(new URL('../fixtures/speech-real/', import.meta.url));

/** A real conversation's labels (`<id>.json`, written by bench/speech-corpus/make-test-fixtures.ts). */
export interface RealConversation {
  id: string;
  /** The audio file (absolute; the manifest names it relative to the fixtures' folder): FLAC, or µ-law WAV at 8 kHz
   * for the telephone-band copy. */
  path: string;
  duration: number;
  /** The people, by their voice group's name. */
  speakers: string[];
  /** Reference speech per speaker (the RTTM's stretches). */
  reference: { start: number; end: number; speaker: string }[];
  /** Turns in order of start, with their transcript when known. */
  turns: { start: number; end: number; speaker: string; text: string | null }[];
  /** The reference transcript when every turn has an English one, else null. */
  text: string | null;
}

export async function loadRealConversation(id: string): Promise<RealConversation> {
  const labels = JSON.parse(await readFile(join(REAL_SPEECH_FIXTURES, `${id}.json`), 'utf8')) as RealConversation;
  return { ...labels, path: join(REAL_SPEECH_FIXTURES, labels.path || `${id}.flac`) };
}
