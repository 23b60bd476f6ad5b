import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { parse as parseDomain } from 'tldts';

/**
 * Destination policy for outgoing webhooks (both interfaces): HTTPS on port 443 to a public DNS name; no IP
 * literal, userinfo, query, fragment or local hostname. DNS answers are checked separately, on every attempt,
 * with isPublicAddress.
 *
 * The policy judges the URL in its normal form, and `href` is that form: what every path stores and every delivery
 * sends to. The WHATWG parser already writes every numeric IPv4 host form (hexadecimal, octal, a decimal integer,
 * short dotted forms, percent-encoded digits) as dotted decimal, lower-cases names, writes them in punycode and drops
 * the default port; an IPv4-mapped IPv6 literal (`[::ffff:127.0.0.1]`) is written here as the IPv4 address it
 * carries (ipaddr.js), so one destination has one spelling and the policy sees the address it names.
 *
 * Test-only escape hatch: with allowLoopbackForTests, http(s)://127.0.0.1|localhost|[::1]:<any port> is
 * accepted so integration tests can reach a receiver on this machine. It is off by default and refused in
 * production by the config loader.
 */
export type UrlCheck =
  | { ok: true; url: URL; href: string; hostname: string; port: number; loopbackTestTarget: boolean }
  | { ok: false; reason: string };

const MAX_URL_LENGTH = 2048;
const LOOPBACK_TEST_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function checkDestinationUrl(raw: string, opts: { allowLoopbackForTests?: boolean } = {}): UrlCheck {
  if (typeof raw !== 'string' || raw.length === 0) return { ok: false, reason: 'url is required' };
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `url must be at most ${MAX_URL_LENGTH} characters` };
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
  if (/[\s\u0000-\u001f\u007f\\]/.test(raw))
    return { ok: false, reason: 'url contains whitespace, control characters or backslashes' };
  let url: URL;
  try {
    url = normalisedUrl(raw);
  } catch {
    return { ok: false, reason: 'url is not a valid absolute URL' };
  }
  if (url.username || url.password || /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(raw)) {
    return { ok: false, reason: 'url must not contain userinfo' };
  }
  if (url.search || raw.includes('?')) return { ok: false, reason: 'url must not contain a query string' };
  if (url.hash || raw.includes('#')) return { ok: false, reason: 'url must not contain a fragment' };

  if (
    opts.allowLoopbackForTests &&
    LOOPBACK_TEST_HOSTS.has(url.hostname) &&
    (url.protocol === 'http:' || url.protocol === 'https:')
  ) {
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    const hostname = url.hostname === '[::1]' ? '::1' : url.hostname === 'localhost' ? '127.0.0.1' : url.hostname;
    return { ok: true, url, href: url.href, hostname, port, loopbackTestTarget: true };
  }

  if (url.protocol !== 'https:') return { ok: false, reason: 'url must use https' };
  // WHATWG parsing drops the default port, so an explicit ":443" becomes "".
  if (url.port !== '') return { ok: false, reason: 'url must use port 443' };
  const host = url.hostname;
  if (host.startsWith('[') || isIP(host) !== 0)
    return { ok: false, reason: 'url must use a DNS name, not an IP address' };
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (!name.includes('.')) return { ok: false, reason: 'url must use a fully qualified public DNS name' };
  const info = parseDomain(name, { allowPrivateDomains: false });
  if (!info.domain || info.isIcann !== true || info.isIp) {
    return { ok: false, reason: 'url must use a public DNS name under a public suffix' };
  }
  if (/(^|\.)(localhost|local|internal|localdomain|home\.arpa|lan|intranet)$/i.test(name)) {
    return { ok: false, reason: 'url must not use a local hostname' };
  }
  return { ok: true, url, href: url.href, hostname: name, port: 443, loopbackTestTarget: false };
}

/** `raw` parsed (WHATWG), with an IPv4-mapped IPv6 host written as its IPv4 address. Throws on an invalid URL. */
function normalisedUrl(raw: string): URL {
  const url = new URL(raw);
  const host = url.hostname;
  if (host.startsWith('[') && host.endsWith(']')) {
    const inner = host.slice(1, -1);
    if (ipaddr.IPv6.isValid(inner)) {
      const v6 = ipaddr.IPv6.parse(inner);
      if (v6.isIPv4MappedAddress()) url.hostname = v6.toIPv4Address().toString();
    }
  }
  return url;
}

/** True only for globally routable unicast addresses (IPv4 or IPv6, including IPv4-mapped IPv6). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  const range = parsed.range();
  if (range !== 'unicast') return false;
  if (parsed.kind() === 'ipv6') {
    // Only 2000::/3 is allocated global unicast; everything else ipaddr.js calls "unicast" is unassigned.
    const first = (parsed as ipaddr.IPv6).parts[0]!;
    if (first < 0x2000 || first > 0x3fff) return false;
    // Documentation prefix 2001:db8::/32 is not routable.
    if ((parsed as ipaddr.IPv6).match(ipaddr.IPv6.parse('2001:db8::'), 32)) return false;
  } else {
    const v4 = parsed as ipaddr.IPv4;
    // ipaddr.js has no names for these; all are not globally reachable.
    const extra: Array<[string, number]> = [
      ['0.0.0.0', 8],
      ['100.64.0.0', 10],
      ['192.0.0.0', 24],
      ['192.0.2.0', 24],
      ['198.18.0.0', 15],
      ['198.51.100.0', 24],
      ['203.0.113.0', 24],
      ['240.0.0.0', 4],
    ];
    if (extra.some(([net, bits]) => v4.match(ipaddr.IPv4.parse(net), bits))) return false;
  }
  return true;
}
