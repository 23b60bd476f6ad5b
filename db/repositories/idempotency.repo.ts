import type { IdempotencyDialect } from '../../domain/idempotency.js';
import type { Db } from '../connection.js';
import { deleteInBatches } from '../batches.js';

export interface StoredResponse {
  operation: string;
  requestHash: string;
  status: number;
  body: Buffer;
  contentType: string;
  resourceId: string | null;
}

export interface KeyRef {
  dialect: IdempotencyDialect;
  tenantId: string;
  key: string;
}

const pk = (ref: KeyRef) => ({ dialect: ref.dialect, tenant_id: ref.tenantId, key: ref.key });

/** The completed response stored under a key, ignoring rows past their retention. */
export async function findStoredResponse(db: Db, ref: KeyRef, now: Date): Promise<StoredResponse | null> {
  const row = await db('idempotency_keys')
    .where(pk(ref))
    .andWhere((q) => q.whereNull('expires_at').orWhere('expires_at', '>', now))
    .first();
  if (!row) return null;
  return {
    operation: row.operation,
    requestHash: row.request_hash,
    status: row.response_status,
    body: row.response_body,
    contentType: row.response_content_type,
    resourceId: row.resource_id,
  };
}

/**
 * Inside the caller's transaction, claims the key by inserting a placeholder row. A concurrent claim of the
 * same key blocks on the unique index until this transaction ends, then sees the row (or claims it if this
 * transaction rolled back). Returns false when someone else holds the key.
 */
export async function claimKey(
  trx: Db,
  ref: KeyRef,
  claim: { operation: string; requestHash: string; expiresAt: Date | null },
  now: Date,
): Promise<boolean> {
  await trx('idempotency_keys').where(pk(ref)).andWhere('expires_at', '<=', now).del();
  const rows = await trx('idempotency_keys')
    .insert({
      ...pk(ref),
      operation: claim.operation,
      request_hash: claim.requestHash,
      response_status: 0,
      response_body: Buffer.alloc(0),
      response_content_type: '',
      expires_at: claim.expiresAt,
    })
    .onConflict(['dialect', 'tenant_id', 'key'])
    .ignore()
    .returning('key');
  return rows.length === 1;
}

export async function completeKey(
  trx: Db,
  ref: KeyRef,
  response: { status: number; body: Buffer; contentType: string; resourceId: string | null },
): Promise<void> {
  await trx('idempotency_keys').where(pk(ref)).update({
    response_status: response.status,
    response_body: response.body,
    response_content_type: response.contentType,
    resource_id: response.resourceId,
  });
}

export async function countRetainedResponses(db: Db, dialect: IdempotencyDialect, tenantId: string): Promise<number> {
  const [row] = await db('idempotency_keys').where({ dialect, tenant_id: tenantId }).count<{ count: string }[]>('* as count');
  return Number(row?.count ?? 0);
}

export async function purgeExpiredIdempotencyKeys(db: Db, now: Date): Promise<number> {
  return deleteInBatches(db, 'idempotency_keys', (q) => q.whereNotNull('expires_at').andWhere('expires_at', '<=', now));
}
