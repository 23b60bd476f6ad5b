import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolCacheDir } from '../../infra/temporal-cli.js';

/**
 * Where scripts/setup.sh installs the offline speech engine (the same names it computes):
 * - `<tool cache>/transcription-<sha256(engines/transcription/requirements.txt)[0..12]>/`: the Python environment;
 * - `<tool cache>/whisper-base-<sha256(engines/transcription/model.lock.json)[0..12]>/`: the joined model folder;
 * - `<tool cache>/campplus-<sha256(engines/transcription/campplus.lock.json)[0..12]>/campplus.pt`: the speaker
 *   encoder's weights (CAM++; `TRANSCRIPTION_SPEAKER_MODEL` may name Resemblyzer's `pretrained.pt` instead).
 * A new lock gets new folders, so an installed engine is never changed in place.
 */
const ENGINE_DIR = fileURLToPath(new URL('../../../engines/transcription/', import.meta.url));

function shortHash(file: string): string {
  return createHash('sha256')
    .update(readFileSync(join(ENGINE_DIR, file)))
    .digest('hex')
    .slice(0, 12);
}

export interface EngineLayout {
  /** The Python interpreter of the engine's virtual environment. */
  python: string;
  /** The CTranslate2 model folder (model.bin, config.json, tokenizer.json, vocabulary). */
  modelDir: string;
  /** engines/transcription/worker.py */
  workerScript: string;
  /** The CAM++ speaker encoder's campplus.pt (speaker embeddings, engines/transcription/speakers.py). */
  speakerModel: string;
}

export function defaultEngineLayout(cacheDir: string = toolCacheDir()): EngineLayout {
  return {
    python: join(cacheDir, `transcription-${shortHash('requirements.txt')}`, 'bin', 'python'),
    modelDir: join(cacheDir, `whisper-base-${shortHash('model.lock.json')}`),
    workerScript: join(ENGINE_DIR, 'worker.py'),
    speakerModel: join(cacheDir, `campplus-${shortHash('campplus.lock.json')}`, 'campplus.pt'),
  };
}
