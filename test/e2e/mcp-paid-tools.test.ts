import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  validateDiscoveryExtension,
  validateDiscoveryExtensionSpec,
  type DiscoveryExtension,
} from '@x402/extensions/bazaar';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { USDC, startX402Chain, type X402Chain } from '../../support/x402-harness.js';
import { connectMcp, paymentRequiredOf, payingMcpClient } from '../../support/mcp-client.js';
import { readAttachments } from '../helpers/pdf-attachments.js';
import { createX402Payments } from '../../api/x402/payment.middleware.js';
import { createChainReader } from '../../adapters/chains/index.js';
import { createEvmReader } from '../../adapters/chains/evm/evm-reader.js';
import { createSolanaReader } from '../../adapters/chains/solana/solana-reader.js';
import { EVM_NETWORKS, type EvmNetwork } from '../../domain/networks.js';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { startTestDnsServer, type TestDnsServer } from '../helpers/dns-server.js';
import { createTestCa, type TestCa } from '../helpers/test-ca.js';

/**
 * The paid MCP server at /mcp, driven by the official MCP SDK client and an x402 wallet (the x402 MCP transport,
 * tool-result binding), settling through the self-hosted facilitator on a local Base where the inspected
 * transactions also live.
 */
let tdb: TestDatabase;
let chain: X402Chain;
let app: Awaited<ReturnType<typeof startTestApp>>;
let mcp: Client;
let reader: ReturnType<typeof createChainReader>;
const logs = capturingLogger();
let tx: `0x${string}`;
let receiver: `0x${string}`;
// The DNS/TLS audit's world, on loopback: a DNS server and an HTTPS server with a certificate of a test CA.
let dns: TestDnsServer;
let ca: TestCa;
let site: https.Server;

beforeAll(async () => {
  await Promise.all([createTestDatabase().then((d) => (tdb = d)), startX402Chain().then((c) => (chain = c))]);
  const urls = Object.fromEntries(EVM_NETWORKS.map((n) => [n, [chain.node.url]])) as Record<EvmNetwork, string[]>;
  const confirmations = Object.fromEntries(EVM_NETWORKS.map((n) => [n, 2])) as Record<EvmNetwork, number>;
  reader = createChainReader({
    evm: createEvmReader({ rpcUrls: urls, requiredConfirmations: confirmations, timeoutMs: 30_000, retries: 0 }),
    solana: createSolanaReader({ endpoints: ['http://127.0.0.1:9'], timeoutMs: 500, retries: 0 }),
  });
  const payments = createX402Payments({
    db: tdb.db,
    logger: logs.logger,
    payTo: chain.payTo,
    facilitator: chain.facilitator,
    authorizationState: chain.authorizationState,
    paymentTimeoutSeconds: 120,
  });
  dns = await startTestDnsServer({
    'shop.example.com': {
      A: ['127.0.0.1'],
      TXT: ['v=spf1 -all'],
      MX: [{ preference: 10, exchange: 'mx.example.com' }],
    },
    '_dmarc.shop.example.com': { TXT: ['v=DMARC1; p=reject'] },
    'example.com': { NS: ['ns1.example.com'] },
  });
  ca = createTestCa();
  const now = Date.now();
  site = https.createServer(
    ca.issue({
      names: ['shop.example.com'],
      notBefore: new Date(now - 86_400_000),
      notAfter: new Date(now + 60 * 86_400_000),
    }),
    (_req, res) => {
      res.writeHead(200, { 'strict-transport-security': 'max-age=31536000' });
      res.end('ok');
    },
  );
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  app = await startTestApp({
    db: tdb.db,
    logger: logs.logger,
    chainReader: reader,
    payments,
    config: testConfig({
      RATE_LIMIT_X402_PER_IP_PER_MINUTE: '10000',
      DOMAIN_AUDIT_TEST_RESOLVER: dns.address,
      DOMAIN_AUDIT_TEST_TLS_PORT: String((site.address() as AddressInfo).port),
      DOMAIN_AUDIT_TEST_CA_FILE: ca.caFile,
    }),
  });
  mcp = await connectMcp(app.url);
  const [sender, to] = [chain.node.accounts[5]!, chain.node.accounts[6]!];
  await chain.node.mint(USDC, sender.address, 2_500_000n);
  tx = await chain.node.transfer(USDC, sender, to.address, 2_500_000n);
  receiver = to.address;
  await chain.node.mine(2);
});
afterAll(async () => {
  await mcp?.close();
  await app?.close();
  await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
  await dns?.close();
  ca?.remove();
  await chain?.node.stop();
  await tdb?.drop();
});

const PRICES = {
  verify_native_usdc: '20000',
  match_native_usdc_payment: '30000',
  usdc_transfer_evidence_pdf: '50000',
  domain_dns_tls_audit: '50000',
} as const;
const argsOf = (name: string): Record<string, string> =>
  name === 'match_native_usdc_payment'
    ? { tx_hash: tx, recipient: receiver, amount: '2.5' }
    : name === 'domain_dns_tls_audit'
      ? { domain: 'shop.example.com' }
      : { tx_hash: tx };

describe('the paid MCP server', () => {
  it('lists every paid tool with input and output schemas, read-only annotations and its price, without a key or payment', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(PRICES).sort());
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(80);
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.outputSchema).toMatchObject({ type: 'object' });
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, destructiveHint: false });
      const price = (tool._meta as Record<string, { amount_atomic: string; asset: string; network: string }>)[
        'x402/price'
      ];
      expect(price).toMatchObject({ asset: USDC, network: 'eip155:8453' });
      expect(price!.amount_atomic).toBe(PRICES[tool.name as keyof typeof PRICES]);
    }
    expect(mcp.getServerCapabilities()).toMatchObject({ tools: {} });
  });

  it('asks for payment with an x402 v2 PaymentRequired (structuredContent and text) whose bazaar MCP declaration validates', async () => {
    for (const [name, amount] of Object.entries(PRICES)) {
      const result = await payingMcpClient(mcp, chain.payer).call(name, argsOf(name));
      expect(result.isError).toBe(true);
      const required = paymentRequiredOf(result)!;
      expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
      expect(required.x402Version).toBe(2);
      expect(required.accepts[0]).toMatchObject({
        scheme: 'exact',
        network: 'eip155:8453',
        asset: USDC,
        amount,
        payTo: chain.payTo,
        maxTimeoutSeconds: 120,
      });
      expect(required.resource.url).toBe(`mcp://${new URL(app.url).host}/tools/${name}`);
      const bazaar = required.extensions?.bazaar as DiscoveryExtension;
      expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
      expect(validateDiscoveryExtensionSpec(bazaar as unknown as Record<string, unknown>)).toMatchObject({
        valid: true,
      });
      expect(bazaar.info.input).toMatchObject({ type: 'mcp', toolName: name });
    }
  });

  it('lists each tool complete in the discovery manifest: its live accepts, tool name and transport', async () => {
    const manifest = (await (await fetch(`${app.url}/x402/.well-known/x402`)).json()) as {
      resources: Array<Record<string, unknown>>;
    };
    for (const [name, amount] of Object.entries(PRICES)) {
      const entry = manifest.resources.find((r) => r['toolName'] === name)!;
      expect(entry).toMatchObject({
        type: 'mcp',
        url: `${app.url}/mcp`,
        method: 'POST',
        transport: 'streamable-http',
        x402Version: 2,
      });
      expect(entry['accepts']).toEqual([
        expect.objectContaining({ scheme: 'exact', network: 'eip155:8453', asset: USDC, amount, payTo: chain.payTo }),
      ]);
    }
  });

  it('runs a paid Verify end to end: payer −fee, payee +fee, the result and the receipt in _meta', async () => {
    const wallet = payingMcpClient(mcp, chain.payer);
    const before = await chain.balances();
    const result = await wallet.callPaid('verify_native_usdc', { tx_hash: tx });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      network: 'base',
      tx_hash: tx.toLowerCase(),
      status: 'confirmed',
      transfers: [{ amount_atomic: '2500000' }],
    });
    expect((result.structuredContent as { transfers: Array<{ to: string }> }).transfers[0]!.to.toLowerCase()).toBe(
      receiver.toLowerCase(),
    );
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
    const receipt = (result._meta as Record<string, Record<string, unknown>>)['x402/payment-response'];
    expect(receipt).toMatchObject({
      success: true,
      network: 'eip155:8453',
      payer: chain.payer.address,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    const after = await chain.balances();
    expect(before.payer - after.payer).toBe(20_000n);
    expect(after.payTo - before.payTo).toBe(20_000n);

    // The same payment again is a replay: refused with the challenge, nothing charged.
    const replay = await wallet.call('verify_native_usdc', { tx_hash: tx }, wallet.payments[0]);
    expect(paymentRequiredOf(replay)?.error).toBe('payment_replayed');
    expect(await chain.balances()).toEqual(after);
  });

  it('lets exactly one of several concurrent calls with one payment through', async () => {
    const wallet = payingMcpClient(mcp, chain.payer);
    const payment = await wallet.sign('verify_native_usdc', { tx_hash: tx });
    const before = await chain.balances();
    const results = await Promise.all([1, 2, 3].map(() => wallet.call('verify_native_usdc', { tx_hash: tx }, payment)));
    expect(results.filter((r) => !r.isError)).toHaveLength(1);
    expect(results.filter((r) => paymentRequiredOf(r)?.error === 'payment_replayed')).toHaveLength(2);
    expect((await chain.balances()).payer).toBe(before.payer - 20_000n);
  });

  it('runs Match and returns the evidence PDF as an embedded resource with its SHA-256', async () => {
    const wallet = payingMcpClient(mcp, chain.payer);
    const before = await chain.balances();
    const match = await wallet.callPaid('match_native_usdc_payment', {
      tx_hash: tx,
      recipient: receiver,
      amount: '2.5',
    });
    expect(match.structuredContent).toMatchObject({
      matched: true,
      amount_usdc: '2.5',
      matching_transfers: [{ amount_atomic: '2500000' }],
    });

    const pdf = await wallet.callPaid('usdc_transfer_evidence_pdf', { tx_hash: tx, network: 'base' });
    expect(pdf.isError).toBeFalsy();
    const embedded = pdf.content.find((c) => c.type === 'resource')!;
    expect(embedded).toMatchObject({
      type: 'resource',
      resource: { mimeType: 'application/pdf', uri: expect.stringContaining('/x402/v1/usdc/evidence.pdf?tx_hash=') },
    });
    const bytes = Buffer.from((embedded as { resource: { blob: string } }).resource.blob, 'base64');
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(pdf.structuredContent).toMatchObject({ mime_type: 'application/pdf', size_bytes: bytes.length, sha256 });
    const json = (await readAttachments(new Uint8Array(bytes))).get('evidence.json')!;
    expect(JSON.parse(json.toString())).toMatchObject({ tx_hash: tx.toLowerCase(), status: 'confirmed' });
    expect((pdf.structuredContent as { evidence_sha256: string }).evidence_sha256).toBe(
      createHash('sha256').update(json).digest('hex'),
    );
    const after = await chain.balances();
    expect(before.payer - after.payer).toBe(80_000n);
  });

  it('runs the paid DNS/TLS audit of a domain (not a vulnerability scan), and charges nothing for a name that does not exist', async () => {
    const wallet = payingMcpClient(mcp, chain.payer);
    const before = await chain.balances();
    const result = await wallet.callPaid('domain_dns_tls_audit', { domain: 'Shop.Example.com.' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      domain: 'shop.example.com',
      not_a_vulnerability_scan: true,
      dns: { a: ['127.0.0.1'], spf: { records: ['v=spf1 -all'] } },
      tls: {
        address: '127.0.0.1',
        connected: true,
        chain_valid: true,
        hostname_match: true,
        hsts: { max_age: 31536000 },
      },
    });
    expect((result._meta as Record<string, { success: boolean }>)['x402/payment-response']!.success).toBe(true);
    const after = await chain.balances();
    expect(before.payer - after.payer).toBe(50_000n);

    const missing = await wallet.callPaid('domain_dns_tls_audit', { domain: 'missing.example.com' });
    expect(JSON.parse((missing.content[0] as { text: string }).text)).toMatchObject({
      code: 'domain_not_found',
      charged: false,
    });
    const literal = await wallet.call('domain_dns_tls_audit', { domain: '127.0.0.1' });
    expect(paymentRequiredOf(literal)).toBeNull();
    expect(JSON.parse((literal.content[0] as { text: string }).text)).toMatchObject({
      code: 'validation_failed',
      issues: [{ param: 'domain' }],
    });
    expect(await chain.balances()).toEqual(after);
  });

  it('keeps the result of a call whose settlement is undecided (the chain stops mining) for the same payment', async () => {
    // A second app on the same chain, waiting only briefly for settlements.
    const payments = createX402Payments({
      db: tdb.db,
      logger: logs.logger,
      payTo: chain.payTo,
      facilitator: chain.facilitator,
      authorizationState: chain.authorizationState,
      paymentTimeoutSeconds: 120,
      settlementWaitMs: 1_000,
    });
    const slow = await startTestApp({
      db: tdb.db,
      logger: logs.logger,
      chainReader: reader,
      payments,
      config: testConfig({ RATE_LIMIT_X402_PER_IP_PER_MINUTE: '10000' }),
    });
    const client = await connectMcp(slow.url);
    try {
      const wallet = payingMcpClient(client, chain.payer);
      const payment = await wallet.sign('verify_native_usdc', { tx_hash: tx });
      const before = await chain.balances();
      await chain.node.setAutomine(false);
      const first = await wallet.call('verify_native_usdc', { tx_hash: tx }, payment);
      expect(first.isError).toBe(true);
      expect(JSON.parse((first.content[0] as { text: string }).text)).toMatchObject({
        code: 'payment_settlement_uncertain',
        retry_after_seconds: 5,
      });
      await chain.node.mine(1);
      let again = await wallet.call('verify_native_usdc', { tx_hash: tx }, payment);
      for (let i = 0; again.isError && i < 300; i++) {
        expect(JSON.parse((again.content[0] as { text: string }).text)).toMatchObject({
          code: 'payment_settlement_uncertain',
        });
        await new Promise((r) => setTimeout(r, 100));
        again = await wallet.call('verify_native_usdc', { tx_hash: tx }, payment);
      }
      expect(again.isError).toBeFalsy();
      expect(again.structuredContent).toMatchObject({ tx_hash: tx.toLowerCase(), status: 'confirmed' });
      expect((again._meta as Record<string, { success: boolean }>)['x402/payment-response']!.success).toBe(true);
      expect((await chain.balances()).payer).toBe(before.payer - 20_000n);
      const replay = await wallet.call('verify_native_usdc', { tx_hash: tx }, payment);
      expect(paymentRequiredOf(replay)?.error).toBe('payment_replayed');
    } finally {
      await chain.node.setAutomine(true);
      await payments.calls?.idle();
      await client.close();
      await slow.close();
    }
  });

  it('charges nothing for a transaction that is not found, and refuses invalid arguments before asking for payment', async () => {
    const wallet = payingMcpClient(mcp, chain.payer);
    const before = await chain.balances();
    const missing = await wallet.callPaid('verify_native_usdc', { tx_hash: `0x${'12'.repeat(32)}` });
    expect(missing.isError).toBe(true);
    expect(JSON.parse((missing.content[0] as { text: string }).text)).toMatchObject({
      code: 'transaction_not_found',
      charged: false,
    });
    expect(wallet.payments).toHaveLength(1);

    const invalid = await wallet.call('verify_native_usdc', { tx_hash: '0x1234' });
    expect(invalid.isError).toBe(true);
    expect(paymentRequiredOf(invalid)).toBeNull();
    expect(JSON.parse((invalid.content[0] as { text: string }).text)).toMatchObject({
      code: 'validation_failed',
      issues: [{ param: 'tx_hash' }],
    });
    const unknown = await wallet.call('verify_native_usdc', { tx_hash: tx, private_key: 'x' });
    expect(JSON.parse((unknown.content[0] as { text: string }).text)).toMatchObject({
      code: 'validation_failed',
      issues: [{ param: 'private_key' }],
    });
    const garbage = await mcp.callTool({
      name: 'verify_native_usdc',
      arguments: { tx_hash: tx },
      _meta: { 'x402/payment': { hello: 'world' } },
    });
    expect(paymentRequiredOf(garbage as never)?.error).toBe('invalid_payment_payload');
    expect(await chain.balances()).toEqual(before);
    await expect(mcp.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });
});
