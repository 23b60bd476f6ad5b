import { DomainError } from '../../domain/errors.js';

/**
 * List paging: `limit` 1 to 100 (default 50) and an opaque `before` cursor from a previous `next_cursor`.
 * A cursor is base64url of the kind of list and the last id, so a cursor of one list is refused by another.
 */
export function parseLimit(raw: unknown, def = 50, max = 100): number {
  if (raw === undefined) return def;
  if (typeof raw !== 'string' || !/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw new DomainError('validation_failed', `limit must be an integer from 1 to ${max}`, { issues: [{ path: 'limit', message: `an integer from 1 to ${max}` }] });
  }
  return Number(raw);
}

export function encodeCursor(kind: string, lastId: string): string {
  return Buffer.from(`${kind}:${lastId}`, 'utf8').toString('base64url');
}

export function decodeCursor(kind: string, raw: unknown): string | null {
  if (raw === undefined) return null;
  const text = typeof raw === 'string' && /^[A-Za-z0-9_-]{1,200}$/.test(raw) ? Buffer.from(raw, 'base64url').toString('utf8') : '';
  const m = /^([a-z]+):([a-z]{2,5}_[A-Za-z0-9]{20})$/.exec(text);
  if (!m || m[1] !== kind) {
    throw new DomainError('validation_failed', 'before must be a next_cursor returned by this list', { issues: [{ path: 'before', message: 'not a cursor of this list' }] });
  }
  return m[2]!;
}

/** `{data, next_cursor}`: a next cursor only when the page is full (there may be more). */
export function page<T extends { id: string }, V>(kind: string, rows: T[], limit: number, view: (row: T) => V): { data: V[]; next_cursor: string | null } {
  return { data: rows.map(view), next_cursor: rows.length === limit ? encodeCursor(kind, rows[rows.length - 1]!.id) : null };
}
