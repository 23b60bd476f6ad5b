import { BATCH_LIMITS } from '../../domain/batches.js';
import { z } from 'zod';
import { DomainError } from '../../domain/errors.js';
import type { AppContext } from './context.js';
import { ID_BODY_LENGTH, idRegex } from '../../domain/ids.js';

/**
 * List paging: `limit` 1 to 100 (default 50) and an opaque `before` cursor from a previous `next_cursor`.
 * A cursor is base64url of the kind of list and the last id, so a cursor of one list is refused by another;
 * `cursorPattern` is its shape for the documents. Feeds (the /proof events) page with an integer `after`.
 */
export const limitSchema = z.int().min(1).max(100).default(50);

/**
 * `limit`, as `limitSchema` states it (other bounds for the lists that pass them); in a query string an integer is
 * written in decimal digits, so anything else (a sign, a fraction, an exponent) is refused before the bounds.
 */
export function parseLimit(raw: unknown, def = 50, max = 100): number {
  if (raw === undefined) return def;
  const schema = def === 50 && max === 100 ? limitSchema : z.int().min(1).max(max);
  if (typeof raw !== 'string' || !/^\d{1,3}$/.test(raw) || !schema.safeParse(Number(raw)).success) {
    throw new DomainError('validation_failed', `limit must be an integer from 1 to ${max}`, {
      issues: [{ path: 'limit', message: `an integer from 1 to ${max}` }],
    });
  }
  return Number(raw);
}

/**
 * An `after` cursor of an append-only feed (the /proof events): an integer from 0 to 2^53-1 (the largest a
 * JSON number carries exactly), default 0. Anything else, a larger number included, is refused naming `after`.
 */
export const afterSchema = z.int().min(0).default(0);

export function parseAfter(raw: unknown): number {
  if (raw === undefined) return 0;
  const value = typeof raw === 'string' && /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!afterSchema.safeParse(value).success) {
    throw new DomainError('validation_failed', `after must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}`, {
      issues: [{ path: 'after', message: `an integer from 0 to ${Number.MAX_SAFE_INTEGER}` }],
    });
  }
  return value;
}

/** The lists paged with a `before` cursor, and the prefix of the ids they hold (ids are `<prefix>_` and 20 letters or digits). */
export const CURSOR_LISTS = {
  requests: 'req',
  contacts: 'con',
  invoices: 'inv',
  deliveries: 'dlv',
  jobs: 'job',
  batches: 'bat',
  purchases: 'pur',
  uploads: 'upl',
} as const;
export type CursorList = keyof typeof CURSOR_LISTS;

export function encodeCursor(kind: CursorList, lastId: string): string {
  return Buffer.from(`${kind}:${lastId}`, 'utf8').toString('base64url');
}

/**
 * The shape every cursor of `kind` has, as the OpenAPI documents state it: the base64url characters fixed by
 * `<kind>:<prefix>_`, then as many as the rest of an id fills. It excludes anything that cannot be a cursor of
 * the list (`0`, a cursor of another list); a string of that shape that is not a real cursor is still refused.
 */
export function cursorPattern(kind: CursorList): string {
  const head = `${kind}:${CURSOR_LISTS[kind]}_`;
  const sample = encodeCursor(kind, `${CURSOR_LISTS[kind]}_${'A'.repeat(ID_BODY_LENGTH)}`);
  const fixed = Math.floor((Buffer.byteLength(head) * 8) / 6);
  return `^${sample.slice(0, fixed)}[A-Za-z0-9_-]{${sample.length - fixed}}$`;
}

/** Per list, built once: the cursor's shape, and the id grammar of the list's kind (domain/ids.ts). */
const rules = new Map<CursorList, { cursor: RegExp; id: RegExp }>(
  (Object.keys(CURSOR_LISTS) as CursorList[]).map((k) => [
    k,
    { cursor: new RegExp(cursorPattern(k)), id: idRegex(CURSOR_LISTS[k]) },
  ]),
);

/** The `before` parameter of the list of `kind`: its cursors' shape (`cursorPattern`). */
export const beforeSchema = (kind: CursorList) => z.string().regex(rules.get(kind)!.cursor);

/** The last id a `before` cursor of `kind` carries; null without one; 422 naming `before` for anything else. */
export function decodeCursor(kind: CursorList, raw: unknown): string | null {
  if (raw === undefined) return null;
  const rule = rules.get(kind)!;
  const text = typeof raw === 'string' && rule.cursor.test(raw) ? Buffer.from(raw, 'base64url').toString('utf8') : '';
  const id = text.startsWith(`${kind}:`) ? text.slice(kind.length + 1) : '';
  if (!rule.id.test(id)) {
    throw new DomainError('validation_failed', 'before must be a next_cursor returned by this list', {
      issues: [{ path: 'before', message: 'not a cursor of this list' }],
    });
  }
  return id;
}

/** `{data, next_cursor}`: a next cursor only when the page is full (there may be more). */
export function page<T extends { id: string }, V>(
  kind: CursorList,
  rows: T[],
  limit: number,
  view: (row: T) => V,
): { data: V[]; next_cursor: string | null } {
  return {
    data: rows.map(view),
    next_cursor: rows.length === limit ? encodeCursor(kind, rows[rows.length - 1]!.id) : null,
  };
}

/** The page of a batch's children a request asks for: `limit` 1 to the batch maximum, `after` the first item index. */
export const childrenLimitSchema = z.int().min(1).max(BATCH_LIMITS.maxItems).default(BATCH_LIMITS.childrenPageDefault);
export const childrenPage = (ctx: AppContext) => ({
  limit: parseLimit(ctx.query['limit'], BATCH_LIMITS.childrenPageDefault, BATCH_LIMITS.maxItems),
  after: parseAfter(ctx.query['after']),
});

/** The schema of a page of `kind` (what `page()` returns), for the contract of an interface. */
export const pageSchema = <T extends z.ZodType>(item: T, kind: CursorList) =>
  z.strictObject({
    data: z
      .array(item)
      .max(100)
      .meta({ description: 'In descending id order (ids are random: not by creation time).' }),
    next_cursor: z.string().regex(rules.get(kind)!.cursor).nullable().meta({
      description: 'Pass as `before` for the next page of this list; null when this page is not full (no more).',
    }),
  });
