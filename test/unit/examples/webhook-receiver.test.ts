import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody, standardWebhookHeaders } from '../../../adapters/webhooks/sign.js';
import { createWebhookReceiver } from '../../../examples/webhook-receiver.js';

/**
 * The example receiver against bodies signed exactly as the delivery workflow signs them. Its clock is injected
 * (`nowSeconds`) and fixed, so the 300-second window is tested at its edges without racing the wall clock.
 */
const SECRET = 'whsec_example_secret';
const NOW = 1_790_000_100;
const log = join(mkdtempSync(join(tmpdir(), 'receiver-')), 'events.jsonl');
let server: http.Server;
let url = '';

const start = async () => {
  server = http.createServer(
    createWebhookReceiver({ secret: SECRET, scheme: 'x-service', eventLog: log, nowSeconds: () => NOW }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
};
const stop = () => new Promise<void>((r) => server.close(() => r()));
beforeAll(start);
afterAll(stop);

const event = (id: string, extra: Record<string, unknown> = {}) =>
  Buffer.from(
    JSON.stringify({
      id,
      api_version: '1.0',
      type: 'payment.confirmed',
      occurred_at: 1_790_000_000,
      data: { request_id: 'req_x', amount_atomic: '1' },
      ...extra,
    }),
  );
function post(body: Buffer, opts: { id?: string; timestamp?: number; secret?: string; signature?: string } = {}) {
  const timestamp = opts.timestamp ?? NOW;
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'X-Service-Timestamp': String(timestamp),
      'X-Service-Signature': opts.signature ?? signBody(opts.secret ?? SECRET, timestamp, body),
      'X-Service-Event-Id': opts.id ?? (JSON.parse(body.toString()) as { id: string }).id,
      'X-Service-Delivery-Id': 'dlv_example',
      'X-Service-Key-Version': '1',
    },
    body,
  });
}
const logged = () =>
  readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { id: string }).id);

describe('examples/webhook-receiver.ts, X-Service scheme', () => {
  it('commits a verified event once, then answers 2xx; a redelivery is acknowledged without a second effect', async () => {
    expect((await post(event('evt_one'))).status).toBe(200);
    expect((await post(event('evt_one'))).status).toBe(200);
    expect(logged()).toEqual(['evt_one']);
    // Durable: a restarted receiver still knows the id.
    await stop();
    await start();
    expect((await post(event('evt_one'))).status).toBe(200);
    expect(logged()).toEqual(['evt_one']);
  });

  it('rejects before parsing: a bad signature, another secret, a stale or future timestamp, missing headers', async () => {
    const body = event('evt_bad');
    expect((await post(body, { secret: 'whsec_other' })).status).toBe(401);
    expect((await post(body, { signature: 'v1=00' })).status).toBe(401);
    expect((await post(body, { timestamp: NOW - 301 })).status).toBe(401);
    expect((await post(body, { timestamp: NOW + 301 })).status).toBe(401);
    expect((await fetch(url, { method: 'POST', body })).status).toBe(400);
    // A signed body that is not JSON is refused after verification.
    expect((await post(Buffer.from('not json'), { id: 'evt_x' })).status).toBe(400);
    expect(logged()).not.toContain('evt_bad');
  });

  it('requires the body id to equal the event-id header and a supported api_version; accepts additive fields', async () => {
    expect((await post(event('evt_a'), { id: 'evt_b' })).status).toBe(400);
    expect((await post(event('evt_v2', { api_version: '2.0' }))).status).toBe(400);
    expect((await post(event('evt_new_field', { extra_field: { future: true } }))).status).toBe(200);
    expect(logged()).toEqual(['evt_one', 'evt_new_field']);
  });

  it('accepts a timestamp exactly 300 seconds away on either side', async () => {
    expect((await post(event('evt_edge_past'), { timestamp: NOW - 300 })).status).toBe(200);
    expect((await post(event('evt_edge_future'), { timestamp: NOW + 300 })).status).toBe(200);
    expect(logged()).toEqual(['evt_one', 'evt_new_field', 'evt_edge_past', 'evt_edge_future']);
  });
});

describe('examples/webhook-receiver.ts, Standard Webhooks scheme (the default, verified by the standardwebhooks package)', () => {
  // A real secret's shape, signed by the platform's own signer; the package checks its window with the system clock.
  const secret = 'whsec_Q2xhc3NpYy1leGFtcGxlLXNlY3JldC1zaG93bi1vbmNl-_x';
  const stdLog = join(mkdtempSync(join(tmpdir(), 'receiver-std-')), 'events.jsonl');
  let std: http.Server;
  let stdUrl = '';
  beforeAll(async () => {
    std = http.createServer(createWebhookReceiver({ secret, eventLog: stdLog }));
    await new Promise<void>((r) => std.listen(0, '127.0.0.1', r));
    stdUrl = `http://127.0.0.1:${(std.address() as AddressInfo).port}/hooks`;
  });
  afterAll(() => new Promise<void>((r) => std.close(() => r())));
  const nowS = () => Math.floor(Date.now() / 1000);
  const send = (body: Buffer, o: { id?: string; at?: number; key?: string; headers?: Record<string, string> } = {}) =>
    fetch(stdUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...standardWebhookHeaders(
          o.key ?? secret,
          o.id ?? (JSON.parse(body.toString()) as { id: string }).id,
          o.at ?? nowS(),
          body,
        ),
        ...o.headers,
      },
      body,
    });
  const stdLogged = () =>
    readFileSync(stdLog, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { id: string }).id);

  it('commits a verified event once; a redelivery (same webhook-id, new timestamp) has no second effect', async () => {
    expect((await send(event('evt_std'))).status).toBe(200);
    expect((await send(event('evt_std'), { at: nowS() - 60 })).status).toBe(200);
    expect(stdLogged()).toEqual(['evt_std']);
  });

  it('refuses a tampered body, another secret, another id, a stale timestamp and missing headers', async () => {
    const body = event('evt_std_bad');
    const signed = standardWebhookHeaders(secret, 'evt_std_bad', nowS(), body);
    const tampered = Buffer.from(body.toString().replace('"1"', '"2"'));
    expect((await fetch(stdUrl, { method: 'POST', headers: signed, body: tampered })).status).toBe(401);
    expect((await send(body, { key: 'whsec_other' })).status).toBe(401);
    expect((await send(body, { headers: { 'webhook-id': 'evt_other' } })).status).toBe(401);
    expect((await send(body, { at: nowS() - 400 })).status).toBe(401);
    expect((await fetch(stdUrl, { method: 'POST', body })).status).toBe(400);
    // Signed for another id than the body's: verified, then refused before any effect.
    expect((await send(body, { id: 'evt_header_only' })).status).toBe(400);
    expect(stdLogged()).toEqual(['evt_std']);
  });
});
