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
 *
 * Operator allow-list: `privateDestinations` (WEBHOOK_PRIVATE_DESTINATIONS, parsed by parsePrivateDestinations) names
 * exact origins (scheme, private IP address, port) of on-premise receivers. A URL whose origin is one of them is
 * admitted and sent to that address as written, with no DNS involved; everything else goes through the public policy.
 * Empty by default (docs/webhooks.md "Private destinations").
 */
export type UrlCheck =
  | {
      ok: true;
      url: URL;
      href: string;
      hostname: string;
      port: number;
      loopbackTestTarget: boolean;
      /** An origin of privateDestinations: `hostname` is the IP address to connect to, no DNS lookup. */
      privateDestination: boolean;
    }
  | { ok: false; reason: string };

export interface DestinationPolicy {
  allowLoopbackForTests?: boolean;
  /** Origins (`URL.origin` form) an operator allowed beside the public policy (parsePrivateDestinations). */
  privateDestinations?: readonly string[] | undefined;
}

const MAX_URL_LENGTH = 2048;

/** The port a URL connects to: its own, else the scheme's default. */
const portOf = (url: URL): number => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);
/** The URL's host as an address to connect to: an IPv6 literal without its brackets. */
const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');
const LOOPBACK_TEST_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function checkDestinationUrl(raw: string, opts: DestinationPolicy = {}): UrlCheck {
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
    const hostname = url.hostname === '[::1]' ? '::1' : url.hostname === 'localhost' ? '127.0.0.1' : url.hostname;
    const port = portOf(url);
    return { ok: true, url, href: url.href, hostname, port, loopbackTestTarget: true, privateDestination: false };
  }
  if (opts.privateDestinations?.includes(url.origin)) {
    return {
      ok: true,
      url,
      href: url.href,
      hostname: bareHost(url),
      port: portOf(url),
      loopbackTestTarget: false,
      privateDestination: true,
    };
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
  return {
    ok: true,
    url,
    href: url.href,
    hostname: name,
    port: 443,
    loopbackTestTarget: false,
    privateDestination: false,
  };
}

/**
 * Says at start-up which private destinations this process may deliver to (nothing when none are set), so an operator
 * reading the logs sees the exception to the public policy.
 */
export function logPrivateDestinations(origins: readonly string[], warn: (fields: object, message: string) => void) {
  if (origins.length)
    warn(
      { privateDestinations: origins },
      'WEBHOOK_PRIVATE_DESTINATIONS: webhook deliveries may reach these private origins beside public HTTPS destinations',
    );
}

/** The address ranges an operator may name in WEBHOOK_PRIVATE_DESTINATIONS (ipaddr.js range names). */
const PRIVATE_DESTINATION_RANGES = new Set(['private', 'loopback', 'uniqueLocal']);

/**
 * WEBHOOK_PRIVATE_DESTINATIONS: a comma-separated list of origins `http(s)://<IP address>[:<port>]` of on-premise
 * receivers, each normalised to its `URL.origin`. Only private (10/8, 172.16/12, 192.168/16, fc00::/7) and loopback
 * addresses: a public receiver uses a DNS name under the public policy, and link-local (cloud metadata), unspecified,
 * multicast or reserved addresses are never receivers. No name (its answers can change after it was allowed), no path,
 * userinfo, query or fragment. Returns the origins, or the reasons the list is refused.
 */
export function parsePrivateDestinations(raw: string): { origins: string[] } | { issues: string[] } {
  const origins: string[] = [];
  const issues: string[] = [];
  for (const entry of raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const refuse = (why: string) => issues.push(`WEBHOOK_PRIVATE_DESTINATIONS: ${entry}: ${why}`);
    let url: URL;
    try {
      url = normalisedUrl(entry);
    } catch {
      refuse('not a URL (write the origin, e.g. https://10.0.0.5:8443)');
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') refuse('http or https only');
    else if (url.username || url.password || entry.includes('@')) refuse('no userinfo');
    else if (url.pathname !== '/' || url.search || url.hash || /[?#]/.test(entry))
      refuse('an origin only (scheme, address, port), no path, query or fragment');
    else {
      const host = bareHost(url);
      if (!ipaddr.isValid(host) || isIP(host) === 0) refuse('an IP address, not a name (its DNS answers could change)');
      else if (!PRIVATE_DESTINATION_RANGES.has(ipaddr.parse(host).range()))
        refuse('a private or loopback address only (a public receiver uses a DNS name)');
      else if (!origins.includes(url.origin)) origins.push(url.origin);
    }
  }
  return issues.length ? { issues } : { origins };
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
