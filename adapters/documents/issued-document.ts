import { readFile } from 'node:fs/promises';
import { sha256Hex } from '../crypto/tokens.js';
import type { FileStore } from '../storage/file-store.js';

/**
 * An issued invoice document as stored at issue, checked against the SHA-256 recorded with the invoice (it is
 * never rendered again): the e-mail attachment and the dashboard's download both read it through here.
 */
export async function readIssuedDocument(
  store: FileStore,
  storageId: string,
  sha256: string,
): Promise<{ ok: true; pdf: Buffer } | { ok: false; reason: 'missing' | 'mismatch' }> {
  let pdf: Buffer;
  try {
    pdf = await readFile(store.pathOf(storageId));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    return { ok: false, reason: 'missing' };
  }
  return sha256Hex(pdf) === sha256 ? { ok: true, pdf } : { ok: false, reason: 'mismatch' };
}
