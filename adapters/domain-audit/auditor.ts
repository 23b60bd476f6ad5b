import type { CaaRecord } from 'node:dns';
import { readFileSync } from 'node:fs';
import tls from 'node:tls';
import ipaddr from 'ipaddr.js';
import { parseAuditDomain, registrableDomainOf, type AuditDomainIssue } from '../../domain/validation/audit-domain.js';
import { isPublicAddress } from '../webhooks/url-policy.js';
import {
  createBoundResolver,
  LookupFailure,
  parseDnsServer,
  queryAddressesWithAd,
  type AddressAnswer,
  type DnsServer,
  type Lookup,
  type LookupError,
} from './dns.js';
import { NOT_A_VULNERABILITY_SCAN_NOTICE, type DomainAuditReport } from './schema.js';
import { probeMain, probeVersion, type TlsTarget } from './tls.js';
import { findingsOf } from './findings.js';

/** Public validating resolvers (Cloudflare, Google): public answers only, and they set the AD flag. */
export const DEFAULT_DOMAIN_AUDIT_RESOLVERS: readonly string[] = ['1.1.1.1', '8.8.8.8'];
export const DEFAULT_DNS_TIMEOUT_MS = 3000;
export const DEFAULT_TLS_TIMEOUT_MS = 8000;
/** CAA lookups per audit (the name and its parents up to the registrable domain). */
const MAX_CAA_NAMES = 10;

export interface DomainAuditorOptions {
  /** DNS servers (`ip` or `ip:port`, `[v6]:port`), in failover order. Default DEFAULT_DOMAIN_AUDIT_RESOLVERS. */
  resolvers?: readonly string[];
  /** Bound on the whole DNS phase (all lookups run at once). Default 3000. */
  dnsTimeoutMs?: number;
  /** Bound on each TLS connection (connect, handshake, response head of GET /); they run at once. Default 8000. */
  tlsTimeoutMs?: number;
  /** Clock of checked_at and days_to_expiry. Default: the system clock. */
  now?: () => Date;
  /** Test-only (DOMAIN_AUDIT_TEST_RESOLVER, refused in production): this server replaces `resolvers`, and loopback answers are allowed. */
  testResolver?: string;
  /** Test-only (DOMAIN_AUDIT_TEST_TLS_PORT): the port used instead of 443. */
  testTlsPort?: number;
  /** Test-only (DOMAIN_AUDIT_TEST_CA_FILE): a PEM file of extra trusted roots, read once here. */
  testCaFile?: string;
}

export type DomainAuditErrorKind = 'invalid_domain' | 'not_found' | 'not_public' | 'unavailable';

/**
 * A refusal: no report, and the caller must not charge. `message` is safe to show to the client; `issues` is set
 * for invalid_domain (the same issues as parseAuditDomain).
 */
export class DomainAuditError extends Error {
  constructor(
    readonly kind: DomainAuditErrorKind,
    message: string,
    readonly issues: AuditDomainIssue[] = [],
  ) {
    super(message);
    this.name = 'DomainAuditError';
  }
}

export interface DomainAuditor {
  /** Audits one name (validated again here). Resolves with the report, or rejects with a DomainAuditError. */
  audit(domain: string): Promise<DomainAuditReport>;
}

const isLoopback = (a: string) => ipaddr.isValid(a) && ipaddr.process(a).range() === 'loopback';

function servers(raw: readonly string[]): DnsServer[] {
  return raw.map((s) => {
    const server = parseDnsServer(s);
    if (!server)
      throw new Error(`domain audit: resolver ${JSON.stringify(s)} is not an IP address with an optional port`);
    return server;
  });
}

export function createDomainAuditor(options: DomainAuditorOptions = {}): DomainAuditor {
  const dnsServers = servers(
    options.testResolver ? [options.testResolver] : (options.resolvers ?? DEFAULT_DOMAIN_AUDIT_RESOLVERS),
  );
  if (dnsServers.length === 0) throw new Error('domain audit: at least one resolver is needed');
  const dnsTimeoutMs = options.dnsTimeoutMs ?? DEFAULT_DNS_TIMEOUT_MS;
  const tlsTimeoutMs = options.tlsTimeoutMs ?? DEFAULT_TLS_TIMEOUT_MS;
  const now = options.now ?? (() => new Date());
  const port = options.testTlsPort ?? 443;
  const allowLoopback = Boolean(options.testResolver);
  const ca = options.testCaFile ? [...tls.rootCertificates, readFileSync(options.testCaFile, 'utf8')] : undefined;
  const acceptable = (a: string) => isPublicAddress(a) || (allowLoopback && isLoopback(a));

  async function audit(raw: string): Promise<DomainAuditReport> {
    const parsed = parseAuditDomain(raw);
    if (!parsed.ok)
      throw new DomainAuditError('invalid_domain', parsed.issues.map((i) => i.message).join('; '), parsed.issues);
    const domain = parsed.value;
    const checkedAt = now();

    const dns = await lookUp(domain);
    const addresses = [...dns.a, ...dns.aaaa];
    const checked = addresses.filter(acceptable);
    if (checked.length === 0)
      throw new DomainAuditError('not_public', `${domain} resolves only to non-public addresses; it is not audited`);

    // The pinned address: the first acceptable A answer (IPv4 reaches more networks), else the first AAAA.
    const target: TlsTarget = { address: checked[0]!, port, servername: domain, ca, timeoutMs: tlsTimeoutMs };
    const [main, ...versions] = await Promise.all([
      probeMain(target),
      probeVersion(target, 'TLSv1'),
      probeVersion(target, 'TLSv1.1'),
      probeVersion(target, 'TLSv1.2'),
      probeVersion(target, 'TLSv1.3'),
    ]);
    const hsts = parseHsts(main.hsts.header);
    const report: DomainAuditReport = {
      domain,
      checked_at: checkedAt.toISOString(),
      not_a_vulnerability_scan: true,
      notice: NOT_A_VULNERABILITY_SCAN_NOTICE,
      dns: { ...dns, non_public_addresses: addresses.filter((a) => !acceptable(a)) },
      tls: {
        address: target.address,
        port,
        connected: main.connected,
        error: main.error,
        protocol: main.protocol,
        cipher: main.cipher,
        certificate: main.certificate && {
          subject_cn: main.certificate.subjectCn,
          subject_alt_names: main.certificate.subjectAltNames,
          issuer: main.certificate.issuer,
          valid_from: isoOrEpoch(main.certificate.validFrom),
          valid_to: isoOrEpoch(main.certificate.validTo),
          days_to_expiry: Math.floor((main.certificate.validTo.getTime() - checkedAt.getTime()) / 86_400_000),
          serial_number: main.certificate.serialNumber,
          fingerprint_sha256: main.certificate.fingerprintSha256,
        },
        chain_valid: main.chainValid,
        chain_error: main.chainError,
        hostname_match: main.hostnameMatch,
        protocols: { tls1_0: versions[0]!, tls1_1: versions[1]!, tls1_2: versions[2]!, tls1_3: versions[3]! },
        hsts: { status_code: main.hsts.statusCode, header: main.hsts.header, ...hsts, error: main.hsts.error },
      },
      findings: [],
    };
    report.findings = findingsOf(report, checkedAt);
    return report;
  }

  /** Every DNS lookup at once under one deadline; refuses (not_found / unavailable) when there is no address. */
  async function lookUp(domain: string): Promise<Omit<DomainAuditReport['dns'], 'non_public_addresses'>> {
    const deadline = AbortSignal.timeout(dnsTimeoutMs);
    const { lookup } = createBoundResolver(dnsServers, dnsTimeoutMs, deadline);
    const org = registrableDomainOf(domain);
    // CAA applies from the closest name up to the registrable domain that has a CAA set (RFC 8659 section 3).
    // At most MAX_CAA_NAMES lookups: the nearest names and always the registrable domain.
    const caaNames: string[] = [];
    for (let n = domain; ; n = n.slice(n.indexOf('.') + 1)) {
      caaNames.push(n);
      if (n === org || !n.includes('.')) break;
    }
    if (caaNames.length > MAX_CAA_NAMES) caaNames.splice(MAX_CAA_NAMES - 1, caaNames.length - MAX_CAA_NAMES);
    const dmarcNames = [...new Set([`_dmarc.${domain}`, `_dmarc.${org}`])];
    const aQuery = queryAddressesWithAd(
      domain,
      dnsServers,
      deadline,
      Math.max(1, Math.floor(dnsTimeoutMs / dnsServers.length)),
    )
      .then((v): Lookup<AddressAnswer> => ({ ok: true, value: v }))
      .catch((e: unknown): Lookup<AddressAnswer> => ({
        ok: false,
        error: e instanceof LookupFailure ? e.error : 'error',
      }));
    const [aRaw, aaaa, ns, mx, txt, caa, dmarc] = await Promise.all([
      aQuery,
      lookup((r) => r.resolve6(domain)),
      lookup((r) => r.resolveNs(domain)),
      lookup((r) => r.resolveMx(domain)),
      lookup((r) => r.resolveTxt(domain)),
      Promise.all(caaNames.map((n) => lookup((r) => r.resolveCaa(n)))),
      Promise.all(dmarcNames.map((n) => lookup((r) => r.resolveTxt(n)))),
    ]);
    // A truncated UDP answer (rare with EDNS 1232) is asked again through node:dns, which retries over TCP.
    let a: Lookup<AddressAnswer> = aRaw;
    if (!aRaw.ok && aRaw.error === 'error' && !deadline.aborted) {
      const v4 = await lookup((r) => r.resolve4(domain));
      if (v4.ok) a = { ok: true, value: { rcode: 'NOERROR', addresses: v4.value, ad: null } };
    }

    if (a.ok && a.value.rcode === 'NXDOMAIN')
      throw new DomainAuditError('not_found', `${domain} does not exist (NXDOMAIN)`);
    const v4 = a.ok ? a.value.addresses : [];
    const v6 = aaaa.ok ? aaaa.value : [];
    if (v4.length + v6.length === 0) {
      if (!a.ok || !aaaa.ok)
        throw new DomainAuditError(
          'unavailable',
          `the DNS resolvers did not answer for ${domain} in time; nothing was audited`,
        );
      throw new DomainAuditError('not_found', `${domain} has no A or AAAA record`);
    }

    const lookupErrors: { query: string; error: LookupError }[] = [];
    const noteError = (query: string, l: Lookup<unknown>) => {
      if (!l.ok) lookupErrors.push({ query, error: l.error });
    };
    noteError(`A ${domain}`, a);
    noteError(`AAAA ${domain}`, aaaa);
    noteError(`NS ${domain}`, ns);
    noteError(`MX ${domain}`, mx);
    noteError(`TXT ${domain}`, txt);
    caa.forEach((l, i) => noteError(`CAA ${caaNames[i]}`, l));
    dmarc.forEach((l, i) => noteError(`TXT ${dmarcNames[i]}`, l));

    const txtStrings = (l: Lookup<string[][]>) => (l.ok ? l.value.map((chunks) => chunks.join('').slice(0, 2048)) : []);
    const caaAt = caa.findIndex((l) => l.ok && l.value.length > 0);
    const dmarcAt = dmarc.findIndex((l) => txtStrings(l).some((t) => /^v=dmarc1\s*(;|$)/i.test(t)));
    const dmarcRecords = dmarcAt < 0 ? [] : txtStrings(dmarc[dmarcAt]!).filter((t) => /^v=dmarc1\s*(;|$)/i.test(t));
    const ad = a.ok ? a.value.ad : null;
    return {
      a: v4.slice(0, 50),
      aaaa: v6.slice(0, 50),
      ns: (ns.ok ? ns.value : []).slice(0, 50),
      mx: (mx.ok ? mx.value : []).slice(0, 50).map((m) => ({ priority: m.priority, exchange: m.exchange })),
      caa: {
        found_at: caaAt < 0 ? null : caaNames[caaAt]!,
        records:
          caaAt < 0
            ? []
            : (caa[caaAt] as { ok: true; value: CaaRecord[] }).value.slice(0, 50).map((r) => {
                const { critical, ...rest } = r;
                const [tag, value] = Object.entries(rest).find(([k]) => k !== 'critical') ?? ['', ''];
                return { critical: Boolean(critical), tag, value: String(value) };
              }),
      },
      spf: {
        records: txtStrings(txt)
          .filter((t) => /^v=spf1(\s|$)/i.test(t))
          .slice(0, 10),
      },
      dmarc: {
        name: dmarcAt < 0 ? null : dmarcNames[dmarcAt]!,
        records: dmarcRecords.slice(0, 10),
        policy:
          dmarcRecords.length === 1
            ? (/(?:^|;)\s*p\s*=\s*([a-z]+)/i.exec(dmarcRecords[0]!)?.[1]?.toLowerCase() ?? null)
            : null,
      },
      dnssec: { status: ad === null ? 'unknown' : ad ? 'validated' : 'not_validated', ad_flag: ad },
      lookup_errors: lookupErrors,
    };
  }

  return { audit };
}

function isoOrEpoch(d: Date): string {
  return Number.isNaN(d.getTime()) ? new Date(0).toISOString() : d.toISOString();
}

function parseHsts(header: string | null): { max_age: number | null; include_subdomains: boolean; preload: boolean } {
  if (header === null) return { max_age: null, include_subdomains: false, preload: false };
  const directives = header.split(';').map((d) => d.trim().toLowerCase());
  const maxAge = directives.map((d) => /^max-age\s*=\s*"?(\d{1,12})"?$/.exec(d)?.[1]).find((v) => v !== undefined);
  return {
    max_age: maxAge === undefined ? null : Number(maxAge),
    include_subdomains: directives.includes('includesubdomains'),
    preload: directives.includes('preload'),
  };
}
