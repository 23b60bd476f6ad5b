import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { DomainError } from '../../domain/errors.js';
import type { AppState } from './context.js';

/**
 * JSON bodies only, bounded by `limit`; a mutation with a body of another type is refused (415) and a body
 * that is not JSON is a validation error. Oversized bodies are rejected while streaming (413).
 */
export function jsonBody(limit: string): Middleware<AppState> {
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: limit, encoding: 'utf-8' }) as unknown as Middleware<AppState>;
  return async (ctx, next) => {
    const hasBody = ctx.request.length !== undefined ? ctx.request.length > 0 : Boolean(ctx.get('Transfer-Encoding'));
    if (hasBody && !ctx.is('application/json')) {
      throw new DomainError('unsupported_media_type', 'Request body must be application/json');
    }
    await parse(ctx, next);
  };
}
