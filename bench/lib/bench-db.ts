import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Config } from '../../config/schema.js';
import type { Infrastructure } from '../../cli/infrastructure.js';
import { createDb, type Db } from '../../db/connection.js';
import type { RunLifecycle } from './lifecycle.js';

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database on the embedded server (dropped at the end), or the configured DATABASE_URL as is, in which
 * case only the rows of this run's tenant are deleted at the end. Not migrated yet.
 */
export async function openBenchDatabase(
  infra: Infrastructure,
  config: Config,
  tenantId: string,
  run: RunLifecycle,
): Promise<{ db: Db; description: string; url: string }> {
  const opts = {
    poolMax: config.database.poolMax,
    applicationName: 'paycore-bench',
    timeouts: config.database.timeouts,
  };
  const adminUrl = infra.adminDatabaseUrl;
  if (adminUrl) {
    const name = `bench_${randomBytes(6).toString('hex')}`;
    await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const db = createDb(url.toString(), opts);
    run.defer(`drop database ${name}`, async () => {
      await db.destroy();
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });
    return { db, description: `embedded PostgreSQL, database ${name} (dropped at the end)`, url: url.toString() };
  }
  const db = createDb(infra.databaseUrl, opts);
  run.defer('close database', () => db.destroy());
  run.defer(`delete rows of tenant ${tenantId}`, async () => {
    const endpoints = db('webhook_endpoints').select('id').where({ tenant_id: tenantId });
    const deliveries = db('webhook_deliveries').select('id').whereIn('endpoint_id', endpoints);
    await db('webhook_delivery_attempts').whereIn('delivery_id', deliveries).delete();
    await db('webhook_deliveries').whereIn('endpoint_id', endpoints).delete();
    await db('webhook_endpoints').where({ tenant_id: tenantId }).delete();
  });
  return { db, description: "DATABASE_URL (this run's rows are deleted at the end)", url: infra.databaseUrl };
}

/** Percentiles in milliseconds, NaN when there is nothing to measure. */
export interface P50P95 {
  p50: number;
  p95: number;
}

export interface DeliveryStats {
  total: number;
  delivered: number;
  attempts: number;
  /** created_at -> delivered_at of each delivery (database clock). */
  endToEnd: P50P95;
  /** created_at -> first attempt started: insert commit, workflow start, workflow task, activity task. */
  queued: P50P95;
  /** The POST itself, as the activity measured it. */
  post: P50P95;
  /** First attempt finished -> delivery settled: activity completion, workflow task, local activity. */
  settle: P50P95;
}

const pct = (expr: string, q: number) => `percentile_cont(${q}) within group (order by ${expr})`;
const ms = (interval: string) => `extract(epoch from ${interval}) * 1000`;

/** A LIKE pattern for the values starting with `prefix` (its `\`, `%` and `_` taken literally). */
export const likePrefix = (prefix: string): string => `${prefix.replace(/[\\%_]/g, '\\$&')}%`;

/** What the database recorded about the deliveries to `endpointId` whose event id starts with `eventIdPrefix`. */
export async function deliveryStats(db: Db, endpointId: string, eventIdPrefix: string): Promise<DeliveryStats> {
  const like = likePrefix(eventIdPrefix);
  const row = await db('webhook_deliveries as d')
    .leftJoin('webhook_delivery_attempts as a', (j) => j.on('a.delivery_id', 'd.id').andOnVal('a.attempt_no', 1))
    .where('d.endpoint_id', endpointId)
    .andWhere('d.event_id', 'like', like)
    .select(
      db.raw('count(distinct d.id) as total'),
      db.raw("count(distinct d.id) filter (where d.status = 'delivered') as delivered"),
      db.raw(
        '(select coalesce(sum(attempts), 0) from webhook_deliveries where endpoint_id = ? and event_id like ?) as attempts',
        [endpointId, like],
      ),
      db.raw(`${pct(ms('d.delivered_at - d.created_at'), 0.5)} as e2e_p50`),
      db.raw(`${pct(ms('d.delivered_at - d.created_at'), 0.95)} as e2e_p95`),
      db.raw(`${pct(ms('a.started_at - d.created_at'), 0.5)} as queued_p50`),
      db.raw(`${pct(ms('a.started_at - d.created_at'), 0.95)} as queued_p95`),
      db.raw(`${pct('a.duration_ms', 0.5)} as post_p50`),
      db.raw(`${pct('a.duration_ms', 0.95)} as post_p95`),
      db.raw(`${pct(ms('d.delivered_at - a.finished_at'), 0.5)} as settle_p50`),
      db.raw(`${pct(ms('d.delivered_at - a.finished_at'), 0.95)} as settle_p95`),
    )
    .first();
  const num = (v: unknown) => (v === null || v === undefined ? Number.NaN : Number(v));
  const pair = (p: string): P50P95 => ({ p50: num(row?.[`${p}_p50`]), p95: num(row?.[`${p}_p95`]) });
  return {
    total: num(row?.total),
    delivered: num(row?.delivered),
    attempts: num(row?.attempts),
    endToEnd: pair('e2e'),
    queued: pair('queued'),
    post: pair('post'),
    settle: pair('settle'),
  };
}
