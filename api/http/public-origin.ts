/**
 * The base of every absolute URL the API hands out (payment pages, x402 resources) and, unless
 * DASHBOARD_ORIGINS is set, of the management routes' allowed Origin: PUBLIC_BASE_URL when configured (required
 * in production, config/schema.ts). Without it, the request's own scheme and host: the Host header, or
 * X-Forwarded-Host and X-Forwarded-Proto from a trusted proxy (api/http/proxy.ts). A client chooses those, which
 * is why production refuses to start without PUBLIC_BASE_URL.
 */
export function publicBase(publicBaseUrl: string | null | undefined, ctx: { protocol: string; host: string }): string {
  return (publicBaseUrl || `${ctx.protocol}://${ctx.host}`).replace(/\/+$/, '');
}

/** The origin (scheme, host, port) of `publicBase`, lower-case, as browsers send it in `Origin`. */
export function publicOrigin(
  publicBaseUrl: string | null | undefined,
  ctx: { protocol: string; host: string },
): string {
  return publicBaseUrl ? new URL(publicBaseUrl).origin.toLowerCase() : `${ctx.protocol}://${ctx.host}`.toLowerCase();
}

/** Logged once at start-up when PUBLIC_BASE_URL is unset (development and tests only: production refuses it). */
export const PUBLIC_BASE_URL_UNSET_WARNING =
  "PUBLIC_BASE_URL is unset: payment-page links, x402 resource URLs and the management routes' Origin check follow the request's Host header " +
  '(or X-Forwarded-Host from a trusted proxy), which a client can choose. Set PUBLIC_BASE_URL on any server others can reach.';
