import type Router from '@koa/router';
import { DomainError } from '../../domain/errors.js';
import type { AppContext, AppState } from '../http/context.js';

/**
 * Document processing over /x402 is disabled: `/x402/v1/processing` and `/x402/v1/processing/{operation}`
 * answer every one of GET, POST, PUT, PATCH and DELETE with 200 and a JSON body saying so. No document is
 * read or executed. Invalid input answers 422 with a FastAPI-style body `{detail: [{loc, msg, type, input?,
 * ctx?}]}`. What is invalid (docs/x402.md):
 * - `operation` (path, or the optional query parameter, default empty): at most 64 characters of lower-case
 *   letters, digits and hyphens, starting with a letter or digit (the shape of operation identifiers); the
 *   path form must not be empty. The query parameter given twice is invalid.
 * - a request body, when one is sent: JSON only (`json_invalid` otherwise), at most 64 KiB (`too_long`).
 */
const OPERATION = /^[a-z0-9][a-z0-9-]*$/;
const MAX_OPERATION = 64;
const MAX_BODY = 64 * 1024;

interface FastApiIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

const DISABLED_MESSAGE =
  'Document processing over the x402 interface is disabled. No anonymous document execution exists; use the processing interface under /v1 with an API key.';

function checkOperation(value: string, loc: Array<string | number>, allowEmpty: boolean): FastApiIssue | null {
  if (value.length === 0) {
    return allowEmpty
      ? null
      : {
          loc,
          msg: 'String should have at least 1 character',
          type: 'string_too_short',
          input: value,
          ctx: { min_length: 1 },
        };
  }
  if (value.length > MAX_OPERATION) {
    return {
      loc,
      msg: `String should have at most ${MAX_OPERATION} characters`,
      type: 'string_too_long',
      input: value,
      ctx: { max_length: MAX_OPERATION },
    };
  }
  if (!OPERATION.test(value)) {
    return {
      loc,
      msg: `String should match pattern '${OPERATION.source}'`,
      type: 'string_pattern_mismatch',
      input: value,
      ctx: { pattern: OPERATION.source },
    };
  }
  return null;
}

async function readBody(ctx: AppContext): Promise<{ issue: FastApiIssue | null }> {
  const declared = ctx.request.length;
  const chunked = Boolean(ctx.get('Transfer-Encoding'));
  if (!declared && !chunked) return { issue: null };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) {
      return {
        issue: {
          loc: ['body'],
          msg: `Body should have at most ${MAX_BODY} bytes`,
          type: 'too_long',
          ctx: { max_length: MAX_BODY },
        },
      };
    }
    chunks.push(chunk);
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  if (raw.trim() === '') return { issue: null };
  if (!ctx.is('application/json')) {
    return {
      issue: {
        loc: ['body'],
        msg: 'Input should be a valid JSON document (Content-Type: application/json)',
        type: 'json_invalid',
      },
    };
  }
  try {
    JSON.parse(raw);
    return { issue: null };
  } catch (e) {
    return {
      issue: {
        loc: ['body', 0],
        msg: 'JSON decode error',
        type: 'json_invalid',
        ctx: { error: e instanceof Error ? e.message : 'invalid JSON' },
      },
    };
  }
}

async function answer(ctx: AppContext, operation: string, issues: FastApiIssue[]): Promise<void> {
  const body = await readBody(ctx);
  if (body.issue) issues.push(body.issue);
  if (issues.length > 0) {
    ctx.status = 422;
    ctx.body = { detail: issues };
    return;
  }
  ctx.status = 200;
  ctx.body = { detail: DISABLED_MESSAGE, enabled: false, operation };
}

export function mountProcessingDisabled(router: Router<AppState>): void {
  const methods = ['get', 'post', 'put', 'patch', 'delete'] as const;
  for (const method of methods) {
    router[method]('/v1/processing', async (ctx) => {
      // `/x402/v1/processing/` (the router ignores a trailing slash) is neither route: the path form's
      // `{operation}` segment is empty, and the query form has no slash. Not a route, so 404 (docs/x402.md).
      if (ctx.path.endsWith('/')) throw new DomainError('not_found', 'Not found');
      const raw = ctx.query['operation'];
      const issues: FastApiIssue[] = [];
      let operation = '';
      if (Array.isArray(raw)) {
        issues.push({
          loc: ['query', 'operation'],
          msg: 'Input should be a single string',
          type: 'string_type',
          input: raw,
        });
      } else if (raw !== undefined) {
        operation = raw;
        const issue = checkOperation(raw, ['query', 'operation'], true);
        if (issue) issues.push(issue);
      }
      await answer(ctx, operation, issues);
    });
    router[method]('/v1/processing/:operation', async (ctx) => {
      const operation = ctx.params['operation'] ?? '';
      const issue = checkOperation(operation, ['path', 'operation'], false);
      await answer(ctx, operation, issue ? [issue] : []);
    });
  }
}
