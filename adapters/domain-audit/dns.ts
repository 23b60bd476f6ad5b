import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import dnsPacket from 'dns-packet';

/**
 * The DNS half of the audit. Every lookup goes to the configured resolvers (never the system's, which may know
 * internal names), all run at once, and the whole phase is cut at one deadline.
 *
 * The A lookup is one raw query (dns-packet over UDP) with the AD bit set (RFC 6840 section 5.7), because
 * node:dns does not expose the AD flag of an answer: the same answer gives the addresses the TLS checks are
 * pinned to and the DNSSEC status. The other records use node:dns's Resolver.
 */

export type LookupError = 'timeout' | 'servfail' | 'refused' | 'error';

export interface DnsServer {
  address: string;
  port: number;
}

/** `1.1.1.1`, `1.1.1.1:53`, `2606:4700:4700::1111` or `[::1]:5353`: an IP address, optionally with a port. */
export function parseDnsServer(raw: string): DnsServer | null {
  const s = raw.trim();
  if (isIP(s) !== 0) return { address: s, port: 53 };
  const m = /^\[([^\]]+)\]:(\d{1,5})$/.exec(s) ?? /^([^:]+):(\d{1,5})$/.exec(s);
  if (!m || isIP(m[1]!) === 0) return null;
  const port = Number(m[2]);
  return port >= 1 && port <= 65535 ? { address: m[1]!, port } : null;
}

const serverString = (s: DnsServer) => (isIP(s.address) === 6 ? `[${s.address}]:${s.port}` : `${s.address}:${s.port}`);

export interface AddressAnswer {
  rcode: 'NOERROR' | 'NXDOMAIN';
  addresses: string[];
  /** The AD flag of the answer; null when the answer came without it (truncated UDP answer re-asked over node:dns). */
  ad: boolean | null;
}

export class LookupFailure extends Error {
  constructor(readonly error: LookupError) {
    super(`DNS lookup failed (${error})`);
  }
}

/** One A query to one server over UDP. Resolves with the decoded answer, or rejects with a LookupFailure. */
function queryOnce(name: string, server: DnsServer, signal: AbortSignal): Promise<dnsPacket.DecodedPacket> {
  return new Promise((resolve, reject) => {
    const id = randomInt(0, 65536);
    const socket = dgram.createSocket(isIP(server.address) === 6 ? 'udp6' : 'udp4');
    let done = false;
    const finish = (err: Error | null, packet?: dnsPacket.DecodedPacket) => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      socket.close();
      if (err) reject(err);
      else resolve(packet!);
    };
    const onAbort = () => finish(new LookupFailure('timeout'));
    if (signal.aborted) {
      socket.close();
      reject(new LookupFailure('timeout'));
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    socket.on('error', (e: NodeJS.ErrnoException) =>
      finish(new LookupFailure(e.code === 'ECONNREFUSED' ? 'refused' : 'error')),
    );
    socket.on('message', (msg) => {
      let packet: dnsPacket.DecodedPacket;
      try {
        packet = dnsPacket.decode(msg);
      } catch {
        return; // not an answer we can read: keep waiting for the real one until the deadline
      }
      const q = packet.questions?.[0];
      if (packet.type !== 'response' || packet.id !== id || !q || q.type !== 'A' || q.name.toLowerCase() !== name)
        return;
      finish(null, packet);
    });
    // A connected socket only accepts datagrams from the server, and reports an ICMP "port unreachable".
    socket.connect(server.port, server.address, () => {
      if (done) return;
      const query = dnsPacket.encode({
        type: 'query',
        id,
        flags: dnsPacket.RECURSION_DESIRED | dnsPacket.AUTHENTIC_DATA,
        questions: [{ type: 'A', name, class: 'IN' }],
        additionals: [
          {
            type: 'OPT',
            name: '.',
            udpPayloadSize: 1232,
            extendedRcode: 0,
            ednsVersion: 0,
            flags: 0,
            flag_do: false,
            options: [],
          },
        ],
      });
      socket.send(query, (e) => {
        if (e) finish(new LookupFailure('error'));
      });
    });
  });
}

/** The A answer of `name` with its AD flag: each server in turn (a slice of the time each) until one answers. */
export async function queryAddressesWithAd(
  name: string,
  servers: DnsServer[],
  signal: AbortSignal,
  sliceMs: number,
): Promise<AddressAnswer> {
  let last: LookupError = 'timeout';
  for (const server of servers) {
    if (signal.aborted) break;
    const slice = AbortSignal.any([signal, AbortSignal.timeout(sliceMs)]);
    let packet: dnsPacket.DecodedPacket;
    try {
      packet = await queryOnce(name, server, slice);
    } catch (e) {
      last = e instanceof LookupFailure ? e.error : 'error';
      continue;
    }
    const rcode = (packet as { rcode?: string }).rcode ?? 'NOERROR';
    if (rcode === 'NXDOMAIN') return { rcode, addresses: [], ad: Boolean(packet.flag_ad) };
    if (rcode !== 'NOERROR') {
      last = rcode === 'SERVFAIL' ? 'servfail' : rcode === 'REFUSED' ? 'refused' : 'error';
      continue;
    }
    if (packet.flag_tc) throw new LookupFailure('error'); // the caller re-asks through node:dns (TCP)
    const addresses = (packet.answers ?? [])
      .filter((a): a is dnsPacket.StringAnswer => a.type === 'A')
      .map((a) => a.data);
    return { rcode: 'NOERROR', addresses: [...new Set(addresses)], ad: Boolean(packet.flag_ad) };
  }
  throw new LookupFailure(signal.aborted ? 'timeout' : last);
}

export type Lookup<T> = { ok: true; value: T } | { ok: false; error: LookupError };

function lookupErrorOf(e: unknown): LookupError | 'empty' {
  const code = (e as { code?: string }).code;
  if (code === 'ENODATA' || code === 'ENOTFOUND') return 'empty';
  if (code === 'ETIMEOUT' || code === 'ECANCELLED') return 'timeout';
  if (code === 'ESERVFAIL') return 'servfail';
  if (code === 'EREFUSED' || code === 'ECONNREFUSED') return 'refused';
  return 'error';
}

/** A node:dns Resolver on the given servers, cancelled (every pending query answers ECANCELLED) on abort. */
export function createBoundResolver(servers: DnsServer[], timeoutMs: number, signal: AbortSignal) {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  resolver.setServers(servers.map(serverString));
  signal.addEventListener('abort', () => resolver.cancel(), { once: true });
  /** Runs one lookup: an empty answer (NODATA, NXDOMAIN) is an empty list, any other failure a LookupError. */
  async function lookup<T>(run: (r: Resolver) => Promise<T[]>): Promise<Lookup<T[]>> {
    if (signal.aborted) return { ok: false, error: 'timeout' };
    try {
      return { ok: true, value: await run(resolver) };
    } catch (e) {
      const error = lookupErrorOf(e);
      return error === 'empty' ? { ok: true, value: [] } : { ok: false, error };
    }
  }
  return { lookup };
}
