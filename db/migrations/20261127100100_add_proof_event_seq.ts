import type { Knex } from 'knex';

export const name = '20261127100100_add_proof_event_seq';

/**
 * The `/proof` event cursor becomes a per-account sequence (docs/proof.md "Events"): `proof_events.seq`, numbered per
 * merchant, is what `GET /v1/events` answers as `cursor` and reads `after` against. The global `cursor` (a bigserial
 * shared by every account) stays the table's key but is never shown again: its gaps told a merchant how many events
 * the other accounts produced in between.
 *
 * Events recorded before this migration keep their old cursor as `seq` (each account's are increasing already), so
 * the `after` a client is polling with stays valid and it misses nothing; the next event of an account is its largest
 * `seq` plus one. Those old values show what the feed showed before; nothing recorded from now on reveals anything
 * about other accounts. `(merchant_id, seq)` is unique: the database's own guarantee behind the merchant lock every
 * event writer takes.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE proof_events ADD COLUMN seq bigint');
  // The trigger refuses every update of an event; the backfill is the one exception, made with it disabled.
  await db.raw('ALTER TABLE proof_events DISABLE TRIGGER proof_events_immutable');
  await db.raw('UPDATE proof_events SET seq = cursor');
  await db.raw('ALTER TABLE proof_events ENABLE TRIGGER proof_events_immutable');
  await db.raw('ALTER TABLE proof_events ALTER COLUMN seq SET NOT NULL');
  await db.raw('CREATE UNIQUE INDEX proof_events_merchant_seq ON proof_events (merchant_id, seq)');
  await db.raw('ALTER TABLE proof_events ADD CONSTRAINT proof_events_seq_positive CHECK (seq > 0)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE proof_events DROP CONSTRAINT IF EXISTS proof_events_seq_positive');
  await db.raw('DROP INDEX IF EXISTS proof_events_merchant_seq');
  await db.raw('ALTER TABLE proof_events DROP COLUMN seq');
}
