import type { Db } from '../connection.js';

/** One page of a merchant's rows of `table`, ordered by id descending, strictly before the id `before`. */
export async function merchantPageById<T>(
  db: Db,
  table: string,
  merchantId: string,
  limit: number,
  before: string | null,
  map: (row: Record<string, unknown>) => T,
  filter?: (q: ReturnType<Db>) => void,
): Promise<T[]> {
  const q = db(table).where({ merchant_id: merchantId }).orderBy('id', 'desc').limit(limit);
  if (before) q.where('id', '<', before);
  filter?.(q);
  return (await q).map((row: Record<string, unknown>) => map(row));
}
