import type { Knex } from 'knex';

export const name = '20261127130000_create_rate_limit_windows';

/**
 * Sliding rate-limit windows (docs/platform.md "Rate limits"), replacing the fixed windows of `rate_limit_counters`
 * (which admitted a limit's worth at the end of one window and again at the start of the next: up to twice the limit
 * in 60 s).
 *
 * One row per (rule, subject) bucket: `hits` maps the time (epoch milliseconds, as a JSON key) from which granted hits
 * count to how many were granted for it; a hit counts while its time is within the last window. `expires_at`: when the
 * newest hit has left the window (the maintenance purge deletes the row after it). UNLOGGED: counters are hot,
 * short-lived and worthless after a crash; skipping the WAL keeps them cheap.
 *
 * `rate_limit_take(bucket, now_ms, window_ms, limit, ask, record_ms, refunds)` does one bucket's work under its row
 * lock, in one call: drops the hits that have left the window (and any counted from more than a window ahead, which
 * only a clock that was set wrong can have written: they would otherwise refuse the subject until that time), subtracts `refunds` (`{"<ms>": n}`: hits granted before
 * and not used, given back), grants up to `ask` hits while the window holds fewer than `limit` (every asked hit when
 * `limit` is NULL: failures that happened), counts them from `record_ms`, and returns what it granted, the window's
 * total and its hits. Hits that were refused are never recorded, so a client that keeps sending while refused does
 * not keep itself out.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE UNLOGGED TABLE rate_limit_windows (
      bucket text PRIMARY KEY,
      hits jsonb NOT NULL,
      expires_at timestamptz NOT NULL
    )`);
  await db.raw('CREATE INDEX rate_limit_windows_expires_at_idx ON rate_limit_windows (expires_at)');
  await db.raw(`
    CREATE FUNCTION rate_limit_take(p_bucket text, p_now_ms bigint, p_window_ms bigint, p_limit integer, p_ask integer, p_record_ms bigint, p_refunds jsonb)
    RETURNS TABLE (granted_hits integer, window_total integer, window_hits jsonb)
    LANGUAGE plpgsql AS $$
    DECLARE
      v_hits jsonb;
      v_total integer;
      v_granted integer;
      v_newest bigint;
    BEGIN
      -- The bucket's row, locked (created when missing; again if the purge removed it in between).
      LOOP
        SELECT w.hits INTO v_hits FROM rate_limit_windows w WHERE w.bucket = p_bucket FOR UPDATE;
        EXIT WHEN FOUND;
        INSERT INTO rate_limit_windows (bucket, hits, expires_at) VALUES (p_bucket, '{}'::jsonb, to_timestamp(p_now_ms / 1000.0))
          ON CONFLICT (bucket) DO NOTHING;
      END LOOP;
      SELECT coalesce(jsonb_object_agg(e.t_ms, e.n), '{}'::jsonb), coalesce(sum(e.n), 0)::integer, max(e.t_ms::bigint)
        INTO v_hits, v_total, v_newest
        FROM (SELECT x.t_ms, sum(x.n)::integer AS n
                FROM (SELECT h.key AS t_ms, h.value::integer AS n FROM jsonb_each_text(v_hits) h
                      UNION ALL
                      SELECT r.key, -(r.value::integer) FROM jsonb_each_text(coalesce(p_refunds, '{}'::jsonb)) r) x
               GROUP BY x.t_ms
              HAVING x.t_ms::bigint > p_now_ms - p_window_ms AND x.t_ms::bigint <= p_now_ms + p_window_ms AND sum(x.n) > 0) e;
      v_granted := CASE WHEN p_limit IS NULL THEN greatest(0, p_ask) ELSE greatest(0, least(p_ask, p_limit - v_total)) END;
      IF v_granted > 0 THEN
        v_hits := jsonb_set(v_hits, ARRAY[p_record_ms::text], to_jsonb(coalesce((v_hits ->> p_record_ms::text)::integer, 0) + v_granted));
        v_total := v_total + v_granted;
        v_newest := greatest(coalesce(v_newest, p_record_ms), p_record_ms);
      END IF;
      UPDATE rate_limit_windows w
         SET hits = v_hits, expires_at = to_timestamp((coalesce(v_newest, p_now_ms - p_window_ms) + p_window_ms) / 1000.0)
       WHERE w.bucket = p_bucket;
      RETURN QUERY SELECT v_granted, v_total, v_hits;
    END $$`);
  await db.raw('DROP TABLE rate_limit_counters');
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`
    CREATE UNLOGGED TABLE rate_limit_counters (
      bucket text NOT NULL,
      window_start timestamptz NOT NULL,
      hits integer NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (bucket, window_start)
    )`);
  await db.raw('CREATE INDEX rate_limit_counters_expires_at_idx ON rate_limit_counters (expires_at)');
  await db.raw('DROP FUNCTION rate_limit_take(text, bigint, bigint, integer, integer, bigint, jsonb)');
  await db.schema.dropTable('rate_limit_windows');
}
