import type { Db } from '../connection.js';
import type { RecordedNonce, SendingTurns } from '../../adapters/x402/settlement-sender.js';

/**
 * Sending turns of a key in PostgreSQL (table `x402_sender_nonces`), for every process that settles x402 fees with
 * the same facilitator key: a turn is a transaction holding the key's row lock while it broadcasts, and it records
 * the nonce it used before releasing the lock. A turn that throws records nothing.
 */
export function sendingTurnsIn(db: Db): SendingTurns {
  return {
    take: (key, send) =>
      db.transaction(async (trx) => {
        const where = { chain_id: key.chainId, address: key.address.toLowerCase() };
        await trx('x402_sender_nonces').insert(where).onConflict(['chain_id', 'address']).ignore();
        const row = (await trx('x402_sender_nonces')
          .where(where)
          .forUpdate()
          .first(
            'next_nonce',
            trx.raw('(EXTRACT(EPOCH FROM (clock_timestamp() - updated_at)) * 1000)::bigint AS age_ms'),
          )) as { next_nonce: string | null; age_ms: string };
        const recorded: RecordedNonce | null =
          row.next_nonce === null ? null : { next: BigInt(row.next_nonce), ageMs: Number(row.age_ms) };
        const { value, used } = await send(recorded);
        if (used !== null)
          await trx('x402_sender_nonces')
            .where(where)
            .update({ next_nonce: (used + 1n).toString(), updated_at: trx.raw('clock_timestamp()') });
        return value;
      }),
  };
}
