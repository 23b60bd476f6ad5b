import { SecretBoxError, type SecretBox } from '../adapters/crypto/secret-box.js';
import type { Db } from '../db/connection.js';
import {
  countSealedByKeyId,
  listSealed,
  replaceSealed,
  SEALED_COLUMNS,
} from '../db/repositories/sealed-secrets.repo.js';

/**
 * Operator commands of a SECRETS_KEY rotation (docs/operations.md "Rotating SECRETS_KEY"). They print key ids,
 * counts and row ids, never a key, a sealed value or a secret.
 */

const UNREADABLE_IDS_SHOWN = 100;

/** What a value that did not open was sealed under: its key id, `v1` (no key id) or `malformed`. */
function sealedUnder(box: SecretBox, sealed: string): string {
  try {
    return box.keyIdOf(sealed) ?? 'v1';
  } catch {
    return 'malformed';
  }
}

async function remainingUnderOtherKeys(db: Db, box: SecretBox): Promise<number> {
  let n = 0;
  for (const col of SEALED_COLUMNS) {
    for (const [keyId, count] of Object.entries(await countSealedByKeyId(db, col))) if (keyId !== box.keyId) n += count;
  }
  return n;
}

const notice = (box: SecretBox, remaining: number) =>
  remaining === 0
    ? `Every sealed value is under the current key (${box.keyId}). The previous keys are no longer needed to open stored values; see docs/operations.md for when to remove them from SECRETS_KEYS_PREVIOUS.`
    : `${remaining} sealed value(s) are not under the current key (${box.keyId}): keep SECRETS_KEYS_PREVIOUS and run secrets:reseal again.`;

/**
 * `secrets:reseal`: seals every stored sealed value again under the current key, row by row, each in its own
 * short transaction with the row locked, so it runs safely beside the API and the workers. Values already under
 * the current key are left alone (a second run reseals nothing). A value no configured key opens is left as it is
 * and reported by row id and key id; the command then exits 1.
 */
export async function secretsReseal(db: Db, box: SecretBox, opts: { batchSize?: number } = {}) {
  const batchSize = opts.batchSize ?? 200;
  const columns = [];
  for (const col of SEALED_COLUMNS) {
    const c = {
      column: `${col.table}.${col.column}`,
      scanned: 0,
      resealed: 0,
      already_current: 0,
      skipped: 0,
      unreadable: 0,
      unreadable_key_ids: [] as string[],
      unreadable_ids: [] as string[],
    };
    let after: string | null = null;
    for (;;) {
      const page = await listSealed(db, col, after, batchSize);
      if (page.length === 0) break;
      for (const row of page) {
        c.scanned++;
        if (!box.needsReseal(row.sealed)) {
          c.already_current++;
          continue;
        }
        try {
          const outcome = await replaceSealed(db, col, row.id, (sealed) => box.reseal(sealed));
          if (outcome === 'replaced') c.resealed++;
          else if (outcome === 'unchanged') c.already_current++;
          else c.skipped++; // emptied meanwhile (a job finished)
        } catch (e) {
          if (!(e instanceof SecretBoxError)) throw e;
          c.unreadable++;
          const under = sealedUnder(box, row.sealed);
          if (!c.unreadable_key_ids.includes(under)) c.unreadable_key_ids.push(under);
          if (c.unreadable_ids.length < UNREADABLE_IDS_SHOWN) c.unreadable_ids.push(row.id);
        }
      }
      after = page[page.length - 1]!.id;
    }
    columns.push(c);
  }
  const remaining = await remainingUnderOtherKeys(db, box);
  return {
    current_key_id: box.keyId,
    previous_key_ids: box.previousKeyIds,
    columns,
    resealed: columns.reduce((n, c) => n + c.resealed, 0),
    unreadable: columns.reduce((n, c) => n + c.unreadable, 0),
    remaining_under_other_keys: remaining,
    notice: notice(box, remaining),
  };
}

/** `secrets:status`: the configured key ids and how many stored values each key id holds (nothing is opened). */
export async function secretsStatus(db: Db, box: SecretBox) {
  const columns = [];
  const total: Record<string, number> = {};
  for (const col of SEALED_COLUMNS) {
    const byKeyId = await countSealedByKeyId(db, col);
    for (const [k, n] of Object.entries(byKeyId)) total[k] = (total[k] ?? 0) + n;
    columns.push({ column: `${col.table}.${col.column}`, by_key_id: byKeyId });
  }
  const remaining = Object.entries(total).reduce((n, [k, count]) => (k === box.keyId ? n : n + count), 0);
  return {
    current_key_id: box.keyId,
    previous_key_ids: box.previousKeyIds,
    columns,
    by_key_id: total,
    remaining_under_other_keys: remaining,
    notice: notice(box, remaining),
  };
}
