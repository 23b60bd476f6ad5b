import { createHash } from 'node:crypto';

/**
 * What every server-rendered page shares (x402 pages, the /v1 and /proof developer pages, the public payment
 * page): HTML escaping, and the response headers that keep a page inert.
 */
const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Safe for text and for double- or single-quoted attribute values. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * The Content-Security-Policy of a page whose only styling is its own `<style>` elements (`stylesheets`, each
 * exactly as written between the tags): nothing may load or run, those stylesheets apply by hash (no
 * 'unsafe-inline', so no `style=` attribute either), no `<base>`, no form submission, no framing.
 */
export function htmlPageCsp(stylesheets: readonly string[]): string {
  const hashes = [...new Set(stylesheets)].map(
    (css) => `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`,
  );
  return [
    "default-src 'none'",
    ...(hashes.length ? [`style-src ${hashes.join(' ')}`] : []),
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The headers of every HTML response: its CSP, X-Frame-Options for browsers without `frame-ancestors`, no
 * Referer sent onwards (a page URL may hold a capability such as a payment request id), no sniffing.
 */
export function htmlPageHeaders(stylesheets: readonly string[]): Readonly<Record<string, string>> {
  return Object.freeze({
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': htmlPageCsp(stylesheets),
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
  });
}

/** For an HTML response rendered without `htmlPageHeaders` (none should be): inert and unframeable, if unstyled. */
export const FALLBACK_HTML_HEADERS = htmlPageHeaders([]);
