import type { Knex } from 'knex';
import type { Db } from './connection.js';

/** Rows one purge statement deletes at most: each statement stays well inside DATABASE_STATEMENT_TIMEOUT_MS. */
export const PURGE_BATCH = 5_000;

/**
 * Deletes the rows of `table` that `where` selects, at most `batch` per statement, until none is left, and
 * returns how many. A backlog (e.g. after maintenance could not run for a while) is then many short statements,
 * each under the statement timeout and holding its locks briefly, instead of one that the timeout would cancel
 * every time.
 */
export async function deleteInBatches(
  db: Db,
  table: string,
  where: (q: Knex.QueryBuilder) => Knex.QueryBuilder,
  batch: number = PURGE_BATCH,
): Promise<number> {
  let total = 0;
  for (;;) {
    const chunk = where(db(table).select('ctid')).limit(batch);
    const deleted = await db(table).whereRaw('ctid = ANY(ARRAY(?))', [chunk]).del();
    total += deleted;
    if (deleted < batch) return total;
  }
}
