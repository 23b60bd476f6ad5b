import { DomainError } from './errors.js';

/**
 * Two idempotency dialects share one store:
 * - `v1` (processing interface): 8-128 of letters, digits, `_ . : -`, scoped to the company. The identical
 *   request returns the same resource; the same key with different parameters is a conflict. Kept 30 days.
 * - `proof` (payment-request interface): 16-80 of letters, digits, `_ -`, tenant-wide across keys and
 *   operations. The original status and body are replayed byte for byte and never expire; a different
 *   operation or payload is a conflict.
 * In both, a rejected call (any error) stores nothing and creates nothing.
 */
export type IdempotencyDialect = 'v1' | 'proof';

export interface IdempotencyRules {
  readonly pattern: RegExp;
  readonly description: string;
  /** Retention in days; null means never expires. */
  readonly retentionDays: number | null;
}

export const IDEMPOTENCY_RULES: Readonly<Record<IdempotencyDialect, IdempotencyRules>> = {
  v1: {
    pattern: /^[A-Za-z0-9_.:-]{8,128}$/,
    description: '8 to 128 characters: letters, digits, underscore, dot, colon, dash',
    retentionDays: 30,
  },
  proof: {
    pattern: /^[A-Za-z0-9_-]{16,80}$/,
    description: '16 to 80 characters: letters, digits, underscore, hyphen',
    retentionDays: null,
  },
};

/** Validates the Idempotency-Key header value of a dialect; returns the key. */
export function parseIdempotencyKey(dialect: IdempotencyDialect, raw: string | undefined): string {
  const rules = IDEMPOTENCY_RULES[dialect];
  if (raw === undefined || raw === '') {
    throw new DomainError('idempotency_key_required', 'The Idempotency-Key header is required for this request');
  }
  if (!rules.pattern.test(raw)) {
    throw new DomainError('idempotency_key_invalid', `Idempotency-Key must be ${rules.description}`);
  }
  return raw;
}
