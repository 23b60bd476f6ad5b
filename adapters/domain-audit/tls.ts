import http from 'node:http';
import tls from 'node:tls';

/**
 * The TLS half of the audit. Every connection goes to the one checked address (an IP literal, so no lookup
 * happens between the check and the connection), with SNI and Host set to the audited name. Each connection
 * has a hard deadline; all run at once, so the phase lasts at most one deadline.
 */

export interface TlsTarget {
  address: string;
  port: number;
  servername: string;
  /** Trusted roots; undefined: Node's bundled Mozilla roots. */
  ca: string[] | undefined;
  timeoutMs: number;
}

export interface PeerCertificateInfo {
  subjectCn: string | null;
  subjectAltNames: string[];
  issuer: string | null;
  validFrom: Date;
  validTo: Date;
  serialNumber: string;
  fingerprintSha256: string;
}

export interface HstsProbe {
  statusCode: number | null;
  header: string | null;
  error: string | null;
}

export interface MainProbe {
  connected: boolean;
  error: string | null;
  protocol: string | null;
  cipher: string | null;
  certificate: PeerCertificateInfo | null;
  chainValid: boolean | null;
  chainError: string | null;
  hostnameMatch: boolean | null;
  hsts: HstsProbe;
}

const MAX_SAN_ENTRIES = 100;
const MAX_HEADER_CHARS = 1024;
/** Largest response head read from GET /; the body is never read. */
const MAX_RESPONSE_HEAD_BYTES = 16 * 1024;

function first(v: string | string[] | undefined): string | null {
  if (Array.isArray(v)) return v[0] ?? null;
  return v ?? null;
}

function certificateInfo(cert: tls.PeerCertificate): PeerCertificateInfo | null {
  if (!cert || !cert.valid_to) return null;
  const subjectAltNames = (cert.subjectaltname ?? '')
    .split(', ')
    .filter(Boolean)
    .slice(0, MAX_SAN_ENTRIES)
    .map((entry) => (entry.startsWith('DNS:') ? entry.slice(4) : entry));
  return {
    subjectCn: first(cert.subject?.CN),
    subjectAltNames,
    issuer: first(cert.issuer?.CN) ?? first(cert.issuer?.O),
    validFrom: new Date(cert.valid_from),
    validTo: new Date(cert.valid_to),
    serialNumber: cert.serialNumber ?? '',
    fingerprintSha256: cert.fingerprint256 ?? '',
  };
}

/** A short, caller-safe reason for a failed connection or handshake. */
function reasonOf(e: unknown): string {
  const err = e as NodeJS.ErrnoException & { reason?: string };
  if (err.code === 'ETIMEDOUT_AUDIT') return 'timeout';
  if (err.code === 'ECONNREFUSED') return 'connection_refused';
  if (err.code === 'ECONNRESET' || err.code === 'EPIPE') return 'connection_reset';
  if (err.code === 'EHOSTUNREACH' || err.code === 'ENETUNREACH') return 'unreachable';
  if (typeof err.code === 'string' && /^ERR_(SSL|TLS)_/.test(err.code)) return `handshake_failed: ${err.code}`;
  return `error: ${err.code ?? 'unknown'}`;
}

function timeoutError(): Error {
  return Object.assign(new Error('timeout'), { code: 'ETIMEDOUT_AUDIT' });
}

/**
 * Opens one TLS connection to the pinned address and resolves on the handshake. The certificate is never
 * rejected here (the caller reads `authorized`); the host name is checked apart, so `authorized` is about the
 * chain only.
 */
function connect(target: TlsTarget, extra: tls.ConnectionOptions, signal: AbortSignal): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: target.address,
      port: target.port,
      servername: target.servername,
      ca: target.ca,
      rejectUnauthorized: false,
      checkServerIdentity: () => undefined,
      ALPNProtocols: ['http/1.1'],
      ...extra,
    });
    const onAbort = () => socket.destroy(timeoutError());
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('secureConnect', () => resolve(socket));
    socket.once('error', (e) => {
      signal.removeEventListener('abort', onAbort);
      reject(e);
    });
    socket.once('close', () => {
      signal.removeEventListener('abort', onAbort);
      reject(timeoutError());
    });
  });
}

/** GET / on an open TLS connection, redirects not followed, the head bounded and the body not read. */
function getRoot(socket: tls.TLSSocket, host: string, signal: AbortSignal): Promise<HstsProbe> {
  return new Promise((resolve) => {
    const req = http.request({
      createConnection: () => socket,
      method: 'GET',
      path: '/',
      headers: {
        host,
        'user-agent': 'paycore-domain-audit/1.0 (not a vulnerability scan)',
        accept: '*/*',
        connection: 'close',
      },
      maxHeaderSize: MAX_RESPONSE_HEAD_BYTES,
      signal,
    });
    req.once('response', (res) => {
      const header = first(res.headers['strict-transport-security']);
      resolve({
        statusCode: res.statusCode ?? null,
        header: header === null ? null : header.slice(0, MAX_HEADER_CHARS),
        error: null,
      });
      res.destroy();
    });
    req.once('error', (e) =>
      resolve({
        statusCode: null,
        header: null,
        error: (e as { name?: string }).name === 'AbortError' ? 'timeout' : reasonOf(e),
      }),
    );
    req.end();
  });
}

/** The handshake with default client settings (TLS 1.2-1.3), the certificate checks and GET / for HSTS. */
export async function probeMain(target: TlsTarget): Promise<MainProbe> {
  const signal = AbortSignal.timeout(target.timeoutMs);
  let socket: tls.TLSSocket;
  try {
    socket = await connect(target, {}, signal);
  } catch (e) {
    const error = signal.aborted ? 'timeout' : reasonOf(e);
    return {
      connected: false,
      error,
      protocol: null,
      cipher: null,
      certificate: null,
      chainValid: null,
      chainError: null,
      hostnameMatch: null,
      hsts: { statusCode: null, header: null, error: 'no TLS connection' },
    };
  }
  try {
    const peer = socket.getPeerCertificate(false);
    const certificate = certificateInfo(peer);
    const hostnameMatch = certificate ? tls.checkServerIdentity(target.servername, peer) === undefined : null;
    const chainError = socket.authorized ? null : String(socket.authorizationError ?? 'UNKNOWN');
    const result = {
      connected: true,
      error: null,
      protocol: socket.getProtocol(),
      cipher: socket.getCipher()?.standardName ?? socket.getCipher()?.name ?? null,
      certificate,
      chainValid: socket.authorized,
      chainError,
      hostnameMatch,
    };
    const hsts = await getRoot(socket, target.servername, signal);
    return { ...result, hsts };
  } finally {
    socket.destroy();
  }
}

export const PROTOCOL_VERSIONS = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const;
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];

/**
 * Whether the server completes a handshake limited to one protocol version: true, false (it refused: an alert
 * or a reset during the handshake), or null (could not tell: no connection, timeout, or this client cannot
 * offer the version). TLS 1.0 and 1.1 need OpenSSL security level 0 on the client to be offered at all.
 */
export async function probeVersion(target: TlsTarget, version: ProtocolVersion): Promise<boolean | null> {
  const signal = AbortSignal.timeout(target.timeoutMs);
  const legacy = version === 'TLSv1' || version === 'TLSv1.1';
  try {
    const socket = await connect(
      target,
      {
        minVersion: version,
        maxVersion: version,
        ALPNProtocols: undefined,
        ...(legacy ? { ciphers: 'DEFAULT:@SECLEVEL=0' } : {}),
      },
      signal,
    );
    const accepted = socket.getProtocol() === version;
    socket.destroy();
    return accepted;
  } catch (e) {
    if (signal.aborted) return null;
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (code === 'ERR_SSL_NO_PROTOCOLS_AVAILABLE' || code === 'ERR_SSL_NO_CIPHERS_AVAILABLE') return null;
    if (/^ERR_(SSL|TLS)_/.test(code) || code === 'ECONNRESET' || code === 'EPIPE') return false;
    return null;
  }
}
