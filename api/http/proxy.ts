import type Koa from 'koa';

/**
 * Which forwarded headers the app believes. With `hops` = 0 none: the client is the socket's peer, the
 * protocol is the socket's, the host is the Host header. With `hops` = N ≥ 1 the app sits behind exactly N
 * reverse proxies of the operator, each of which appends to `X-Forwarded-For` the address it received the
 * request from. The client is then the N-th entry from the right (Koa's `maxIpsCount`); anything further
 * left was written by the client itself and is ignored, so a client cannot pick its own address and escape
 * a per-IP limit.
 *
 * `X-Forwarded-Proto` and `X-Forwarded-Host` are read by the same rule, so `ctx.protocol`, `ctx.secure`,
 * `ctx.host` and `ctx.origin` agree with `ctx.ip`: the N-th value from the right, or the leftmost when there
 * are fewer (a proxy that overwrites the header leaves one value). Koa itself would take the leftmost value,
 * which behind an appending proxy is the client's choice.
 */
export function trustProxies<S, C>(app: Koa<S, C>, hops: number): void {
  if (!Number.isInteger(hops) || hops < 0) throw new Error('trusted proxy hops: a non-negative integer');
  app.proxy = hops > 0;
  app.maxIpsCount = hops;
  if (hops === 0) return;

  /** The value of a comma-separated forwarded header written by the outermost trusted proxy. */
  const trusted = (value: string | undefined): string | undefined => {
    if (!value) return undefined;
    const values = value.split(',').map((v) => v.trim());
    const picked = values[Math.max(0, values.length - hops)];
    return picked ? picked : undefined;
  };
  // Koa reads these getters from app.request (the prototype of every ctx.request); ctx.protocol, ctx.secure,
  // ctx.host, ctx.hostname, ctx.origin and ctx.href all derive from them.
  const koaHost = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(app.request) as object, 'host')!.get!;
  Object.defineProperties(app.request, {
    protocol: {
      configurable: true,
      get(this: Koa.Request): string {
        if ((this.socket as { encrypted?: boolean }).encrypted) return 'https';
        // Only the two schemes a proxy can have received; anything else is not believed.
        return trusted(this.get('X-Forwarded-Proto'))?.toLowerCase() === 'https' ? 'https' : 'http';
      },
    },
    host: {
      configurable: true,
      get(this: Koa.Request): string {
        const forwarded = trusted(this.get('X-Forwarded-Host'));
        if (forwarded === undefined) return koaHost.call(this) as string; // the Host header
        // As Koa does with the value it takes: a userinfo part ("user@host") is not part of the host.
        if (!forwarded.includes('@')) return forwarded;
        try {
          return new URL(`http://${forwarded}`).host;
        } catch {
          return '';
        }
      },
    },
  });
}
