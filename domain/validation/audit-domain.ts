import { parse as parseDomainName } from 'tldts';

/**
 * The `domain` argument of the DNS/TLS audit (MCP tool `domain_dns_tls_audit`), checked before any payment is
 * asked and again by the auditor itself:
 * - a string; surrounding white space trimmed, lower-cased, one trailing dot dropped;
 * - an internationalised name is turned into its ASCII (punycode) form, as a browser would (WHATWG URL host
 *   parsing, the same algorithm as node:url's domainToASCII);
 * - at most 253 characters; two labels or more; each label 1-63 letters, digits or hyphens, not starting or
 *   ending with a hyphen;
 * - never an IP address, in any spelling (`127.1`, `0x7f.0.0.1` and `[::1]` are addresses too);
 * - under a real public suffix of the ICANN section of the Public Suffix List (tldts), and not a public suffix
 *   itself (`co.uk`); special-use names (`.arpa`, `.onion`, `.local`, `.localhost`, `.internal`, `.test`,
 *   `.example`, `.invalid`, `.alt`) are refused.
 * tldts is the one library besides zod that this pure module uses: it is the Public Suffix List compiled into
 * code, with no I/O (eslint.config.js allows it here only).
 */
export interface AuditDomainIssue {
  path: (string | number)[];
  message: string;
}

export type ParsedAuditDomain = { ok: true; value: string } | { ok: false; issues: AuditDomainIssue[] };

export const AUDIT_DOMAIN_MAX_LENGTH = 253;

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const SPECIAL_USE = /(^|\.)(arpa|onion|local|localhost|internal|test|example|invalid|alt)$/;
/** A last label the URL host parser would read as an IPv4 number (decimal, octal or hex). */
const NUMERIC_LABEL = /^(?:0x[0-9a-f]*|\d+)$/;

const fail = (message: string): ParsedAuditDomain => ({ ok: false, issues: [{ path: ['domain'], message }] });
const NOT_AN_ADDRESS = 'domain must be a domain name, not an IP address';

export function parseAuditDomain(raw: unknown): ParsedAuditDomain {
  if (raw === undefined || raw === null) return fail('domain is required');
  if (typeof raw !== 'string') return fail('domain must be a string');
  let name = raw.trim().toLowerCase();
  if (name.length === 0) return fail('domain is required');
  // Bound the work before IDN processing; a punycode form is never shorter than 1 character per input one.
  if (name.length > AUDIT_DOMAIN_MAX_LENGTH + 1)
    return fail(`domain must be at most ${AUDIT_DOMAIN_MAX_LENGTH} characters`);
  if (name.startsWith('[') || name.includes(':')) {
    return /^\[?[0-9a-f:.]+\]?$/.test(name)
      ? fail(NOT_AN_ADDRESS)
      : fail('domain must be a bare domain name: no scheme, port, path or user info');
  }
  // eslint-disable-next-line no-control-regex -- any ASCII other than letters, digits, hyphen and dot is refused
  if (/[\u0000-\u002c/\u003a-\u0060\u007b-\u007f]/.test(name)) {
    return fail(
      'domain must be a bare domain name: letters, digits, hyphens and dots only (no scheme, port, path, spaces or underscores)',
    );
  }
  if (name.endsWith('.')) name = name.slice(0, -1);
  if (name.length === 0 || name.startsWith('.') || name.includes('..') || name.endsWith('.')) {
    return fail('domain must not have an empty label');
  }
  if (NUMERIC_LABEL.test(name.slice(name.lastIndexOf('.') + 1))) return fail(NOT_AN_ADDRESS);
  let ascii: string;
  try {
    ascii = new URL(`http://${name}/`).hostname;
  } catch {
    return fail('domain is not a valid internationalised domain name');
  }
  if (ascii.startsWith('[') || NUMERIC_LABEL.test(ascii.slice(ascii.lastIndexOf('.') + 1))) return fail(NOT_AN_ADDRESS);
  if (ascii.length > AUDIT_DOMAIN_MAX_LENGTH)
    return fail(`domain must be at most ${AUDIT_DOMAIN_MAX_LENGTH} characters (in its ASCII form)`);
  const labels = ascii.split('.');
  if (labels.some((l) => l.length === 0)) return fail('domain must not have an empty label');
  if (labels.some((l) => l.length > 63)) return fail('each label of domain must be at most 63 characters');
  if (!labels.every((l) => LABEL.test(l))) {
    return fail('each label of domain must be letters, digits and hyphens, not starting or ending with a hyphen');
  }
  if (labels.length < 2)
    return fail('domain must be a fully qualified name with at least two labels, e.g. example.com');
  if (SPECIAL_USE.test(ascii)) return fail('domain must be a public name, not a special-use or local one');
  const info = parseDomainName(ascii, { allowPrivateDomains: false });
  if (info.isIp) return fail(NOT_AN_ADDRESS);
  if (info.isIcann !== true) return fail('domain must end in a public suffix (top-level domain) that exists');
  if (info.domain === null)
    return fail('domain is a public suffix itself; give a registered domain or a name under one');
  return { ok: true, value: ascii };
}

/**
 * The arguments object of the MCP tool: exactly `{ domain }`. Unknown arguments are refused (the input schema has
 * additionalProperties false).
 */
export function parseAuditDomainArguments(args: unknown): ParsedAuditDomain {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return { ok: false, issues: [{ path: [], message: 'arguments must be an object with a domain property' }] };
  }
  const unknown = Object.keys(args).filter((k) => k !== 'domain');
  const parsed = parseAuditDomain((args as Record<string, unknown>).domain);
  const issues = [
    ...unknown.map((k) => ({ path: [k], message: `unknown argument ${k}` })),
    ...(parsed.ok ? [] : parsed.issues),
  ];
  return issues.length || !parsed.ok ? { ok: false, issues } : parsed;
}

/** The registrable domain (e.g. `example.co.uk` for `www.example.co.uk`) of a name that passed parseAuditDomain. */
export function registrableDomainOf(name: string): string {
  return parseDomainName(name, { allowPrivateDomains: false }).domain ?? name;
}
