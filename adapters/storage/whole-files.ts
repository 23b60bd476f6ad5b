import { access, readFile, rename, writeFile } from 'node:fs/promises';

/**
 * Files of a job's checkpoint folder (OCR pages, speech plans and chunks, extracted documents): written so that they
 * exist whole or not at all (a killed worker leaves no half file behind), read back when they exist.
 */

/** Writes `data` (text, bytes, or a value as JSON) next to `path` and renames it into place; owner-only. */
export async function writeWhole(path: string, data: string | Uint8Array | object): Promise<void> {
  const part = `${path}.${process.pid}.part`;
  await writeFile(part, typeof data === 'string' || data instanceof Uint8Array ? data : JSON.stringify(data), {
    mode: 0o600,
  });
  await rename(part, path);
}

/** The JSON value of a file, or null when there is no such file. */
export async function readJsonIfExists<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

export const fileExists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );
