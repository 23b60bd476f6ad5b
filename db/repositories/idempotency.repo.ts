import type { IdempotencyDialect } from '../../domain/idempotency.js';
import type { Knex } from 'knex';
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

const toStored = (row: Record<string, unknown>): StoredResponse => ({
  operation: row['operation'] as string,
  requestHash: row['request_hash'] as string,
  status: row['response_status'] as number,
  body: row['response_body'] as Buffer,
  contentType: row['response_content_type'] as string,
  resourceId: row['resource_id'] as string | null,
});

/** The completed response stored under a key, ignoring rows past their retention. */
export async function findStoredResponse(db: Db, ref: KeyRef, now: Date): Promise<StoredResponse | null> {
  const row = await db('idempotency_keys')
    .where(pk(ref))
    .andWhere((q) => q.whereNull('expires_at').orWhere('expires_at', '>', now))
    .first();
  return row ? toStored(row) : null;
}

/**
 * As findStoredResponse, and in the same statement how many responses the tenant keeps forever in the dialect
 * (the `idempotency_retained` counter: one row read, whatever the tenant's history).
 */
export async function findStoredResponseAndRetained(
  db: Db,
  ref: KeyRef,
  now: Date,
): Promise<{ stored: StoredResponse | null; retained: number }> {
  const { rows } = await db.raw<{ rows: Array<Record<string, unknown>> }>(
    `SELECT k.*, (SELECT r.responses FROM idempotency_retained r WHERE r.dialect = ? AND r.tenant_id = ?) AS retained_responses
       FROM (SELECT 1) AS one
       LEFT JOIN idempotency_keys k ON k.dialect = ? AND k.tenant_id = ? AND k.key = ? AND (k.expires_at IS NULL OR k.expires_at > ?)`,
    [ref.dialect, ref.tenantId, ref.dialect, ref.tenantId, ref.key, now],
  );
  const row = rows[0] ?? {};
  return { stored: row['operation'] == null ? null : toStored(row), retained: Number(row['retained_responses'] ?? 0) };
}

/**
 * The stored response under `ref` and the tenant's retained count (findStoredResponseAndRetained) as columns of a
 * statement over a row whose tenant id is the SQL expression `tenantSql` (e.g. an API key row `k.tenant_id`): how the
 * /proof/v1 key statement reads them in the same round trip (verifyMerchantKey). Column bindings first, then join
 * bindings, in the order the text has them; storedFromColumns reads the result.
 */
export function storedResponseColumns(
  ref: Omit<KeyRef, 'tenantId'>,
  tenantSql: string,
  now: Date,
): { columns: string; columnBindings: unknown[]; joins: string; joinBindings: unknown[] } {
  return {
    columns: `ik.operation AS ik_operation, ik.request_hash AS ik_request_hash, ik.response_status AS ik_response_status,
              ik.response_body AS ik_response_body, ik.response_content_type AS ik_response_content_type, ik.resource_id AS ik_resource_id,
              (SELECT r.responses FROM idempotency_retained r WHERE r.dialect = ? AND r.tenant_id = ${tenantSql}) AS ik_retained`,
    columnBindings: [ref.dialect],
    joins: `LEFT JOIN idempotency_keys ik ON ik.dialect = ? AND ik.tenant_id = ${tenantSql} AND ik.key = ? AND (ik.expires_at IS NULL OR ik.expires_at > ?)`,
    joinBindings: [ref.dialect, ref.key, now],
  };
}

/** What storedResponseColumns read, as findStoredResponseAndRetained answers it. */
export function storedFromColumns(row: Record<string, unknown>): { stored: StoredResponse | null; retained: number } {
  const stored =
    row['ik_operation'] == null
      ? null
      : toStored(
          Object.fromEntries(
            Object.entries(row)
              .filter(([k]) => k.startsWith('ik_'))
              .map(([k, v]) => [k.slice(3), v]),
          ),
        );
  return { stored, retained: Number(row['ik_retained'] ?? 0) };
}

/**
 * Inside the caller's transaction, claims the key by inserting a placeholder row, in one statement: an expired row of
 * the key is taken over in place (the upsert's condition), a live one is left alone. A concurrent claim of the same key
 * blocks on the unique index (or the taken-over row) until this transaction ends, then sees the row, re-checked on its
 * newest version (or claims it if this transaction rolled back). Returns false when someone else holds the key.
 */
export async function claimKey(
  trx: Db,
  ref: KeyRef,
  claim: { operation: string; requestHash: string; expiresAt: Date | null },
  now: Date,
): Promise<boolean> {
  const placeholder = {
    operation: claim.operation,
    request_hash: claim.requestHash,
    response_status: 0,
    response_body: Buffer.alloc(0),
    response_content_type: '',
    expires_at: claim.expiresAt,
  };
  // A key of a dialect that keeps responses forever (expires_at null) never expires: the condition is never true.
  const rows = await trx('idempotency_keys')
    .insert({ ...pk(ref), ...placeholder })
    .onConflict(['dialect', 'tenant_id', 'key'])
    .merge({ ...placeholder, resource_id: null, created_at: trx.fn.now() })
    .where('idempotency_keys.expires_at', '<=', now)
    .returning('key');
  return rows.length === 1;
}

/**
 * Stores the response of a claimed key, in the claim's transaction. With `retained` (a response kept forever) the
 * tenant's `idempotency_retained` counter goes up by one in the same statement.
 */
export async function completeKey(
  trx: Db,
  ref: KeyRef,
  response: { status: number; body: Buffer; contentType: string; resourceId: string | null },
  opts: { retained?: boolean } = {},
): Promise<void> {
  await completeKeyStatement(trx, ref, response, opts);
}

/** completeKey's statement, unsent: for a caller that sends it with its COMMIT right behind it (db/commit-with.ts). */
export function completeKeyStatement(
  trx: Db,
  ref: KeyRef,
  response: { status: number; body: Buffer; contentType: string; resourceId: string | null },
  opts: { retained?: boolean } = {},
): Knex.QueryBuilder | Knex.Raw {
  if (!opts.retained) {
    return trx('idempotency_keys').where(pk(ref)).update({
      response_status: response.status,
      response_body: response.body,
      response_content_type: response.contentType,
      resource_id: response.resourceId,
    });
  }
  return trx.raw(
    `WITH counted AS (
       INSERT INTO idempotency_retained (dialect, tenant_id, responses) VALUES (?, ?, 1)
       ON CONFLICT (dialect, tenant_id) DO UPDATE SET responses = idempotency_retained.responses + 1
     )
     UPDATE idempotency_keys SET response_status = ?, response_body = ?, response_content_type = ?, resource_id = ?
      WHERE dialect = ? AND tenant_id = ? AND key = ?`,
    [
      ref.dialect,
      ref.tenantId,
      response.status,
      response.body,
      response.contentType,
      response.resourceId,
      ref.dialect,
      ref.tenantId,
      ref.key,
    ],
  );
}

/**
 * The statement that claims a key kept forever and stores its response, with the tenant's `idempotency_retained`
 * counter up by one, in the caller's transaction; returned unsent, for the caller to send with its COMMIT right behind
 * it (db/commit-with.ts). A concurrent holder of the key blocks it until that one ends; when the key is then taken it
 * fails with a unique violation (`isKeyTaken`), which aborts the transaction: the COMMIT sent behind it rolls back.
 */
export function storeKeyStatement(
  trx: Db,
  ref: KeyRef,
  claim: { operation: string; requestHash: string },
  response: { status: number; body: Buffer; contentType: string; resourceId: string | null },
): Knex.Raw {
  return trx.raw(
    `WITH stored_key AS (
       INSERT INTO idempotency_keys (dialect, tenant_id, key, operation, request_hash, response_status, response_body, response_content_type, resource_id, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
       RETURNING dialect, tenant_id
     )
     INSERT INTO idempotency_retained (dialect, tenant_id, responses) SELECT dialect, tenant_id, 1 FROM stored_key
     ON CONFLICT (dialect, tenant_id) DO UPDATE SET responses = idempotency_retained.responses + 1`,
    [
      ref.dialect,
      ref.tenantId,
      ref.key,
      claim.operation,
      claim.requestHash,
      response.status,
      response.body,
      response.contentType,
      response.resourceId,
    ],
  );
}

/** The error of `storeKeyStatement` (or any insert of a key) when the key is already taken. */
export const isKeyTaken = (err: unknown): boolean =>
  typeof err === 'object' &&
  err !== null &&
  (err as { code?: unknown }).code === '23505' &&
  (err as { constraint?: unknown }).constraint === 'idempotency_keys_pkey';

/** Responses the tenant keeps forever in the dialect (the `idempotency_retained` counter). */
export async function countRetainedResponses(db: Db, dialect: IdempotencyDialect, tenantId: string): Promise<number> {
  const row = await db('idempotency_retained')
    .where({ dialect, tenant_id: tenantId })
    .first<{ responses: number } | undefined>('responses');
  return row?.responses ?? 0;
}

export async function purgeExpiredIdempotencyKeys(db: Db, now: Date): Promise<number> {
  return deleteInBatches(db, 'idempotency_keys', (q) => q.whereNotNull('expires_at').andWhere('expires_at', '<=', now));
}
