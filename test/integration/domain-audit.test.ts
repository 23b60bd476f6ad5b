import https from 'node:https';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDomainAuditor,
  DomainAuditError,
  DOMAIN_AUDIT_OUTPUT_SCHEMA,
  type DomainAuditorOptions,
  type DomainAuditReport,
} from '../../adapters/domain-audit/index.js';
import { startSilentDnsServer, startTestDnsServer, type TestDnsServer, type ZoneName } from '../helpers/dns-server.js';
import { createTestCa, type IssuedCertificate, type TestCa } from '../helpers/test-ca.js';

/**
 * The DNS/TLS audit, offline: a DNS server and TLS servers on loopback, certificates from a test CA, reached
 * through the test-only settings (test resolver, TLS port, extra CA). Nothing here touches the network.
 */

const DAY = 86_400_000;
const LOOP = ['127.0.0.1'];

let ca: TestCa;
let dns: TestDnsServer;
let mainServer: https.Server;
let tls13Server: https.Server;
let legacyServer: https.Server;
let mainPort: number;
let tls13Port: number;
let legacyPort: number;
/** The injected clock: 29.5 days before the valid leaf's notAfter, so days_to_expiry is exactly 29. */
let clock: Date;
const validateReport = (() => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(DOMAIN_AUDIT_OUTPUT_SCHEMA);
})();

const zone: Record<string, ZoneName> = {
  'example.com': {
    NS: ['ns1.example.com', 'ns2.example.com'],
    CAA: [{ flags: 0, tag: 'issue', value: 'letsencrypt.org' }],
    signed: true,
  },
  '_dmarc.example.com': { TXT: ['v=DMARC1; p=reject; rua=mailto:d@example.com'] },
  'valid.example.com': {
    A: LOOP,
    AAAA: ['::1'],
    MX: [{ preference: 10, exchange: 'mx.example.com' }],
    TXT: ['v=spf1 mx -all', 'google-site-verification=abc'],
    signed: true,
  },
  'expired.example.com': { A: LOOP },
  'future.example.com': { A: LOOP },
  'mismatch.example.com': { A: LOOP },
  'selfsigned.example.com': { A: LOOP },
  'nohsts.example.com': { A: LOOP },
  'endless.example.com': { A: LOOP },
  'tls13.example.com': { A: LOOP },
  'legacy.example.com': { A: LOOP },
  'private.example.com': { A: ['10.0.0.1'], AAAA: ['fd00::1'] },
  'cgnat.example.com': { A: ['100.64.1.2'] },
  'mixed.example.com': { A: ['10.0.0.1', '127.0.0.1'] },
  'mailonly.example.com': { MX: [{ preference: 10, exchange: 'mx.example.com' }] },
  // The first A answer is 127.0.0.1, every later one 127.0.0.2 (where nothing listens).
  'rebind.example.com': { A: (i) => (i === 0 ? ['127.0.0.1'] : ['127.0.0.2']) },
};

function listen(server: https.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function auditor(extra: Partial<DomainAuditorOptions> = {}) {
  return createDomainAuditor({
    testResolver: dns.address,
    testTlsPort: mainPort,
    testCaFile: ca.caFile,
    now: () => clock,
    ...extra,
  });
}

async function audit(domain: string, extra: Partial<DomainAuditorOptions> = {}): Promise<DomainAuditReport> {
  const report = await auditor(extra).audit(domain);
  expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
  return report;
}

async function refusal(domain: string, extra: Partial<DomainAuditorOptions> = {}): Promise<DomainAuditError> {
  const err = await auditor(extra)
    .audit(domain)
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(err).toBeInstanceOf(DomainAuditError);
  return err as DomainAuditError;
}

const codes = (r: DomainAuditReport) => r.findings.map((f) => f.code);

beforeAll(async () => {
  ca = createTestCa();
  const realNow = Date.now();
  const valid = { notBefore: new Date(realNow - DAY), notAfter: new Date(realNow + 30 * DAY) };
  clock = new Date(valid.notAfter.getTime() - 29.5 * DAY);
  const certs: Record<string, IssuedCertificate> = {
    'valid.example.com': ca.issue({
      names: [
        'valid.example.com',
        'nohsts.example.com',
        'endless.example.com',
        'rebind.example.com',
        'mixed.example.com',
      ],
      ...valid,
    }),
    'expired.example.com': ca.issue({
      names: ['expired.example.com'],
      notBefore: new Date(realNow - 10 * DAY),
      notAfter: new Date(realNow - 2 * DAY),
    }),
    'future.example.com': ca.issue({
      names: ['future.example.com'],
      notBefore: new Date(realNow + 2 * DAY),
      notAfter: new Date(realNow + 40 * DAY),
    }),
    'mismatch.example.com': ca.issue({ names: ['other.example.org'], ...valid }),
    'selfsigned.example.com': ca.selfSigned(['selfsigned.example.com']),
  };
  const contexts = Object.fromEntries(
    Object.entries(certs).map(([name, c]) => [name, tls.createSecureContext({ key: c.key, cert: c.cert })]),
  );
  for (const alias of ['nohsts', 'endless', 'rebind', 'mixed'])
    contexts[`${alias}.example.com`] = contexts['valid.example.com']!;
  mainServer = https.createServer(
    {
      key: certs['valid.example.com']!.key,
      cert: certs['valid.example.com']!.cert,
      SNICallback: (name, cb) => cb(null, contexts[name] ?? contexts['valid.example.com']),
    },
    (req, res) => {
      const host = req.headers.host ?? '';
      if (host === 'endless.example.com') {
        // A body that never ends: the audit must not read it.
        res.writeHead(200, { 'strict-transport-security': 'max-age=600' });
        const timer = setInterval(() => res.write('x'.repeat(16_384)), 5);
        res.on('close', () => clearInterval(timer));
        return;
      }
      if (host !== 'nohsts.example.com')
        res.setHeader('strict-transport-security', 'max-age=31536000; includeSubDomains; preload');
      res.writeHead(301, { location: 'https://elsewhere.example.net/' });
      res.end('moved');
    },
  );
  mainPort = await listen(mainServer);
  const tls13Cert = ca.issue({ names: ['tls13.example.com'], ...valid });
  tls13Server = https.createServer({ ...tls13Cert, minVersion: 'TLSv1.3' }, (_req, res) => res.end('ok'));
  tls13Port = await listen(tls13Server);
  const legacyCert = ca.issue({ names: ['legacy.example.com'], ...valid });
  legacyServer = https.createServer(
    { ...legacyCert, minVersion: 'TLSv1', ciphers: 'DEFAULT:@SECLEVEL=0' },
    (_req, res) => res.end('ok'),
  );
  legacyPort = await listen(legacyServer);
  dns = await startTestDnsServer(zone);
});

afterAll(async () => {
  for (const s of [mainServer, tls13Server, legacyServer]) {
    s?.closeAllConnections();
    await new Promise<void>((r) => (s ? s.close(() => r()) : r()));
  }
  await dns?.close();
  ca?.remove();
});

describe('domain_dns_tls_audit engine: a healthy name', () => {
  it('reports DNS (A, AAAA, NS, MX, CAA from the parent, SPF, DMARC, DNSSEC AD flag) and TLS (chain, expiry, name, versions, HSTS)', async () => {
    const report = await audit('Valid.Example.COM.');
    expect(report.domain).toBe('valid.example.com');
    expect(report.checked_at).toBe(clock.toISOString());
    expect(report.not_a_vulnerability_scan).toBe(true);
    expect(report.notice).toMatch(/not a vulnerability scan/);
    expect(report.dns).toEqual({
      a: ['127.0.0.1'],
      aaaa: ['::1'],
      non_public_addresses: [],
      ns: [],
      mx: [{ priority: 10, exchange: 'mx.example.com' }],
      caa: { found_at: 'example.com', records: [{ critical: false, tag: 'issue', value: 'letsencrypt.org' }] },
      spf: { records: ['v=spf1 mx -all'] },
      dmarc: {
        name: '_dmarc.example.com',
        records: ['v=DMARC1; p=reject; rua=mailto:d@example.com'],
        policy: 'reject',
      },
      dnssec: { status: 'validated', ad_flag: true },
      lookup_errors: [],
    });
    expect(report.tls).toMatchObject({
      address: '127.0.0.1',
      port: mainPort,
      connected: true,
      error: null,
      chain_valid: true,
      chain_error: null,
      hostname_match: true,
      protocols: { tls1_0: false, tls1_1: false, tls1_2: true, tls1_3: true },
      hsts: {
        status_code: 301,
        header: 'max-age=31536000; includeSubDomains; preload',
        max_age: 31_536_000,
        include_subdomains: true,
        preload: true,
        error: null,
      },
    });
    expect(report.tls.protocol).toBe('TLSv1.3');
    expect(report.tls.certificate).toMatchObject({
      subject_cn: 'valid.example.com',
      issuer: 'paycore test CA',
      days_to_expiry: 29,
    });
    expect(report.tls.certificate!.subject_alt_names).toContain('valid.example.com');
    expect(report.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    // The address query asked for the AD flag; the redirect of GET / was not followed (one name, one port).
    expect(dns.queries.find((q) => q.name === 'valid.example.com' && q.type === 'A')?.ad).toBe(true);
  });

  it('reports an unsigned answer as not validated, and a missing HSTS header', async () => {
    const report = await audit('nohsts.example.com');
    expect(report.dns.dnssec).toEqual({ status: 'not_validated', ad_flag: false });
    expect(report.tls.hsts).toEqual({
      status_code: 301,
      header: null,
      max_age: null,
      include_subdomains: false,
      preload: false,
      error: null,
    });
    expect(codes(report)).toEqual(expect.arrayContaining(['no_hsts', 'dnssec_not_validated']));
  });

  it('reads only the response head of GET /: a body that never ends does not hold the audit', async () => {
    const report = await audit('endless.example.com');
    expect(report.tls.hsts).toMatchObject({ status_code: 200, max_age: 600 });
    expect(codes(report)).toContain('hsts_short_max_age');
  });
});

describe('certificate findings', () => {
  it('an expired leaf: chain invalid (CERT_HAS_EXPIRED), negative days to expiry', async () => {
    const report = await audit('expired.example.com');
    expect(report.tls).toMatchObject({
      connected: true,
      chain_valid: false,
      chain_error: 'CERT_HAS_EXPIRED',
      hostname_match: true,
    });
    expect(report.tls.certificate!.days_to_expiry).toBeLessThan(0);
    expect(codes(report)).toContain('certificate_expired');
  });

  it('a leaf that is not valid yet', async () => {
    const report = await audit('future.example.com');
    expect(report.tls).toMatchObject({ chain_valid: false, chain_error: 'CERT_NOT_YET_VALID' });
    expect(codes(report)).toContain('certificate_not_yet_valid');
  });

  it('a certificate for another name: the chain is trusted, the name does not match', async () => {
    const report = await audit('mismatch.example.com');
    expect(report.tls).toMatchObject({ chain_valid: true, hostname_match: false });
    expect(report.tls.certificate!.subject_alt_names).toEqual(['other.example.org']);
    expect(codes(report)).toContain('hostname_mismatch');
  });

  it('a self-signed certificate is untrusted', async () => {
    const report = await audit('selfsigned.example.com');
    expect(report.tls).toMatchObject({
      chain_valid: false,
      chain_error: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      hostname_match: true,
    });
    expect(codes(report)).toContain('chain_untrusted');
  });

  it('without the test CA, the test chain is untrusted (only the bundled roots count)', async () => {
    const report = await audit('valid.example.com', { testCaFile: undefined });
    expect(report.tls.chain_valid).toBe(false);
    expect(codes(report)).toContain('chain_untrusted');
  });
});

describe('protocol versions, each tried alone', () => {
  it('a TLS 1.3-only server: 1.2 is not accepted', async () => {
    const report = await audit('tls13.example.com', { testTlsPort: tls13Port });
    expect(report.tls.protocols).toEqual({ tls1_0: false, tls1_1: false, tls1_2: false, tls1_3: true });
    expect(report.tls.connected).toBe(true);
  });

  it('a server that still accepts TLS 1.0 and 1.1', async () => {
    const report = await audit('legacy.example.com', { testTlsPort: legacyPort });
    expect(report.tls.protocols).toEqual({ tls1_0: true, tls1_1: true, tls1_2: true, tls1_3: true });
    expect(codes(report)).toEqual(expect.arrayContaining(['tls1_0_accepted', 'tls1_1_accepted']));
  });

  it('nothing listening: a report whose TLS part says so', async () => {
    const closed = https.createServer();
    const port = await listen(closed);
    await new Promise<void>((r) => closed.close(() => r()));
    const report = await audit('valid.example.com', { testTlsPort: port });
    expect(report.tls).toMatchObject({
      connected: false,
      error: 'connection_refused',
      certificate: null,
      chain_valid: null,
      hostname_match: null,
    });
    expect(report.tls.protocols).toEqual({ tls1_0: null, tls1_1: null, tls1_2: null, tls1_3: null });
    expect(codes(report)).toContain('tls_unavailable');
  });
});

describe('refusals (not charged)', () => {
  it('a name that resolves only to private addresses → not_public, and no connection is made', async () => {
    expect((await refusal('private.example.com')).kind).toBe('not_public');
    expect((await refusal('cgnat.example.com')).kind).toBe('not_public');
  });

  it('loopback answers count as non-public unless the test resolver is set', async () => {
    const err = await refusal('valid.example.com', { testResolver: undefined, resolvers: [dns.address] });
    expect(err.kind).toBe('not_public');
  });

  it('a name with public and private answers is audited on the public one; the others are reported, never contacted', async () => {
    const report = await audit('mixed.example.com');
    expect(report.tls.address).toBe('127.0.0.1');
    expect(report.dns.non_public_addresses).toEqual(['10.0.0.1']);
    expect(codes(report)).toContain('non_public_addresses');
  });

  it('NXDOMAIN, and a name with no A nor AAAA → not_found', async () => {
    expect((await refusal('missing.example.com')).kind).toBe('not_found');
    expect((await refusal('mailonly.example.com')).kind).toBe('not_found');
  });

  it('a resolver that never answers → unavailable, within the (injected) DNS timeout', async () => {
    const silent = await startSilentDnsServer();
    try {
      const started = performance.now();
      const err = await refusal('valid.example.com', { testResolver: silent.address, dnsTimeoutMs: 300 });
      expect(err.kind).toBe('unavailable');
      expect(silent.received()).toBeGreaterThan(0);
      // A hang guard, not a speed requirement: the default would be 3 s, the injected bound is 0.3 s.
      expect(performance.now() - started).toBeLessThan(2900);
    } finally {
      await silent.close();
    }
  });

  it.each([
    ['an IP literal', '127.0.0.1'],
    ['an IPv6 literal', '[::1]'],
    ['a single label', 'localhost'],
    ['an overlong name', `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`],
    ['a URL', 'https://valid.example.com/'],
  ])('%s → invalid_domain with issues, before any DNS query', async (_label, raw) => {
    const before = dns.queries.length;
    const err = await refusal(raw);
    expect(err.kind).toBe('invalid_domain');
    expect(err.issues[0]!.path).toEqual(['domain']);
    expect(dns.queries.length).toBe(before);
  });
});

describe('pinning', () => {
  it('every connection goes to the address of the one A answer; the name is not looked up again', async () => {
    const report = await audit('rebind.example.com');
    expect(report.tls.address).toBe('127.0.0.1');
    expect(report.dns.a).toEqual(['127.0.0.1']);
    // Nothing listens on 127.0.0.2: had any probe resolved the name again, it would have failed.
    expect(report.tls).toMatchObject({ connected: true, chain_valid: true, hostname_match: true });
    expect(report.tls.protocols).toMatchObject({ tls1_2: true, tls1_3: true });
    expect(dns.queries.filter((q) => q.name === 'rebind.example.com' && q.type === 'A')).toHaveLength(1);
  });
});
