import {
  KEY_ID_LENGTH,
  KEY_PREFIX,
  KEY_SECRET_LENGTH,
  normalizeScopes,
  parsePresentedKey,
  type KeyInterface,
  type KeyScope,
} from '../../domain/api-keys.js';
import { newId, randomAlphanumeric, sha256Hex, timingSafeEqualHex } from '../../adapters/crypto/tokens.js';
import type { Db } from '../connection.js';

/** Public metadata of a key. The secret is never part of it. */
export interface ApiKeyRecord {
  id: string;
  interface: KeyInterface;
  tenantId: string;
  ownerId: string | null;
  name: string;
  prefix: string;
  last4: string;
  scopes: KeyScope[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

interface Row {
  id: string;
  interface: KeyInterface;
  tenant_id: string;
  owner_id: string | null;
  name: string;
  lookup_id: string;
  secret_hash: string;
  prefix: string;
  last4: string;
  scopes: KeyScope[];
  expires_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
  last_used_at: Date | null;
}

const toRecord = (r: Row): ApiKeyRecord => ({
  id: r.id,
  interface: r.interface,
  tenantId: r.tenant_id,
  ownerId: r.owner_id,
  name: r.name,
  prefix: r.prefix,
  last4: r.last4,
  scopes: r.scopes,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
});

export interface IssueKeyInput {
  interface: KeyInterface;
  tenantId: string;
  ownerId?: string | null;
  name: string;
  scopes: KeyScope[];
  expiresAt?: Date | null;
}

/** Creates a key. The returned secret is the only time it exists outside the caller's hands. */
export async function issueApiKey(db: Db, input: IssueKeyInput): Promise<{ key: ApiKeyRecord; secret: string }> {
  const lookupId = randomAlphanumeric(KEY_ID_LENGTH);
  const secret = `${KEY_PREFIX[input.interface]}${lookupId}${randomAlphanumeric(KEY_SECRET_LENGTH)}`;
  const [row] = await db<Row>('api_keys')
    .insert({
      id: newId('key'),
      interface: input.interface,
      tenant_id: input.tenantId,
      owner_id: input.ownerId ?? null,
      name: input.name,
      lookup_id: lookupId,
      secret_hash: sha256Hex(secret),
      prefix: `${KEY_PREFIX[input.interface]}${lookupId.slice(0, 4)}`,
      last4: secret.slice(-4),
      scopes: normalizeScopes(input.scopes, input.interface),
      expires_at: input.expiresAt ?? null,
    })
    .returning('*');
  return { key: toRecord(row as Row), secret };
}

export type VerifyOutcome =
  { ok: true; key: ApiKeyRecord } | { ok: false; reason: 'malformed' | 'unknown' | 'revoked' | 'expired' };

/**
 * Finds the key by its public lookup id and compares SHA-256 digests in constant time. Malformed and unknown
 * tokens cost the same hash-and-compare as real ones.
 */
export async function verifyApiKey(db: Db, iface: KeyInterface, token: string, now: Date): Promise<VerifyOutcome> {
  const parsed = parsePresentedKey(iface, token);
  const presentedHash = sha256Hex(token);
  if (!parsed) {
    timingSafeEqualHex(presentedHash, presentedHash);
    return { ok: false, reason: 'malformed' };
  }
  const row = await db<Row>('api_keys').where({ lookup_id: parsed.lookupId, interface: iface }).first();
  return checkKeyRow(row, presentedHash, now);
}

/**
 * As verifyApiKey, with `extra` columns selected beside the key row in the same statement (`k` is the key row):
 * e.g. the tenant's row and the key's rank (db/repositories/merchants.repo.ts verifyMerchantKey). `extra` is
 * undefined when the token is malformed or no key has its lookup id.
 */
export async function verifyApiKeyWith<T extends Record<string, unknown>>(
  db: Db,
  iface: KeyInterface,
  token: string,
  now: Date,
  extra: { columns: string; joins?: string; bindings: readonly unknown[] },
): Promise<{ outcome: VerifyOutcome; extra: T | undefined }> {
  const parsed = parsePresentedKey(iface, token);
  const presentedHash = sha256Hex(token);
  if (!parsed) {
    timingSafeEqualHex(presentedHash, presentedHash);
    return { outcome: { ok: false, reason: 'malformed' }, extra: undefined };
  }
  const { rows } = await db.raw<{ rows: Array<Row & T> }>(
    `SELECT k.*, ${extra.columns} FROM api_keys k ${extra.joins ?? ''} WHERE k.lookup_id = ? AND k.interface = ? LIMIT 1`,
    [...extra.bindings, parsed.lookupId, iface] as never[],
  );
  const row = rows[0];
  return { outcome: checkKeyRow(row, presentedHash, now), extra: row };
}

/** The verdict on the key row found by a token's lookup id (the digest compared in constant time either way). */
function checkKeyRow(row: Row | undefined, presentedHash: string, now: Date): VerifyOutcome {
  const match = timingSafeEqualHex(presentedHash, row?.secret_hash ?? presentedHash.replace(/./g, '0'));
  if (!row || !match) return { ok: false, reason: 'unknown' };
  if (row.revoked_at) return { ok: false, reason: 'revoked' };
  if (row.expires_at && row.expires_at.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, key: toRecord(row) };
}

/**
 * SQL (over the key row `k`) of the key's 0-based rank among its tenant's active keys at the first binding (a
 * timestamp), as activeKeyRank computes it.
 */
export const ACTIVE_KEY_RANK_SQL = `(SELECT count(*) FROM api_keys o
   WHERE o.interface = k.interface AND o.tenant_id = k.tenant_id AND o.revoked_at IS NULL
     AND (o.expires_at IS NULL OR o.expires_at > ?)
     AND (o.created_at < k.created_at OR (o.created_at = k.created_at AND o.id < k.id)))`;

/** Records use at most once a minute per key, so authentication stays one read on the hot path. */
export async function touchApiKey(db: Db, id: string, now: Date): Promise<void> {
  await db('api_keys')
    .where({ id })
    .andWhere((q) => q.whereNull('last_used_at').orWhere('last_used_at', '<', new Date(now.getTime() - 60_000)))
    .update({ last_used_at: now });
}

export async function revokeApiKey(
  db: Db,
  iface: KeyInterface,
  tenantId: string,
  id: string,
  now: Date,
): Promise<ApiKeyRecord | null> {
  const [row] = await db<Row>('api_keys')
    .where({ id, interface: iface, tenant_id: tenantId })
    .update({ revoked_at: db.raw('COALESCE(revoked_at, ?)', [now]) })
    .returning('*');
  return row ? toRecord(row as Row) : null;
}

export async function listApiKeys(db: Db, iface: KeyInterface, tenantId: string): Promise<ApiKeyRecord[]> {
  const rows = await db<Row>('api_keys').where({ interface: iface, tenant_id: tenantId }).orderBy('created_at', 'asc');
  return rows.map(toRecord);
}

/** Keys that are neither revoked nor expired at `now`. */
export async function countActiveApiKeys(db: Db, iface: KeyInterface, tenantId: string, now: Date): Promise<number> {
  const [row] = await db('api_keys')
    .where({ interface: iface, tenant_id: tenantId })
    .whereNull('revoked_at')
    .andWhere((q) => q.whereNull('expires_at').orWhere('expires_at', '>', now))
    .count<{ count: string }[]>('* as count');
  return Number(row?.count ?? 0);
}

/**
 * The 0-based position of a key among the tenant's active keys, oldest first (ties by id): after a plan
 * downgrade only the earliest allowed keys stay usable.
 */
export async function activeKeyRank(
  db: Db,
  iface: KeyInterface,
  tenantId: string,
  key: { id: string; createdAt: Date },
  now: Date,
): Promise<number> {
  const [row] = await db('api_keys')
    .where({ interface: iface, tenant_id: tenantId })
    .whereNull('revoked_at')
    .andWhere((q) => q.whereNull('expires_at').orWhere('expires_at', '>', now))
    .andWhere((q) =>
      q
        .where('created_at', '<', key.createdAt)
        .orWhere((q2) => q2.where('created_at', key.createdAt).andWhere('id', '<', key.id)),
    )
    .count<{ count: string }[]>('* as count');
  return Number(row?.count ?? 0);
}
