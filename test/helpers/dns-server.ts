import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import dnsPacket from 'dns-packet';

/**
 * A small authoritative-looking DNS server on 127.0.0.1 (UDP, a random port) for offline tests, built on
 * dns-packet. A name absent from the zone answers NXDOMAIN; a present name without records of the asked type
 * answers NOERROR with no answer (NODATA). `signed` names get the AD flag. Every query is logged.
 */
export interface ZoneName {
  A?: string[] | ((queryIndex: number) => string[]);
  AAAA?: string[];
  NS?: string[];
  MX?: Array<{ preference: number; exchange: string }>;
  CAA?: Array<{ flags: number; tag: 'issue' | 'issuewild' | 'iodef'; value: string }>;
  TXT?: string[];
  signed?: boolean;
}

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, the form DOMAIN_AUDIT_TEST_RESOLVER takes. */
  address: string;
  queries: Array<{ name: string; type: string; ad: boolean }>;
  close(): Promise<void>;
}

const NXDOMAIN = 3;

export async function startTestDnsServer(zone: Record<string, ZoneName>): Promise<TestDnsServer> {
  const socket = dgram.createSocket('udp4');
  const queries: TestDnsServer['queries'] = [];
  socket.on('message', (msg, rinfo) => {
    let query: dnsPacket.DecodedPacket;
    try {
      query = dnsPacket.decode(msg);
    } catch {
      return;
    }
    const q = query.questions?.[0];
    if (!q) return;
    const name = q.name.toLowerCase();
    const adAsked = Boolean(query.flag_ad);
    const index = queries.filter((x) => x.name === name && x.type === q.type).length;
    queries.push({ name, type: q.type, ad: adAsked });
    const entry = zone[name];
    const answers: dnsPacket.Answer[] = [];
    if (entry) {
      const base = { name: q.name, ttl: 60, class: 'IN' as const };
      if (q.type === 'A' && entry.A) {
        const list = typeof entry.A === 'function' ? entry.A(index) : entry.A;
        for (const data of list) answers.push({ ...base, type: 'A', data });
      }
      if (q.type === 'AAAA') for (const data of entry.AAAA ?? []) answers.push({ ...base, type: 'AAAA', data });
      if (q.type === 'NS') for (const data of entry.NS ?? []) answers.push({ ...base, type: 'NS', data });
      if (q.type === 'MX') for (const data of entry.MX ?? []) answers.push({ ...base, type: 'MX', data });
      if (q.type === 'CAA') for (const data of entry.CAA ?? []) answers.push({ ...base, type: 'CAA', data });
      if (q.type === 'TXT') for (const data of entry.TXT ?? []) answers.push({ ...base, type: 'TXT', data: [data] });
    }
    let flags = dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE;
    if (!entry) flags |= NXDOMAIN;
    if (entry?.signed && adAsked) flags |= dnsPacket.AUTHENTIC_DATA;
    const response = dnsPacket.encode({ type: 'response', id: query.id, flags, questions: [q], answers });
    socket.send(response, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** A UDP port on 127.0.0.1 that receives DNS queries and never answers them. */
export async function startSilentDnsServer(): Promise<{
  address: string;
  received: () => number;
  close(): Promise<void>;
}> {
  const socket = dgram.createSocket('udp4');
  let received = 0;
  socket.on('message', () => {
    received += 1;
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    received: () => received,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
