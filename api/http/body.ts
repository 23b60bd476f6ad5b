import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { DomainError } from '../../domain/errors.js';
import { jsonBodyIssues, MAX_JSON_DEPTH } from '../../domain/validation/json-body.js';
import type { AppState } from './context.js';

/**
 * Errors of Node's decompression streams (zlib's `Z_…` codes for gzip and deflate, the brotli decoder's
 * `ERR__ERROR_…`): a body whose bytes do not match its Content-Encoding.
 */
const isDecompressionError = (e: unknown): boolean => {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(Z_|ERR__ERROR_|ERR_BROTLI)/.test(code);
};

/** Errors of the body's transfer (encoding, charset) mapped onto the interface's codes; others are rethrown. */
function decodingError(e: unknown): DomainError | null {
  if (isDecompressionError(e))
    return new DomainError(
      'malformed_json',
      'Request body could not be decoded: its bytes do not match its Content-Encoding',
    );
  const err = e as { status?: number; type?: string; message?: string };
  if (err?.status === 415 && /^Unsupported Content-Encoding/.test(err.message ?? '')) {
    return new DomainError(
      'unsupported_media_type',
      'Unsupported Content-Encoding; send the body as is, or with gzip, deflate or br',
    );
  }
  if (err?.type === 'encoding.unsupported' || err?.type === 'charset.unsupported') {
    return new DomainError('unsupported_media_type', 'Request body must be application/json in UTF-8');
  }
  return null;
}

/**
 * JSON bodies only, bounded by `limit`; a mutation with a body of another type is refused (415) and a body
 * that is not JSON is a validation error. Oversized bodies are rejected while streaming (413), a body whose
 * Content-Encoding does not match its bytes is 422, and every parsed body is checked once, for every route,
 * before any handler, schema or hash sees it: nesting deeper than MAX_JSON_DEPTH levels and the NUL character
 * (PostgreSQL text cannot hold it) are 422 naming the field.
 */
export function jsonBody(limit: string): Middleware<AppState> {
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: limit,
    encoding: 'utf-8',
  }) as unknown as Middleware<AppState>;
  return async (ctx, next) => {
    const hasBody = ctx.request.length !== undefined ? ctx.request.length > 0 : Boolean(ctx.get('Transfer-Encoding'));
    if (hasBody && !ctx.is('application/json')) {
      throw new DomainError('unsupported_media_type', 'Request body must be application/json');
    }
    let parsed = false;
    try {
      await parse(ctx, async () => {
        parsed = true;
      });
    } catch (e) {
      throw decodingError(e) ?? e;
    }
    if (!parsed) return; // the parser answered (it never does today), nothing to run
    const issues = jsonBodyIssues(ctx.request.body);
    if (issues.length > 0) {
      const depth = issues.some((i) => i.kind === 'depth');
      const message = depth
        ? `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`
        : `Text must not contain the NUL character (\\u0000): ${issues.map((i) => i.path || '(body)').join(', ')}`;
      throw new DomainError('validation_failed', message, {
        issues: issues.map(({ path, message: m }) => ({ path, message: m })),
      });
    }
    await next();
  };
}

/**
 * A request that takes no body, or `{}`: any field is a 422 naming it; any other body a 422 naming `(body)`.
 * `messages` words the two cases for the route.
 */
export function assertNoFields(
  body: unknown,
  messages: { field: string; body: string } = {
    field: 'unknown field; this request takes no body (or {})',
    body: 'this request takes no body, or an empty JSON object',
  },
): void {
  if (
    body === undefined ||
    body === null ||
    (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0)
  )
    return;
  const issues =
    typeof body === 'object' && !Array.isArray(body)
      ? Object.keys(body).map((k) => ({ path: k, message: messages.field }))
      : [{ path: '(body)', message: messages.body }];
  throw new DomainError(
    'validation_failed',
    `Invalid request: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    { issues },
  );
}
