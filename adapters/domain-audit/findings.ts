import type { DomainAuditFinding, DomainAuditReport } from './schema.js';

/**
 * The findings of a report: plain statements a reader (or a model) can act on, each with a stable code.
 * critical: clients will fail or be exposed (no TLS, untrusted or expired certificate, wrong name);
 * warning: a weakness worth fixing (legacy TLS, no HSTS, SPF +all, certificate expiring within 14 days...);
 * info: a missing hardening (no CAA, no DMARC, DNSSEC not validated...).
 */
export const EXPIRY_WARNING_DAYS = 14;
/** 180 days: the usual lower bound for a long-lived HSTS policy (and the HSTS preload list's one year is more). */
export const HSTS_MIN_MAX_AGE = 15_552_000;

export function findingsOf(report: Omit<DomainAuditReport, 'findings'>, checkedAt: Date): DomainAuditFinding[] {
  const out: DomainAuditFinding[] = [];
  const add = (severity: DomainAuditFinding['severity'], code: string, message: string) =>
    out.push({ severity, code, message });
  const { dns, tls } = report;

  if (dns.non_public_addresses.length > 0) {
    add(
      'warning',
      'non_public_addresses',
      `The name also resolves to non-public addresses (${dns.non_public_addresses.join(', ')}); they were not contacted.`,
    );
  }
  if (dns.lookup_errors.length > 0) {
    add(
      'warning',
      'dns_lookup_errors',
      `Some DNS lookups failed: ${dns.lookup_errors.map((e) => `${e.query} (${e.error})`).join(', ')}.`,
    );
  }
  if (dns.caa.found_at === null)
    add('info', 'no_caa', 'No CAA record: any certificate authority may issue certificates for this name.');
  if (dns.spf.records.length > 1)
    add('warning', 'multiple_spf', 'More than one SPF record: receivers treat this as a permanent SPF error.');
  if (dns.spf.records.some((r) => /(^|\s)\+?all(\s|$)/i.test(r)))
    add('warning', 'spf_allows_all', 'The SPF record ends in +all: any server may send mail as this name.');
  if (dns.mx.length > 0 && dns.spf.records.length === 0)
    add('info', 'no_spf', 'The name receives mail (MX) but publishes no SPF record.');
  if (dns.dmarc.name === null)
    add('info', 'no_dmarc', 'No DMARC record at _dmarc of the name or of its registrable domain.');
  else if (dns.dmarc.policy === 'none')
    add('info', 'dmarc_policy_none', 'The DMARC policy is p=none: failing mail is only reported, not rejected.');
  if (dns.dnssec.status === 'not_validated')
    add(
      'info',
      'dnssec_not_validated',
      'The resolver did not validate the address answer with DNSSEC (the zone is probably unsigned).',
    );

  if (!tls.connected) {
    add(
      'critical',
      'tls_unavailable',
      `No TLS 1.2 or 1.3 handshake on ${tls.address} port ${tls.port}: ${tls.error ?? 'unknown error'}.`,
    );
  } else {
    const cert = tls.certificate;
    if (cert && Date.parse(cert.valid_to) < checkedAt.getTime())
      add('critical', 'certificate_expired', `The certificate expired on ${cert.valid_to}.`);
    else if (cert && Date.parse(cert.valid_from) > checkedAt.getTime())
      add('critical', 'certificate_not_yet_valid', `The certificate is valid only from ${cert.valid_from}.`);
    else if (cert && cert.days_to_expiry < EXPIRY_WARNING_DAYS)
      add('warning', 'certificate_expires_soon', `The certificate expires in ${cert.days_to_expiry} days.`);
    if (tls.chain_valid === false && !/^CERT_(HAS_EXPIRED|NOT_YET_VALID)$/.test(tls.chain_error ?? '')) {
      add(
        'critical',
        'chain_untrusted',
        `The certificate chain does not verify against trusted roots (${tls.chain_error}).`,
      );
    }
    if (tls.hostname_match === false)
      add('critical', 'hostname_mismatch', `The certificate does not cover ${report.domain}.`);
    if (tls.hsts.header === null)
      add('warning', 'no_hsts', 'GET / over HTTPS sent no Strict-Transport-Security header.');
    else if (tls.hsts.max_age === null)
      add('warning', 'hsts_invalid', 'The Strict-Transport-Security header has no valid max-age.');
    else if (tls.hsts.max_age < HSTS_MIN_MAX_AGE)
      add('info', 'hsts_short_max_age', `HSTS max-age is ${tls.hsts.max_age} s, under 180 days.`);
  }
  if (tls.protocols.tls1_0 === true) add('warning', 'tls1_0_accepted', 'TLS 1.0 is accepted (deprecated by RFC 8996).');
  if (tls.protocols.tls1_1 === true) add('warning', 'tls1_1_accepted', 'TLS 1.1 is accepted (deprecated by RFC 8996).');
  if (tls.connected && tls.protocols.tls1_3 === false) add('info', 'tls1_3_not_accepted', 'TLS 1.3 is not accepted.');
  return out;
}
