import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { tempFileName } from './temp-files.js';

/**
 * Files on local disk under one root, addressed only by server-made ids (`upl_…`, `res_…`): a client-supplied
 * name never becomes a path. Writes go to a temporary file first (in `tmp/`, named after the writing process, so the
 * ones of a process killed mid-write are found and removed: ./temp-files.ts) and are renamed into place.
 */
export interface FileStore {
  root: string;
  /**
   * Streams `source` to a temporary file; `onBytes` sees every chunk size and may throw to abort. Aborting
   * `signal` ends the write at once (the temporary file is removed), whatever state `source` is in.
   */
  writeTemp(
    source: Readable,
    onBytes: (n: number) => void,
    signal?: AbortSignal,
  ): Promise<{ tempPath: string; bytes: number; sha256: string }>;
  commit(tempPath: string, id: string): Promise<string>;
  /** Writes `data` under `id` atomically (temporary file, then rename): a repeat replaces it whole. */
  put(id: string, data: Uint8Array): Promise<void>;
  pathOf(id: string): string;
  remove(pathOrId: string): Promise<void>;
}

const ID = /^[a-z]{2,5}_[A-Za-z0-9]{20}$/;

export function createFileStore(root: string): FileStore {
  const pathOf = (id: string) => {
    if (!ID.test(id)) throw new Error('invalid storage id');
    return join(root, id.slice(-2), id);
  };
  return {
    root,
    async writeTemp(source, onBytes, signal) {
      const tmpDir = join(root, 'tmp');
      await mkdir(tmpDir, { recursive: true });
      const tempPath = join(tmpDir, tempFileName());
      const hash = createHash('sha256');
      let bytes = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          try {
            bytes += chunk.length;
            onBytes(chunk.length);
            hash.update(chunk);
            cb(null, chunk);
          } catch (e) {
            cb(e as Error);
          }
        },
      });
      try {
        signal?.throwIfAborted();
        await pipeline(source, meter, createWriteStream(tempPath, { mode: 0o600 }), signal ? { signal } : {});
      } catch (e) {
        await rm(tempPath, { force: true });
        throw e;
      }
      return { tempPath, bytes, sha256: hash.digest('hex') };
    },
    async commit(tempPath, id) {
      const target = pathOf(id);
      await mkdir(join(target, '..'), { recursive: true });
      await rename(tempPath, target);
      return target;
    },
    async put(id, data) {
      const tmpDir = join(root, 'tmp');
      await mkdir(tmpDir, { recursive: true });
      const tempPath = join(tmpDir, tempFileName());
      await writeFile(tempPath, data, { mode: 0o600 });
      const target = pathOf(id);
      await mkdir(join(target, '..'), { recursive: true });
      await rename(tempPath, target);
    },
    pathOf,
    async remove(pathOrId) {
      await rm(ID.test(pathOrId) ? pathOf(pathOrId) : pathOrId, { force: true });
    },
  };
}
