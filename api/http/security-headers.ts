import type { Middleware } from 'koa';
import type { AppState } from './context.js';
import { FALLBACK_HTML_HEADERS } from './html.js';

/** One year, and every subdomain: browsers then refuse plain HTTP to this host and its subdomains. */
export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

/**
 * Headers of every response. `Strict-Transport-Security` whenever the request came over HTTPS (`ctx.secure`:
 * the API's own TLS, or `X-Forwarded-Proto` from a trusted proxy, see proxy.ts) and never on plain HTTP,
 * where a browser would ignore it anyway and a client could not tell it from a forged one. No sniffing, no
 * caching (every answer is per-caller or changes). An HTML response that did not set its own page headers
 * (api/http/html.ts) gets the strictest ones, so a page added without them is inert rather than open.
 */
export function securityHeaders(): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.secure) ctx.set('Strict-Transport-Security', HSTS_VALUE);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'no-store');
    await next();
    // Most answers are JSON: a look at the header's text spares them the media-type parse of `is('html')`.
    if (isHtmlType(ctx.response.get('Content-Type')) && !ctx.response.get('Content-Security-Policy')) {
      const { 'Content-Type': _type, ...headers } = FALLBACK_HTML_HEADERS;
      ctx.set(headers);
    }
  };
}

/** Whether a Content-Type is an HTML one (`text/html`, with or without parameters; media types ignore case). */
export function isHtmlType(contentType: unknown): boolean {
  return typeof contentType === 'string' && /^\s*text\/html\s*(?:;|$)/i.test(contentType);
}
