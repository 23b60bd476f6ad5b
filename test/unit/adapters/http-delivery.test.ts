import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DnsFailure, postWithPolicy, type DnsResolver } from '../../../adapters/webhooks/http-delivery.js';
import { startReceiver } from '../../helpers/receiver.js';

const body = Buffer.from('{"id":"evt_1","amount_atomic":"1000000"}');
const fixedResolver = (answers: string[] | Error): DnsResolver => ({
  resolveAll: async () => {
    if (answers instanceof Error) throw answers;
    return answers;
  },
});
const noDns: DnsResolver = {
  resolveAll: async () => {
    throw new Error('must not resolve');
  },
};

describe('postWithPolicy against the destination policy', () => {
  it('rejects a URL outside the policy before any DNS lookup', async () => {
    const r = await postWithPolicy('http://hooks.example.com/x', {}, body, {
      resolver: noDns,
      allowLoopbackForTests: false,
    });
    expect(r).toMatchObject({ statusCode: null, errorClass: 'policy_rejected' });
  });

  it.each([[['10.0.0.5']], [['93.184.216.34', '127.0.0.1']], [['2606:4700::1111', 'fd00::1']], [[]]])(
    'refuses a name whose DNS answers %j are not all public',
    async (answers) => {
      const r = await postWithPolicy('https://hooks.example.com/x', {}, body, {
        resolver: fixedResolver(answers),
        allowLoopbackForTests: false,
      });
      expect(r).toMatchObject({ statusCode: null, errorClass: 'policy_dns_non_public', address: null });
    },
  );

  it('reports DNS failures by class', async () => {
    for (const cls of ['dns_not_found', 'dns_timeout', 'dns_temporary'] as const) {
      const r = await postWithPolicy('https://hooks.example.com/x', {}, body, {
        resolver: fixedResolver(new DnsFailure(cls)),
        allowLoopbackForTests: false,
      });
      expect(r.errorClass).toBe(cls);
    }
  });

  it('does not let the loopback test setting open loopback for real names', async () => {
    const r = await postWithPolicy('https://hooks.example.com/x', {}, body, {
      resolver: fixedResolver(['127.0.0.1']),
      allowLoopbackForTests: true,
    });
    expect(r.errorClass).toBe('policy_dns_non_public');
  });
});

describe('postWithPolicy over the wire (loopback test receiver)', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const answers: Array<number | 'hang'> = [];
  beforeAll(async () => {
    receiver = await startReceiver(() => answers.shift() ?? 200);
  });
  afterAll(() => receiver.close());
  // Generous where the outcome is an answer (a busy machine must not turn it into a timeout); short where a
  // timeout is the outcome under test.
  const opts = {
    resolver: noDns,
    allowLoopbackForTests: true,
    timeouts: { dnsMs: 30_000, connectMs: 30_000, socketMs: 30_000, totalMs: 60_000 },
  };
  const quickSocketTimeout = { ...opts, timeouts: { ...opts.timeouts, socketMs: 500 } };

  it('sends the exact bytes and headers and reports the status', async () => {
    answers.push(204);
    const r = await postWithPolicy(
      receiver.url,
      { 'x-service-event-id': 'evt_1', 'content-type': 'application/json' },
      body,
      opts,
    );
    expect(r).toMatchObject({ statusCode: 204, errorClass: null, address: '127.0.0.1' });
    const got = receiver.requests.at(-1)!;
    expect(got.body.equals(body)).toBe(true);
    expect(got.headers['x-service-event-id']).toBe('evt_1');
    expect(got.headers['content-length']).toBe(String(body.length));
  });

  it('does not follow redirects', async () => {
    const before = receiver.requests.length;
    answers.push(302);
    const r = await postWithPolicy(receiver.url, {}, body, opts);
    expect(r.statusCode).toBe(302);
    expect(receiver.requests.length).toBe(before + 1);
  });

  it('times out an idle socket', async () => {
    answers.push('hang');
    const r = await postWithPolicy(receiver.url, {}, body, quickSocketTimeout);
    expect(r).toMatchObject({ statusCode: null, errorClass: 'socket_timeout' });
  });

  it('classifies a refused connection and a TLS failure', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(port));
      });
    });
    expect((await postWithPolicy(`http://127.0.0.1:${closed}/x`, {}, body, opts)).errorClass).toBe(
      'connection_refused',
    );
    const tls = await postWithPolicy(receiver.url.replace('http:', 'https:'), {}, body, opts);
    expect(tls.errorClass).toBe('tls_error');
  });
});
