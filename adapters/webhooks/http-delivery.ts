import { Resolver } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { AttemptErrorClass } from '../../domain/webhooks.js';
import { isIP } from 'node:net';
import { checkDestinationUrl, isPublicAddress, type DestinationPolicy } from './url-policy.js';

/** Looks up every A and AAAA answer of a name. Injectable so the policy can be tested without real DNS. */
export interface DnsResolver {
  resolveAll(hostname: string): Promise<string[]>;
}

export class DnsFailure extends Error {
  constructor(readonly errorClass: 'dns_not_found' | 'dns_temporary' | 'dns_timeout') {
    super(errorClass);
  }
}

export interface DeliveryTimeouts {
  dnsMs: number;
  connectMs: number;
  socketMs: number;
  /** Upper bound on one whole attempt, so a trickling response cannot hold a worker slot. */
  totalMs: number;
}

export const DEFAULT_TIMEOUTS: DeliveryTimeouts = { dnsMs: 3000, connectMs: 8000, socketMs: 5000, totalMs: 20_000 };

export function createSystemResolver(timeoutMs = DEFAULT_TIMEOUTS.dnsMs): DnsResolver {
  return {
    async resolveAll(hostname) {
      const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
      const timer = setTimeout(() => resolver.cancel(), timeoutMs);
      try {
        const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
        const answers = [
          ...(v4.status === 'fulfilled' ? v4.value : []),
          ...(v6.status === 'fulfilled' ? v6.value : []),
        ];
        if (answers.length > 0) return answers;
        const codes = [v4, v6].map((r) => (r.status === 'rejected' ? (r.reason as { code?: string }).code : 'ENODATA'));
        if (codes.some((c) => c === 'ETIMEOUT' || c === 'ECANCELLED')) throw new DnsFailure('dns_timeout');
        if (codes.every((c) => c === 'ENOTFOUND' || c === 'ENODATA')) throw new DnsFailure('dns_not_found');
        throw new DnsFailure('dns_temporary');
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export interface AttemptResult {
  statusCode: number | null;
  errorClass: AttemptErrorClass | null;
  /** A short, caller-safe description (never a response body). */
  errorMessage: string | null;
  durationMs: number;
  /** The address the connection was pinned to, when one was chosen. */
  address: string | null;
}

export interface PostOptions extends DestinationPolicy {
  resolver: DnsResolver;
  allowLoopbackForTests: boolean;
  timeouts?: DeliveryTimeouts;
  userAgent?: string;
}

/**
 * One signed POST under the destination policy: static URL checks, DNS resolution with every answer
 * required to be public, connection pinned to the checked address (TLS still verifies the DNS name), no
 * proxy, no redirect following, bounded DNS/connect/socket/total time. The response body is never read
 * beyond draining it.
 */
export async function postWithPolicy(
  rawUrl: string,
  headers: Record<string, string>,
  body: Buffer,
  opts: PostOptions,
): Promise<AttemptResult> {
  const started = performance.now();
  const timeouts = opts.timeouts ?? DEFAULT_TIMEOUTS;
  const done = (r: Omit<AttemptResult, 'durationMs'>): AttemptResult => ({
    ...r,
    durationMs: Math.round(performance.now() - started),
  });

  const check = checkDestinationUrl(rawUrl, opts);
  if (!check.ok)
    return done({ statusCode: null, errorClass: 'policy_rejected', errorMessage: check.reason, address: null });

  let address: string;
  if (check.loopbackTestTarget || check.privateDestination) {
    address = check.hostname;
  } else {
    let answers: string[];
    try {
      answers = await opts.resolver.resolveAll(check.hostname);
    } catch (e) {
      const cls = e instanceof DnsFailure ? e.errorClass : 'dns_temporary';
      return done({ statusCode: null, errorClass: cls, errorMessage: `DNS lookup failed (${cls})`, address: null });
    }
    const bad = answers.filter((a) => !isPublicAddress(a));
    if (answers.length === 0 || bad.length > 0) {
      return done({
        statusCode: null,
        errorClass: 'policy_dns_non_public',
        errorMessage: 'the destination name resolves to a non-public address',
        address: null,
      });
    }
    address = answers[0]!;
  }

  const secure = check.url.protocol === 'https:';
  const path = check.url.pathname || '/';
  const requestHeaders: Record<string, string | number> = {
    ...headers,
    host: check.url.host,
    'content-length': body.length,
    'user-agent': opts.userAgent ?? 'paycore-webhooks/1.0',
    connection: 'close',
  };

  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (r: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      resolve(done(r));
    };
    const fail = (errorClass: AttemptErrorClass, message: string) =>
      finish({ statusCode: null, errorClass, errorMessage: message, address });

    const requestOptions: https.RequestOptions = {
      method: 'POST',
      host: address,
      port: check.port,
      path,
      headers: requestHeaders,
      agent: false,
      // SNI carries names only (RFC 6066): to an IP address the certificate is checked against the address itself.
      ...(secure && isIP(check.hostname) === 0 ? { servername: check.hostname } : {}),
    };
    const req = (secure ? https : http).request(requestOptions, (res) => {
      const statusCode = res.statusCode ?? 0;
      res.resume();
      res.destroy();
      finish({ statusCode, errorClass: null, errorMessage: null, address });
    });

    const connectTimer = setTimeout(() => {
      fail('connect_timeout', 'connection not established in time');
      req.destroy();
    }, timeouts.connectMs);
    const totalTimer = setTimeout(() => {
      fail('socket_timeout', 'attempt exceeded its total time limit');
      req.destroy();
    }, timeouts.totalMs);

    req.on('socket', (socket) => {
      socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    req.setTimeout(timeouts.socketMs, () => {
      fail('socket_timeout', 'socket idle for too long');
      req.destroy();
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      fail(classifyNetworkError(err), `network error (${err.code ?? 'unknown'})`),
    );
    req.end(body);
  });
}

function classifyNetworkError(err: NodeJS.ErrnoException): AttemptErrorClass {
  const code = err.code ?? '';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED') return 'connection_reset';
  if (code === 'ETIMEDOUT') return 'connect_timeout';
  if (
    /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL)/.test(code) ||
    /certificate|ssl|tls/i.test(err.message)
  ) {
    return 'tls_error';
  }
  return 'network_error';
}
