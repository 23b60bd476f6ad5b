import { DomainError } from './errors.js';

/** Which interface a key belongs to. Keys of one interface never authenticate on another. */
export type KeyInterface = 'v1' | 'proof';
export type KeyScope = 'read' | 'write';

export const KEY_PREFIX: Readonly<Record<KeyInterface, string>> = { v1: 'sk_live_', proof: 'skp_' };

/** Characters after the prefix: a 12-character public lookup id, then a 32-character secret part. */
export const KEY_ID_LENGTH = 12;
export const KEY_SECRET_LENGTH = 32;
const BODY = new RegExp(`^[A-Za-z0-9]{${KEY_ID_LENGTH + KEY_SECRET_LENGTH}}$`);

/** Splits a presented token into its lookup id, or null when it cannot be a key of that interface. */
export function parsePresentedKey(iface: KeyInterface, token: string): { lookupId: string } | null {
  const prefix = KEY_PREFIX[iface];
  if (!token.startsWith(prefix)) return null;
  const body = token.slice(prefix.length);
  if (!BODY.test(body)) return null;
  return { lookupId: body.slice(0, KEY_ID_LENGTH) };
}

/** True when a string looks like any of our keys (used to refuse keys in query strings). */
export function looksLikeApiKey(value: string): boolean {
  return Object.values(KEY_PREFIX).some((p) => value.includes(p));
}

/**
 * Validated, ordered scopes. On `/v1` a key is read-only or read/write (spec section 5), so `write` brings
 * `read`; on `/proof/v1` `read` permits GET and `write` permits POST, and a key may hold either or both.
 */
export function normalizeScopes(scopes: readonly string[], iface: KeyInterface = 'v1'): KeyScope[] {
  const set = new Set<KeyScope>();
  for (const s of scopes) {
    if (s !== 'read' && s !== 'write') {
      throw new DomainError('validation_failed', `Unknown scope "${s}"; scopes are read and write`);
    }
    set.add(s);
  }
  if (set.size === 0) throw new DomainError('validation_failed', 'At least one scope is required');
  if (iface === 'v1' && set.has('write')) set.add('read');
  return (['read', 'write'] as const).filter((s) => set.has(s));
}

/** Maximum expiry horizon per interface (proof: 366 days ahead, as a Unix UTC second). */
export const MAX_EXPIRY_DAYS: Readonly<Record<KeyInterface, number | null>> = { v1: null, proof: 366 };

/** Validates an optional expiry given as a Unix UTC second against `now`. */
export function validateExpiry(iface: KeyInterface, expiresAtUnix: number | undefined, now: Date): Date | null {
  if (expiresAtUnix === undefined) return null;
  if (!Number.isSafeInteger(expiresAtUnix)) {
    throw new DomainError('validation_failed', 'expires_at must be an integer Unix timestamp in seconds (UTC)');
  }
  const nowSec = Math.floor(now.getTime() / 1000);
  if (expiresAtUnix <= nowSec) throw new DomainError('validation_failed', 'expires_at must be in the future');
  const maxDays = MAX_EXPIRY_DAYS[iface];
  if (maxDays !== null && expiresAtUnix > nowSec + maxDays * 86_400) {
    throw new DomainError('validation_failed', `expires_at must be at most ${maxDays} days ahead`);
  }
  return new Date(expiresAtUnix * 1000);
}

/** Required scope of an HTTP method: GET/HEAD read, everything else write. */
export function requiredScope(method: string): KeyScope {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}
