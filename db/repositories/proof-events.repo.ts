import { envelope, type ProofEventType } from '../../domain/proof/events.js';
import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../connection.js';

/**
 * Appends an event in the caller's transaction, only if the merchant has an enabled `/proof` webhook
 * endpoint at that moment (spec section 6: later registrations get no history). The endpoint rows are read
 * FOR SHARE, so a concurrent disable or delete waits for this commit: "enabled at commit time". The caller
 * holds the merchant lock, so a merchant's events commit in cursor order and `after` never skips one.
 */
export async function appendProofEvent(
  trx: Db,
  input: { merchantId: string; type: ProofEventType; data: Record<string, unknown>; occurredAt: Date },
): Promise<{ id: string; cursor: number; body: Buffer } | null> {
  const enabled = await trx('webhook_endpoints').where({ interface: 'proof', tenant_id: input.merchantId, status: 'enabled' }).forShare().first('id');
  if (!enabled) return null;
  const id = newId('evt');
  const body = envelope(id, input.type, input.occurredAt, input.data);
  const [row] = await trx('proof_events').insert({ id, merchant_id: input.merchantId, type: input.type, body, created_at: input.occurredAt }).returning(['cursor']);
  return { id, cursor: Number(row.cursor), body };
}

/** Events of the merchant after `after` (exclusive), oldest first, with their stored bytes. */
export async function listProofEvents(db: Db, merchantId: string, after: number, limit: number): Promise<Array<{ cursor: number; body: Buffer }>> {
  const rows = await db('proof_events').where({ merchant_id: merchantId }).where('cursor', '>', after).orderBy('cursor').limit(limit).select('cursor', 'body');
  return rows.map((r) => ({ cursor: Number(r.cursor), body: r.body as Buffer }));
}
