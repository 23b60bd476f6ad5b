import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { connectMcp } from '../../support/mcp-client.js';

/** /mcp over HTTP without payments configured: discovery is free, errors are JSON-RPC, browsers may call it. */
let tdb: TestDatabase;
let app: Awaited<ReturnType<typeof startTestApp>>;
/** The same server as deployed publicly: PUBLIC_BASE_URL set. */
let publicApp: Awaited<ReturnType<typeof startTestApp>>;
const PUBLIC = 'https://pay.example.com';

beforeAll(async () => {
  tdb = await createTestDatabase();
  app = await startTestApp({
    db: tdb.db,
    logger: capturingLogger().logger,
    config: testConfig({ RATE_LIMIT_X402_PER_IP_PER_MINUTE: '10000' }),
  });
  publicApp = await startTestApp({
    db: tdb.db,
    logger: capturingLogger().logger,
    config: testConfig({ RATE_LIMIT_X402_PER_IP_PER_MINUTE: '10000', PUBLIC_BASE_URL: PUBLIC }),
  });
});
afterAll(async () => {
  await app?.close();
  await publicApp?.close();
  await tdb?.drop();
});

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'rebinding-probe', version: '1.0.0' },
  },
});
/** A POST to /mcp of `server` with the Host (and Origin) a browser would send for another name (fetch cannot set Host). */
function postAs(
  server: { url: string },
  headers: Record<string, string>,
  body = INITIALIZE,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  const url = new URL(`${server.url}/mcp`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body,
  });

describe('/mcp over HTTP', () => {
  it('initializes and lists the four tools without a key or payment; a paid tool says payments are not configured, unpaid and uncharged', async () => {
    const client = await connectMcp(app.url);
    expect(client.getServerVersion()).toMatchObject({ name: 'usdc-verification', version: '1.0.0' });
    expect(client.getInstructions()).toMatch(/x402/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'domain_dns_tls_audit',
      'match_native_usdc_payment',
      'usdc_transfer_evidence_pdf',
      'verify_native_usdc',
    ]);
    const result = await client.callTool({
      name: 'verify_native_usdc',
      arguments: { tx_hash: `0x${'ab'.repeat(32)}` },
    });
    expect(result.isError).toBe(true);
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toMatchObject({
      code: 'payments_not_configured',
    });
    await client.close();
  });

  it('answers JSON-RPC errors for a body that is not JSON, and 405 to GET and DELETE (stateless: no stream, no session)', async () => {
    const broken = await post('{"jsonrpc":');
    expect(broken.status).toBe(422);
    expect(await broken.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32700,
        message: expect.any(String),
        data: { code: 'malformed_json', request_id: broken.headers.get('x-request-id') },
      },
    });
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${app.url}/mcp`, { method, headers: { Accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { data: { code: 'method_not_allowed' } } });
    }
    // A JSON body that is not JSON-RPC is the MCP transport's to refuse, in JSON-RPC too.
    const notRpc = await post('{"hello":"world"}');
    expect(notRpc.status).toBe(400);
    expect(await notRpc.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { code: expect.any(Number), message: expect.any(String) },
    });
  });

  it('refuses a request addressed to another host name (DNS rebinding) with 403, and never echoes that host', async () => {
    const port = new URL(app.url).port;
    const probes: Array<Record<string, string>> = [
      { Host: 'evil.example.com', Origin: 'http://evil.example.com' },
      { Host: `evil.example.com:${port}` },
    ];
    for (const headers of probes) {
      const res = await postAs(app, headers);
      expect(res.status).toBe(403);
      expect(JSON.parse(res.text)).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: expect.any(String), data: { code: 'host_rejected' } },
      });
      expect(res.text).not.toContain('evil');
    }
    // Deployed with PUBLIC_BASE_URL, only its host name is served (and loopback, for a probe on the machine itself).
    const rebound = await postAs(publicApp, { Host: 'evil.example.com', Origin: 'http://evil.example.com' });
    expect(rebound.status).toBe(403);
    expect(rebound.text).not.toContain('evil');
  });

  it('serves a loopback host name to loopback origins only: a web page elsewhere cannot drive a local server', async () => {
    const port = new URL(app.url).port;
    const local = await postAs(app, { Host: `localhost:${port}`, Origin: 'http://localhost:5173' });
    expect(local.status).toBe(200);
    expect(JSON.parse(local.text).result.serverInfo).toMatchObject({
      name: 'usdc-verification',
      websiteUrl: `http://localhost:${port}/x402/docs`,
    });
    for (const origin of ['https://agent.example', 'http://evil.example.com', 'null']) {
      const res = await postAs(app, { Host: `127.0.0.1:${port}`, Origin: origin });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.text)).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { data: { code: 'origin_rejected' } },
      });
    }
  });

  it('lets a browser-based MCP client call the public server from any origin, without credentials', async () => {
    const preflight = await fetch(`${publicApp.url}/mcp`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://agent.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type, mcp-protocol-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/POST/);
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('mcp-protocol-version');
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    const ping = await postAs(
      publicApp,
      { Host: 'pay.example.com', Origin: 'https://agent.example' },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    );
    expect(ping.status).toBe(200);
    expect(ping.headers['access-control-allow-origin']).toBe('*');
    const init = await postAs(publicApp, { Host: 'pay.example.com', Origin: 'https://agent.example' });
    expect(JSON.parse(init.text).result.serverInfo).toMatchObject({ websiteUrl: `${PUBLIC}/x402/docs` });
  });

  it('is reported available by /x402/launch-status and listed in the discovery manifests as pointers while payments are off', async () => {
    const status = (await (await fetch(`${app.url}/x402/launch-status`)).json()) as {
      mcp: { status: string; path: string; tools: Array<{ name: string; price_atomic: string }> };
    };
    expect(status.mcp).toMatchObject({ status: 'available', path: '/mcp', transport: 'streamable-http' });
    expect(status.mcp.tools).toContainEqual({ name: 'domain_dns_tls_audit', price_atomic: '50000' });
    const manifest = (await (await fetch(`${app.url}/x402/.well-known/x402`)).json()) as {
      resources: Array<Record<string, unknown>>;
    };
    const tools = manifest.resources.filter((r) => r['type'] === 'mcp');
    expect(tools.map((t) => t['toolName']).sort()).toEqual([
      'domain_dns_tls_audit',
      'match_native_usdc_payment',
      'usdc_transfer_evidence_pdf',
      'verify_native_usdc',
    ]);
    for (const t of tools) {
      expect(t).toMatchObject({ url: `${app.url}/mcp`, method: 'POST' });
      expect(t['accepts']).toBeUndefined();
    }
  });
});
