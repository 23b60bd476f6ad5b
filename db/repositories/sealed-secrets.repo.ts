import type { Db } from '../connection.js';

/**
 * Every column that holds a value sealed by the SecretBox (adapters/crypto/secret-box.ts). `secrets:reseal`
 * walks these; test/integration/secrets-rotation.test.ts fails when a migration adds a `*sealed*` column that is
 * not listed here.
 */
export const SEALED_COLUMNS = [
  { table: 'webhook_endpoints', column: 'secret_sealed' },
  { table: 'jobs', column: 'secret_sealed' },
] as const;

export type SealedColumn = (typeof SEALED_COLUMNS)[number];

export interface SealedRow {
  id: string;
  sealed: string;
}

/** Up to `limit` rows whose column holds a sealed value, in id order, after `afterId` (keyset paging). */
export async function listSealed(
  db: Db,
  col: SealedColumn,
  afterId: string | null,
  limit: number,
): Promise<SealedRow[]> {
  const q = db(col.table).whereNotNull(col.column).orderBy('id').limit(limit).select({ id: 'id', sealed: col.column });
  if (afterId !== null) void q.where('id', '>', afterId);
  return (await q) as SealedRow[];
}

/**
 * Replaces one row's sealed value in a transaction of its own: the row is locked and read again, so `next` sees
 * what another writer committed meanwhile (a destination rotated, a job finished) and nothing is overwritten with
 * a stale value. `next` returns null to leave the value as it is; 'gone' when the column is empty by now. An
 * error thrown by `next` rolls the transaction back and propagates.
 */
export async function replaceSealed(
  db: Db,
  col: SealedColumn,
  id: string,
  next: (sealed: string) => string | null,
): Promise<'replaced' | 'unchanged' | 'gone'> {
  return db.transaction(async (trx) => {
    const row = (await trx(col.table).where({ id }).forUpdate().first(col.column)) as
      Record<string, string | null> | undefined;
    const sealed = row?.[col.column];
    if (!sealed) return 'gone';
    const replacement = next(sealed);
    if (replacement === null) return 'unchanged';
    await trx(col.table)
      .where({ id })
      .update({ [col.column]: replacement });
    return 'replaced';
  });
}

/**
 * How many values of the column each key id holds: the `<key id>` of `v2:<key id>:…` values, `v1` for values in
 * the format without a key id.
 */
export async function countSealedByKeyId(db: Db, col: SealedColumn): Promise<Record<string, number>> {
  const rows = (await db(col.table)
    .whereNotNull(col.column)
    .select(
      db.raw(`CASE WHEN ?? LIKE 'v2:%' THEN split_part(??, ':', 2) ELSE split_part(??, ':', 1) END AS key_id`, [
        col.column,
        col.column,
        col.column,
      ]),
    )
    .count({ n: '*' })
    .groupBy('key_id')
    .orderBy('key_id')) as Array<{ key_id: string; n: string | number }>;
  return Object.fromEntries(rows.map((r) => [r.key_id, Number(r.n)]));
}
