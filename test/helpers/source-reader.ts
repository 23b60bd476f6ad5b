import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { readSourceText } from '../../adapters/extraction/source-text.js';
import { createOcrEngine } from '../../adapters/media/ocr/ocr-engine.js';
import type { PositionedText } from '../../domain/extraction.js';

/**
 * A test file's reader of `flow-extract` sources: `read(content, ext)` writes the content as a source file in a
 * folder of its own (made before the file's tests, removed after them) and reads it as the runner does
 * (`readSourceText` with a real OCR engine).
 */
export function sourceReader(prefix: string): (content: string | Uint8Array, ext: string) => Promise<PositionedText> {
  const engine = createOcrEngine();
  let dir: string | undefined;
  let n = 0;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `${prefix}-`));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return async (content, ext) => {
    if (!dir) throw new Error('sourceReader: read() is for tests, after the file has set up');
    const path = join(dir, `source-${n++}.${ext}`);
    await writeFile(path, content);
    return readSourceText(path, { engine, workDir: await mkdtemp(join(dir, 'work-')) });
  };
}
