import type { Middleware } from 'koa';
import { DomainError } from '../../domain/errors.js';
import type { AppState } from '../http/context.js';

/** Host names of this machine itself (the MCP SDK's localhost list): a request addressed so is a local request. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The lower-case host name of a `Host` value (`name[:port]`) or an `Origin` (`scheme://name[:port]`); null when it is not one. */
function hostnameOf(value: string, asOrigin: boolean): string | null {
  try {
    const url = new URL(asOrigin ? value : `http://${value}`);
    if (asOrigin && url.origin === 'null') return null;
    return url.hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

/**
 * DNS rebinding protection of `/mcp` (docs/x402.md, "The MCP server"), before anything else of the request is read:
 *
 * - **Host** (the `Host` header, or a trusted proxy's `X-Forwarded-Host`): the host name of PUBLIC_BASE_URL, or a
 *   loopback name (`localhost`, `127.0.0.1`, `[::1]`, any port). Anything else is 403 `host_rejected`: a rebound
 *   name (evil.example resolving to this server) never reaches the MCP server, and the name is not echoed.
 *   Without PUBLIC_BASE_URL (development) only loopback names are served.
 * - **Origin**, when a browser sends one: a request addressed to a loopback name must come from a loopback origin
 *   (403 `origin_rejected` otherwise), so a web page elsewhere cannot drive a local server. A request addressed to the
 *   public name may come from any origin: the public server is credential-free and open to browser-based MCP
 *   clients by design (CORS `*`).
 */
export function mcpHostGuard(publicBaseUrl: string | undefined): Middleware<AppState> {
  const publicHost = publicBaseUrl ? new URL(publicBaseUrl).hostname.toLowerCase() : null;
  return async (ctx, next) => {
    const host = hostnameOf(ctx.host, false);
    const local = host !== null && LOOPBACK.has(host);
    if (!local && (host === null || host !== publicHost)) {
      throw new DomainError('host_rejected', 'This MCP server does not answer under the requested host name');
    }
    const origin = ctx.get('Origin');
    if (origin && local) {
      const from = hostnameOf(origin, true);
      if (from === null || !LOOPBACK.has(from)) {
        throw new DomainError(
          'origin_rejected',
          'A request to this server on a loopback address must come from a loopback origin',
        );
      }
    }
    await next();
  };
}
