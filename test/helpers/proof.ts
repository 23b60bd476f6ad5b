import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Network } from '../../domain/networks.js';
import type { PaidPlan } from '../../domain/proof/plans.js';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { createSystemResolver } from '../../adapters/webhooks/http-delivery.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';
import { createMerchant, setMerchantPlan } from '../../db/repositories/merchants.repo.js';
import { addVerifiedWallet, issueMerchantKey } from '../../services/proof/account.js';
import { createEndpoint } from '../../db/repositories/webhooks.repo.js';
import { createTestDatabase, type TestDatabase } from './db.js';
import { startTestApp, testConfig } from './app.js';
import { capturingLogger } from './logs.js';
import type { startTestWorker } from './temporal.js';
import { PROOF_EVENT_TYPES } from '../../domain/proof/events.js';
import { base58Encode } from './solana-rpc.js';

type App = Awaited<ReturnType<typeof startTestApp>>;
type TestWorker = Awaited<ReturnType<typeof startTestWorker>>;
// Temporal helpers load only in tests that use them (they install the SDK runtime).
const temporalHelpers = () => import('./temporal.js');

export interface TestMerchant {
  id: string;
  key: string;
  readKey?: string;
  wallets: Record<string, string>;
  /** The receiving address of each wallet, by network. */
  addresses: Record<string, string>;
}

/** Addresses that are valid on their networks (the local tests never send to them). */
export const ADDRESSES: Readonly<Record<Network, string>> = {
  base: '0xa1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
  polygon: '0x2222222222222222222222222222222222222222',
  arbitrum: '0x3333333333333333333333333333333333333333',
  optimism: '0x4444444444444444444444444444444444444444',
  ethereum: '0x5555555555555555555555555555555555555555',
  avalanche: '0x6666666666666666666666666666666666666666',
  solana: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
};

/** The real app on a fresh database, with helpers to make merchants and call /proof/v1 as a client would. */
export class ProofHarness {
  readonly logs = capturingLogger();
  tdb!: TestDatabase;
  app!: App;
  /** Where this run's invoice documents are stored. */
  readonly storageDir = mkdtempSync(join(tmpdir(), 'proof-store-'));
  /** Shared by the apps and workers this harness starts (the API seals webhook secrets the worker opens). */
  readonly secretBox = createSecretBox(generateSecretsKey());
  /** This harness's own task queue, for the workers it starts (`start(env, { workflows: true })`). */
  readonly taskQueue = `test-proof-${randomBytes(4).toString('hex')}`;
  /** The app's workflow gateway on `taskQueue`; null unless started with `{ workflows: true }`. */
  gateway: WorkflowGateway | null = null;
  private readonly workers: TestWorker[] = [];

  async start(env: Record<string, string> = {}, opts: { workflows?: boolean } = {}): Promise<this> {
    this.tdb = await createTestDatabase();
    if (opts.workflows) this.gateway = await (await temporalHelpers()).testGateway(this.taskQueue);
    this.app = await this.startApp(env);
    return this;
  }

  /**
   * Another app instance on the same database (e.g. with other limits); it starts workflows through `gateway` unless
   * told otherwise. `now` is the app's clock (e.g. a fixed one, so a rate-limit window cannot end during a test).
   * The per-key and per-IP limits are lifted unless `env` sets them: a test about limits sets its own, and no other
   * test depends on how many calls this machine manages per minute.
   */
  startApp(
    env: Record<string, string> = {},
    opts: { workflows?: WorkflowGateway | null; now?: () => Date } = {},
  ): Promise<App> {
    return startTestApp({
      db: this.tdb.db,
      logger: this.logs.logger,
      config: testConfig({
        LOG_LEVEL: 'debug',
        STORAGE_DIR: this.storageDir,
        RATE_LIMIT_PROOF_PER_KEY_PER_MINUTE: '100000',
        RATE_LIMIT_PROOF_PER_IP_PER_MINUTE: '100000',
        ...env,
      }),
      workflows: opts.workflows === undefined ? this.gateway : opts.workflows,
      secretBox: this.secretBox,
      ...(opts.now ? { now: opts.now } : {}),
    });
  }

  /**
   * A real worker (default: on `taskQueue`) whose invoice mail deps are built from `env` (SMTP_URL, MAIL_FROM,
   * PUBLIC_BASE_URL, …) by workers/deps.ts, as a deployed worker builds them; it reads this harness's documents.
   */
  async startMailWorker(env: Record<string, string> = {}, opts: { taskQueue?: string } = {}): Promise<TestWorker> {
    const config = testConfig({ STORAGE_DIR: this.storageDir, ...env });
    const { buildMailDeps } = await import('../../workers/deps.js');
    const worker = await (
      await temporalHelpers()
    ).startTestWorker(opts.taskQueue ?? this.taskQueue, {
      db: this.tdb.db,
      logger: this.logs.logger,
      secretBox: this.secretBox,
      resolver: createSystemResolver(),
      allowLoopbackForTests: true,
      mail: buildMailDeps(config),
    });
    this.workers.push(worker);
    return worker;
  }

  async stop(): Promise<void> {
    // The app starts `invoice:<id>` for every invoice; they wait for payment or voiding, so end them here.
    if (this.gateway && this.tdb) {
      for (const { id } of await this.tdb.db('invoices').select('id')) {
        await this.gateway.client.workflow
          .getHandle(`invoice:${id}`)
          .terminate('test finished')
          .catch(() => undefined);
      }
    }
    for (const w of this.workers.splice(0)) await w.stop();
    await this.app?.close();
    await this.gateway?.close();
    await this.tdb?.drop();
  }

  /** Networks whose address of ADDRESSES a merchant of this harness received on already. */
  private readonly addressesGiven = new Set<Network>();

  /**
   * A receiving address for a new merchant: the network's address of ADDRESSES for the first merchant that asks, then
   * a fresh random one each (one address receives for one account, docs/proof.md "Receiving wallets").
   */
  receivingAddress(network: Network): string {
    if (!this.addressesGiven.has(network)) {
      this.addressesGiven.add(network);
      return ADDRESSES[network];
    }
    return randomAddress(network);
  }

  /** A merchant on a trial (default) or a paid plan, with verified wallets and a read/write key. */
  async merchant(
    opts: { plan?: PaidPlan; trial?: boolean; networks?: Network[]; webhook?: boolean; readKey?: boolean } = {},
  ): Promise<TestMerchant> {
    const now = new Date();
    const m = await createMerchant(
      this.tdb.db,
      { name: `Merchant ${randomBytes(3).toString('hex')}`, trial: opts.trial ?? !opts.plan },
      now,
    );
    if (opts.plan) await setMerchantPlan(this.tdb.db, m.id, opts.plan, new Date(now.getTime() + 30 * 86_400_000));
    const wallets: Record<string, string> = {};
    const addresses: Record<string, string> = {};
    for (const network of opts.networks ?? ['base']) {
      addresses[network] = this.receivingAddress(network);
      wallets[network] = (
        await addVerifiedWallet(this.tdb.db, { merchantId: m.id, network, address: addresses[network] }, now)
      ).id;
    }
    if (opts.webhook) await this.enableWebhook(m.id);
    const key = (
      await issueMerchantKey(
        this.tdb.db,
        { merchantId: m.id, name: 'server', scopes: ['read', 'write'], expiresAt: null },
        now,
      )
    ).secret;
    const out: TestMerchant = { id: m.id, key, wallets, addresses };
    if (opts.readKey)
      out.readKey = (
        await issueMerchantKey(
          this.tdb.db,
          { merchantId: m.id, name: 'reader', scopes: ['read'], expiresAt: null },
          now,
        )
      ).secret;
    return out;
  }

  /** An enabled /proof webhook endpoint: from now on the merchant's commits create events. */
  async enableWebhook(merchantId: string): Promise<string> {
    const endpoint = await createEndpoint(this.tdb.db, {
      interface: 'proof',
      tenantId: merchantId,
      url: 'https://hooks.example.com/proof',
      events: [...PROOF_EVENT_TYPES],
      secretSealed: this.secretBox.seal('whsec_test'),
    });
    return endpoint.id;
  }

  call(
    key: string | null,
    method: string,
    path: string,
    body?: unknown,
    idem: string | null = method === 'POST' ? newIdem() : null,
    app: App = this.app,
  ): Promise<Response> {
    return fetch(`${app.url}/proof${path}`, {
      method,
      headers: {
        ...(key ? { Authorization: `Bearer ${key}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(idem ? { 'Idempotency-Key': idem } : {}),
      },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
  }

  async ok<T = Record<string, unknown>>(res: Response | Promise<Response>, status = 200): Promise<T> {
    const r = await res;
    const text = await r.text();
    expect(r.status, text).toBe(status);
    return JSON.parse(text) as T;
  }
}

/** A random valid wallet address on `network` (EVM: lower-case hex; Solana: a base58 32-byte key). */
export function randomAddress(network: Network): string {
  return network === 'solana' ? base58Encode(randomBytes(32)) : `0x${randomBytes(20).toString('hex')}`;
}

/** A fresh Idempotency-Key in the /proof grammar (16 to 80 letters, digits, `_` and `-`). */
export const newIdem = () => `idem_${randomBytes(12).toString('hex')}`;
