import type { ApiKeyRecord } from '../../db/repositories/api-keys.repo.js';

/* The API key record both sessions show (the company's keys and the merchant's). */

export const isActive = (k: ApiKeyRecord, now: Date) =>
  !k.revokedAt && (!k.expiresAt || k.expiresAt.getTime() > now.getTime());

/** Key metadata: never the secret or its hash; `usable` is false past the plan's limit after a downgrade. */
export function keyJson(k: ApiKeyRecord, now: Date, usable: boolean) {
  const status: 'revoked' | 'active' | 'expired' = k.revokedAt ? 'revoked' : isActive(k, now) ? 'active' : 'expired';
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    last4: k.last4,
    scopes: k.scopes,
    status,
    usable,
    expires_at: k.expiresAt?.toISOString() ?? null,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    revoked_at: k.revokedAt?.toISOString() ?? null,
  };
}
