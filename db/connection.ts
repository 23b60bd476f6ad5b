import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

export type Db = Knex;

// int8 (bigint) and numeric come back as strings by default; keep them as strings (money is never a float),
// but return counts (int8 from count(*)) as strings too: callers convert explicitly.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v);
// A calendar date (e.g. an invoice's due date) stays the `YYYY-MM-DD` text it is: a JS Date at local midnight
// would shift by a day in time zones east or west of UTC.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export function createDb(url: string, opts: { poolMax?: number; applicationName?: string } = {}): Db {
  return knexFactory({
    client: 'pg',
    connection: { connectionString: url, application_name: opts.applicationName ?? 'paycore' },
    pool: { min: 0, max: opts.poolMax ?? 10 },
    acquireConnectionTimeout: 10_000,
  });
}
