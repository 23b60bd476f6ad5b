import { z } from 'zod';

/**
 * The answer of the DNS/TLS audit (MCP tool `domain_dns_tls_audit`): one zod schema, from which come the
 * TypeScript type (DomainAuditReport) and the JSON Schema given to MCP clients (DOMAIN_AUDIT_OUTPUT_SCHEMA).
 * Field names are snake_case like every JSON answer of /x402.
 */

export const NOT_A_VULNERABILITY_SCAN_NOTICE =
  'Read-only check of public DNS records and of the TLS service on port 443 of the address the name resolves to. ' +
  'It is not a vulnerability scan: no ports other than 443 are contacted, no exploit, credential or path is tried, ' +
  'and a clean report does not mean the service is secure.';

/** A description of the tool a model can act on (what it does, what it needs, what it is not, what it costs nothing for). */
export const DOMAIN_AUDIT_TOOL_DESCRIPTION =
  'Audits the public DNS and the HTTPS/TLS set-up of one domain name: A, AAAA, NS, MX, CAA, SPF and DMARC records and ' +
  'the DNSSEC status reported by a validating resolver; then, on port 443 of the address the name resolves to, the ' +
  'certificate (chain trust, days to expiry, host-name match), which TLS versions (1.0 to 1.3) are accepted, and the ' +
  'HSTS header of GET / (redirects not followed). Returns a JSON report with findings ranked critical, warning or info. ' +
  'Argument: domain, a public DNS name such as example.com (no URL, IP address or port). Read-only and bounded (about ' +
  '11 s at most). Not a vulnerability scan. A name that does not exist, resolves only to private addresses, or whose ' +
  'DNS does not answer is refused without charge.';

const dateTime = () => z.string().meta({ format: 'date-time' });
const lookupError = z.enum(['timeout', 'servfail', 'refused', 'error']);

const certificateSchema = z
  .object({
    subject_cn: z.string().nullable().describe('common name of the leaf certificate'),
    subject_alt_names: z.array(z.string()).describe('DNS names (and other entries, prefixed) of the leaf certificate'),
    issuer: z.string().nullable().describe('common name (or organisation) of the issuer'),
    valid_from: dateTime(),
    valid_to: dateTime(),
    days_to_expiry: z.number().int().describe('whole days from checked_at to valid_to; negative once expired'),
    serial_number: z.string(),
    fingerprint_sha256: z.string(),
  })
  .strict();

const findingSchema = z
  .object({
    severity: z.enum(['critical', 'warning', 'info']),
    code: z.string().describe('stable snake_case code, e.g. certificate_expired, hostname_mismatch, no_hsts'),
    message: z.string(),
  })
  .strict();

const acceptance = z.boolean().nullable().describe('true accepted, false refused, null could not be tested');

export const domainAuditReportSchema = z
  .object({
    domain: z.string().describe('the audited name, in its ASCII (punycode) form'),
    checked_at: dateTime(),
    not_a_vulnerability_scan: z.literal(true),
    notice: z.string(),
    dns: z
      .object({
        a: z.array(z.string()),
        aaaa: z.array(z.string()),
        non_public_addresses: z
          .array(z.string())
          .describe('answers that are private, reserved, loopback or otherwise not public; never contacted'),
        ns: z.array(z.string()),
        mx: z.array(z.object({ priority: z.number().int(), exchange: z.string() }).strict()),
        caa: z
          .object({
            found_at: z
              .string()
              .nullable()
              .describe('the name holding the CAA set that applies (the domain or its closest parent), null if none'),
            records: z.array(z.object({ critical: z.boolean(), tag: z.string(), value: z.string() }).strict()),
          })
          .strict(),
        spf: z
          .object({ records: z.array(z.string()).describe('TXT records of the name starting with v=spf1') })
          .strict(),
        dmarc: z
          .object({
            name: z
              .string()
              .nullable()
              .describe('where the DMARC record was found (_dmarc.<name> or of its registrable domain), null if none'),
            records: z.array(z.string()),
            policy: z.string().nullable().describe('the p= tag of the record, e.g. none, quarantine, reject'),
          })
          .strict(),
        dnssec: z
          .object({
            status: z
              .enum(['validated', 'not_validated', 'unknown'])
              .describe(
                'validated: the resolver set the AD flag on the address answer; not_validated: it did not (unsigned zone or a non-validating resolver); unknown: no answer to read',
              ),
            ad_flag: z.boolean().nullable(),
          })
          .strict(),
        lookup_errors: z
          .array(z.object({ query: z.string(), error: lookupError }).strict())
          .describe('lookups that failed (an empty answer is not an error)'),
      })
      .strict(),
    tls: z
      .object({
        address: z.string().describe('the checked address every connection was pinned to'),
        port: z.number().int(),
        connected: z.boolean().describe('a TLS handshake with default client settings (TLS 1.2 or 1.3) succeeded'),
        error: z.string().nullable().describe('why the handshake failed, when it did'),
        protocol: z.string().nullable(),
        cipher: z.string().nullable(),
        certificate: certificateSchema.nullable(),
        chain_valid: z
          .boolean()
          .nullable()
          .describe('the chain leads to a trusted root and every certificate is within its validity period'),
        chain_error: z
          .string()
          .nullable()
          .describe('OpenSSL verification code, e.g. CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT'),
        hostname_match: z.boolean().nullable(),
        protocols: z
          .object({ tls1_0: acceptance, tls1_1: acceptance, tls1_2: acceptance, tls1_3: acceptance })
          .strict(),
        hsts: z
          .object({
            status_code: z.number().int().nullable().describe('status of GET / (redirects are not followed)'),
            header: z.string().nullable().describe('Strict-Transport-Security as received, null when absent'),
            max_age: z.number().int().nullable(),
            include_subdomains: z.boolean(),
            preload: z.boolean(),
            error: z.string().nullable(),
          })
          .strict(),
      })
      .strict(),
    findings: z.array(findingSchema),
  })
  .strict();

export type DomainAuditReport = z.infer<typeof domainAuditReportSchema>;
export type DomainAuditFinding = z.infer<typeof findingSchema>;
export type DomainAuditCertificate = z.infer<typeof certificateSchema>;

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  // No $schema: the keywords used mean the same in draft-07 and 2020-12 (MCP's default dialect).
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-7' }) as Record<string, unknown>;
  return rest;
}

/** JSON Schema of the report (the MCP tool's outputSchema). */
export const DOMAIN_AUDIT_OUTPUT_SCHEMA: Record<string, unknown> = jsonSchemaOf(domainAuditReportSchema);

/** JSON Schema of the arguments (the MCP tool's inputSchema). The rules beyond it: parseAuditDomain. */
export const DOMAIN_AUDIT_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    domain: {
      type: 'string',
      minLength: 1,
      maxLength: 254,
      description:
        'A public DNS name such as example.com or www.example.co.uk (internationalised names allowed). Not an IP address, URL, port or single-label name.',
    },
  },
  required: ['domain'],
  additionalProperties: false,
} as const;

export const DOMAIN_AUDIT_INPUT_EXAMPLE = { domain: 'example.com' } as const;

export const DOMAIN_AUDIT_OUTPUT_EXAMPLE: DomainAuditReport = {
  domain: 'example.com',
  checked_at: '2026-03-02T10:15:00.000Z',
  not_a_vulnerability_scan: true,
  notice: NOT_A_VULNERABILITY_SCAN_NOTICE,
  dns: {
    a: ['93.184.215.14'],
    aaaa: ['2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    non_public_addresses: [],
    ns: ['a.iana-servers.net', 'b.iana-servers.net'],
    mx: [{ priority: 0, exchange: '' }],
    caa: { found_at: null, records: [] },
    spf: { records: ['v=spf1 -all'] },
    dmarc: { name: '_dmarc.example.com', records: ['v=DMARC1;p=reject;sp=reject;adkim=s;aspf=s'], policy: 'reject' },
    dnssec: { status: 'validated', ad_flag: true },
    lookup_errors: [],
  },
  tls: {
    address: '93.184.215.14',
    port: 443,
    connected: true,
    error: null,
    protocol: 'TLSv1.3',
    cipher: 'TLS_AES_256_GCM_SHA384',
    certificate: {
      subject_cn: '*.example.com',
      subject_alt_names: ['*.example.com', 'example.com'],
      issuer: 'DigiCert Global G3 TLS ECC SHA384 2020 CA1',
      valid_from: '2026-01-15T00:00:00.000Z',
      valid_to: '2027-01-15T23:59:59.000Z',
      days_to_expiry: 319,
      serial_number: 'AD893BAFA68B0B7FB7A404F06ECAF9A',
      fingerprint_sha256:
        '31:0D:B7:AF:4B:2B:C9:04:0C:83:44:70:1A:CA:08:D0:C6:93:81:E3:7C:1C:3B:E3:71:6A:0B:9A:B8:D2:F9:04',
    },
    chain_valid: true,
    chain_error: null,
    hostname_match: true,
    protocols: { tls1_0: false, tls1_1: false, tls1_2: true, tls1_3: true },
    hsts: { status_code: 200, header: null, max_age: null, include_subdomains: false, preload: false, error: null },
  },
  findings: [
    {
      severity: 'info',
      code: 'no_caa',
      message: 'No CAA record: any certificate authority may issue certificates for this name.',
    },
    { severity: 'warning', code: 'no_hsts', message: 'GET / over HTTPS sent no Strict-Transport-Security header.' },
  ],
};
