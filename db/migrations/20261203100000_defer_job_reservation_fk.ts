import type { Knex } from 'knex';

export const name = '20261203100000_defer_job_reservation_fk';

/**
 * A submission writes its job rows before it takes the company lock and reserves their credits under it, in one
 * statement (issue 32 item 5, `reserveForJobs`): the job's reference to its reservation is checked at the commit,
 * when both rows exist, instead of at the job's insert. Nothing else changes: a job still cannot commit without its
 * reservation.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE jobs ALTER CONSTRAINT jobs_reservation_id_foreign DEFERRABLE INITIALLY DEFERRED');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE jobs ALTER CONSTRAINT jobs_reservation_id_foreign NOT DEFERRABLE');
}
