import type { Knex } from 'knex';

/**
 * Sends `last` and then the transaction's COMMIT without waiting for `last`'s answer in between: the pool's connections
 * are in pipeline mode (db/connection.ts), so this is one round trip where there were two, and locks the transaction
 * took earlier are held that much shorter. The outcome stays all or nothing: when `last` fails the transaction is
 * aborted and PostgreSQL answers the COMMIT behind it with a ROLLBACK. Resolves with `last`'s result once committed;
 * rejects with `last`'s error when it failed (nothing was committed), or with the COMMIT's own error.
 *
 * `last` must not have been started: it is sent here, and the COMMIT only once the driver has it on the wire in front
 * (knex emits `query` synchronously just before handing a statement to the driver, which writes it in order).
 */
export async function commitWith<T>(trx: Knex.Transaction, last: Knex.QueryBuilder | Knex.Raw): Promise<T> {
  const sent = new Promise<'sent'>((resolve) => void last.on('query', () => resolve('sent')));
  const answer = (last as PromiseLike<T>).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  // A statement that failed before reaching the driver (e.g. the transaction was already over) has no COMMIT behind it.
  const first = await Promise.race([sent, answer]);
  if (first !== 'sent' && !first.ok) throw first.error;
  const [outcome] = await Promise.all([answer, trx.commit()]);
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
