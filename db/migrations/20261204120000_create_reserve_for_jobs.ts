import type { Knex } from 'knex';

export const name = '20261204120000_create_reserve_for_jobs';

/**
 * The part of a /v1 submission made under the company lock, as one function (issue 32 item 5): it takes the lock
 * (FOR NO KEY UPDATE on the company row, as `lockCompany` does) and then, in a statement of its own, reads the sources
 * still there, counts the company's unfinished jobs and moves the wallet, writing each reservation and its ledger row.
 * Before, the lock was one round trip and that statement another, and every submission of the company waited for
 * both: now the lock is held for the function and the commit only. A VOLATILE PL/pgSQL function takes a new snapshot
 * for each statement it runs, so the reading statement, run once the lock is held, sees every submission and deletion
 * that held the lock before (READ COMMITTED, as the two round trips did). Called by job-reservations.repo.ts; the
 * statuses that count as unfinished are passed in (domain/jobs.ts). A transaction that already holds the lock
 * (a batch retry's check) takes it again at no cost.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE FUNCTION paycore_reserve_for_jobs(
      p_company text, p_sources text[], p_unfinished text[], p_total bigint,
      p_ids text[], p_job_ids text[], p_amounts bigint[])
    RETURNS TABLE (found json, unfinished int, reserved int, available bigint)
    LANGUAGE plpgsql VOLATILE AS $fn$
    #variable_conflict use_column
    BEGIN
      PERFORM 1 FROM companies WHERE id = p_company FOR NO KEY UPDATE;
      RETURN QUERY
      WITH src AS (
        SELECT coalesce(json_agg(json_build_object('id', u.id, 'purged', u.purged_at IS NOT NULL)), '[]'::json) AS found
          FROM uploads u WHERE u.company_id = p_company AND u.id = ANY(p_sources) AND u.deleted_at IS NULL),
      unf AS (
        SELECT count(*)::int AS n FROM jobs j WHERE j.company_id = p_company AND j.status = ANY(p_unfinished)),
      before AS (SELECT wb.available FROM wallets wb WHERE wb.company_id = p_company),
      w AS (
        UPDATE wallets SET available = wallets.available - p_total, reserved = wallets.reserved + p_total,
               updated_at = now()
         WHERE wallets.company_id = p_company AND wallets.available >= p_total
         RETURNING 1),
      need AS (
        SELECT * FROM unnest(p_ids, p_job_ids, p_amounts) AS t(id, job_id, amount)),
      r AS (
        INSERT INTO credit_reservations (id, company_id, job_id, amount)
        SELECT need.id, p_company, need.job_id, need.amount FROM need, w
        RETURNING credit_reservations.id, credit_reservations.amount),
      l AS (
        INSERT INTO credit_ledger (company_id, kind, amount, reservation_id)
        SELECT p_company, 'reserve', r.amount, r.id FROM r)
      SELECT (SELECT src.found FROM src), (SELECT unf.n FROM unf),
             (SELECT count(*) FROM w)::int, (SELECT before.available FROM before);
    END
    $fn$`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(
    'DROP FUNCTION IF EXISTS paycore_reserve_for_jobs(text, text[], text[], bigint, text[], text[], bigint[])',
  );
}
