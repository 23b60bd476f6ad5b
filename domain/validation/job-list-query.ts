import { DomainError } from '../errors.js';
import { isObjectId } from '../ids.js';
import { JOB_STATUSES, type JobStatus } from '../jobs.js';
import { ALL_OPERATIONS } from './processing-request.js';

/**
 * The query of `GET /v1/jobs`, validated strictly: an unknown or repeated parameter is refused (422 naming it), so a
 * misspelt filter never silently lists every job.
 *
 * - `status`, `operation`: one value or several separated by commas (`status=queued,processing`); each a known one.
 * - `batch_id`: the id of a batch (the jobs of that batch; none before batches exist).
 * - `created_after`, `created_before`: RFC 3339 date-times with an offset (`2025-03-04T09:00:00Z`); strict bounds.
 * - `limit`, `before`: paging (api/http/pagination.ts), parsed by the handler.
 */
export interface JobListQuery {
  statuses: JobStatus[] | undefined;
  operations: string[] | undefined;
  batchId: string | undefined;
  createdAfter: Date | undefined;
  createdBefore: Date | undefined;
}

export const JOB_LIST_PARAMS = [
  'status',
  'operation',
  'batch_id',
  'created_after',
  'created_before',
  'limit',
  'before',
] as const;

/** RFC 3339 `date-time` (the OpenAPI `format`), with `Z` or a numeric offset; fractions of a second allowed. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;
export const DATE_TIME_MAX_LENGTH = 64;

/**
 * An RFC 3339 date-time as an instant, or null. A leap second (`:60`, which RFC 3339 allows) is taken as the
 * instant after `:59`; fractions beyond milliseconds are cut.
 */
export function parseDateTime(raw: string): Date | null {
  const m = raw.length <= DATE_TIME_MAX_LENGTH ? DATE_TIME.exec(raw) : null;
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const offsetH = m[10] === undefined ? 0 : Number(m[10]);
  const offsetM = m[11] === undefined ? 0 : Number(m[11]);
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 60 || offsetH > 23 || offsetM > 59) return null;
  // The calendar date must exist (no 30 February), checked in the proleptic Gregorian calendar of any year.
  const day = new Date(0);
  day.setUTCFullYear(y, mo - 1, d);
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) return null;
  const ms = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  const sign = m[9] === '-' ? -1 : 1;
  const at =
    Date.UTC(2000, 0, 1, h, mi, Math.min(s, 59), ms) -
    Date.UTC(2000, 0, 1) +
    day.getTime() +
    (s === 60 ? 1000 : 0) -
    sign * (offsetH * 60 + offsetM) * 60_000;
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? null : date;
}

type RawQuery = Readonly<Record<string, string | string[] | undefined>>;
type Issue = { path: string; message: string };

/** The unknown and the repeated parameters of a list's query, one issue each. */
function paramIssues(raw: RawQuery, allowed: readonly string[]): Issue[] {
  const issues: Issue[] = [];
  for (const [name, value] of Object.entries(raw)) {
    if (!allowed.includes(name))
      issues.push({ path: name, message: `unknown parameter; the parameters are ${allowed.join(', ')}` });
    else if (Array.isArray(value))
      issues.push({ path: name, message: `${name} must be given once (separate several values with commas)` });
  }
  return issues;
}

const invalidQuery = (issues: Issue[]) =>
  new DomainError('validation_failed', `Invalid query: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, {
    issues,
  });

/**
 * The query of the upload lists (`GET /v1/uploads`, `GET /api/company/uploads`): only `limit` and `before` (parsed by
 * the handler), each at most once; anything else is refused (422 naming it), as on `GET /v1/jobs`.
 */
export const UPLOAD_LIST_PARAMS = ['limit', 'before'] as const;
export function assertUploadListQuery(raw: RawQuery): void {
  const issues = paramIssues(raw, UPLOAD_LIST_PARAMS);
  if (issues.length) throw invalidQuery(issues);
}

export function parseJobListQuery(raw: RawQuery): JobListQuery {
  const issues = paramIssues(raw, JOB_LIST_PARAMS);
  const one = (name: string): string | undefined => (typeof raw[name] === 'string' ? (raw[name] as string) : undefined);
  const list = <T extends string>(name: string, allowed: readonly T[]): T[] | undefined => {
    const v = one(name);
    if (v === undefined) return undefined;
    const values = v.split(',');
    const unknown = values.filter((x) => !(allowed as readonly string[]).includes(x));
    if (unknown.length) {
      issues.push({ path: name, message: `one or more of ${allowed.join(', ')}, separated by commas` });
      return undefined;
    }
    return [...new Set(values)] as T[];
  };
  const time = (name: string): Date | undefined => {
    const v = one(name);
    if (v === undefined) return undefined;
    const date = parseDateTime(v);
    if (!date) issues.push({ path: name, message: 'an RFC 3339 date-time with an offset, e.g. 2025-03-04T09:00:00Z' });
    return date ?? undefined;
  };
  const statuses = list('status', JOB_STATUSES);
  const operations = list('operation', ALL_OPERATIONS);
  const batchId = one('batch_id');
  if (batchId !== undefined && !isObjectId(batchId)) issues.push({ path: 'batch_id', message: 'a batch id' });
  const createdAfter = time('created_after');
  const createdBefore = time('created_before');
  if (issues.length) throw invalidQuery(issues);
  return { statuses, operations, batchId, createdAfter, createdBefore };
}
