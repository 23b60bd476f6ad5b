import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { EVM } from '../../domain/networks.js';
import { walletsAdd } from '../../cli/merchant-commands.js';
import { createDashboardUser, DashboardClient } from '../helpers/dashboard.js';
import { startEvmNode, type EvmAccount, type EvmNode } from '../../support/evm-node.js';
import { watchBase } from '../helpers/evm-watcher.js';
import { ProofHarness, type TestMerchant } from '../helpers/proof.js';
import { until } from '../helpers/until.js';

/**
 * One receiving address receives for one account (docs/proof.md "Receiving wallets"; issue 28 item 1): whatever path
 * registers a wallet — the operator's `wallets:add`, the dashboard's signature challenge, the platform's own wallet —
 * an address another account receives on is refused, in every spelling of it (EVM: checksummed, lower or upper case;
 * Solana: base58 as is), and the database refuses a second receiving wallet at one (network, address). Open amounts and
 * matching are per (network, address). Against the real app, a real worker running the payment watcher on a local
 * Hardhat chain (chain id 8453, a USDC-like token at Base's USDC address), as a client and the operator would.
 */
const CONFIRMATIONS = 3;
const h = new ProofHarness();
let node: EvmNode;
let payer: EvmAccount;
let watcher: Awaited<ReturnType<typeof watchBase>> | undefined;

beforeAll(async () => {
  [node] = await Promise.all([startEvmNode({ chainId: 8453 }), h.start({}, { workflows: true })]);
  payer = node.accounts[1]!;
  await node.placeToken(EVM.base.usdc);
  await node.mint(EVM.base.usdc, payer.address, 1_000_000_000_000n);
  watcher = await watchBase(h, node, CONFIRMATIONS);
});
afterAll(async () => {
  await watcher?.stop();
  await node?.stop();
  await h.stop();
});

/** Every spelling of one EVM address the platform accepts: EIP-55, all lower case, all upper case. */
const spellings = (a: Address) => [getAddress(a), a.toLowerCase(), `0x${a.slice(2).toUpperCase()}`];

/** Pays `amount` from the payer to `to`, mines it final, and resolves once the watcher recorded the transfer. */
async function pay(amount: bigint, to: string): Promise<string> {
  const hash = await node.transfer(EVM.base.usdc, payer, to as Address, amount);
  await node.mine(CONFIRMATIONS);
  await until(
    `the transfer ${hash} to be seen`,
    async () => (await h.tdb.db('payment_evidence').where({ tx_hash: hash }).first()) ?? undefined,
  );
  return hash;
}

const createRequest = (m: TestMerchant, walletId: string, amount = '10.00') =>
  h.ok<{ id: string; amount_atomic: string; pay_to: string }>(
    h.call(m.key, 'POST', '/v1/requests', { wallet_id: walletId, amount_usdc: amount, description: 'Order 42' }),
    201,
  );
const statusOf = async (id: string) =>
  (await h.tdb.db('payment_requests').where({ id }).first('status')).status as string;
const eventsOf = async (merchantId: string) =>
  (await h.tdb.db('proof_events').where({ merchant_id: merchantId }).select('type')).map((e) => e.type as string);

async function json<T = Record<string, unknown>>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

describe('one receiving address, one account', () => {
  it('wallets:add refuses an address another merchant receives on, in any spelling; one transfer pays only the merchant that holds it', async () => {
    const a = await h.merchant({ plan: 'business', networks: [], webhook: true });
    const b = await h.merchant({ plan: 'business', networks: [], webhook: true });
    const shop = node.accounts[5]!.address;
    const { wallet } = await walletsAdd(
      h.tdb.db,
      { merchant: a.id, network: 'base', address: getAddress(shop) },
      new Date(),
    );
    for (const address of spellings(shop)) {
      await expect(
        walletsAdd(h.tdb.db, { merchant: b.id, network: 'base', address }, new Date()),
        address,
      ).rejects.toThrow(/another account/);
      // The merchant that holds it adds it again in another spelling: the same wallet, not a second one.
      expect((await walletsAdd(h.tdb.db, { merchant: a.id, network: 'base', address }, new Date())).wallet.id).toBe(
        wallet.id,
      );
    }
    expect(
      await h.tdb.db('merchant_wallets').whereRaw('lower(address) = ?', [shop.toLowerCase()]).select('merchant_id'),
    ).toEqual([{ merchant_id: a.id }]);
    // The database refuses a second receiving wallet at the address, whatever wrote it.
    await expect(
      h.tdb.db('merchant_wallets').insert({
        id: 'wal_SecondReceiver000001',
        merchant_id: b.id,
        network: 'base',
        address: shop.toLowerCase(),
        verified_at: new Date(),
      }),
    ).rejects.toThrow(/unique|duplicate/);

    // The defect as it was reproduced: A's and B's 10.00 requests both got 10.000001, and A's payer's transfer paid B's.
    const mine = await createRequest(a, wallet.id);
    expect((await h.ok<{ wallets: unknown[] }>(h.call(b.key, 'GET', '/v1/me'))).wallets).toEqual([]);
    const hash = await pay(BigInt(mine.amount_atomic), shop);
    await until("A's request to be paid", async () => ((await statusOf(mine.id)) === 'PAID' ? true : undefined));
    expect((await h.tdb.db('payment_evidence').where({ tx_hash: hash }).first()).request_id).toBe(mine.id);
    expect(await eventsOf(a.id)).toContain('payment.confirmed');
    expect(await eventsOf(b.id)).toEqual([]);
  });

  it("the dashboard's challenge and verification refuse an address another account receives on (409), in any spelling; Solana addresses are compared as they are", async () => {
    const holder = await h.merchant({ plan: 'business', networks: [] });
    const claimant = await h.merchant({ plan: 'business', networks: [] });
    const user = await createDashboardUser(h.tdb.db, claimant.id);
    const dash = new DashboardClient(h.app.url);
    expect((await dash.signIn(user.email, user.password)).status).toBe(201);
    const owner = privateKeyToAccount(generatePrivateKey());
    // A challenge taken before the address was claimed by the other account cannot be used after.
    const early = await json<{ id: string; message: string }>(
      await dash.request('POST', '/wallets/challenges', { network: 'base', address: owner.address.toLowerCase() }),
      201,
    );
    await walletsAdd(h.tdb.db, { merchant: holder.id, network: 'base', address: owner.address }, new Date());
    for (const address of spellings(owner.address)) {
      expect(
        (
          await json<{ code: string }>(
            await dash.request('POST', '/wallets/challenges', { network: 'base', address }),
            409,
          )
        ).code,
      ).toBe('conflict');
    }
    const late = await json<{ code: string }>(
      await dash.request('POST', '/wallets/verify', {
        challenge_id: early.id,
        signature: await owner.signMessage({ message: early.message }),
      }),
      409,
    );
    expect(late.code).toBe('conflict');
    // Solana: base58 is case-sensitive, so another spelling is another address; the same one is refused.
    const sol = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
    await walletsAdd(h.tdb.db, { merchant: holder.id, network: 'solana', address: sol }, new Date());
    await expect(
      walletsAdd(h.tdb.db, { merchant: claimant.id, network: 'solana', address: sol }, new Date()),
    ).rejects.toThrow(/another account/);
    expect(
      (
        await json<{ code: string }>(
          await dash.request('POST', '/wallets/challenges', { network: 'solana', address: sol }),
          409,
        )
      ).code,
    ).toBe('conflict');
  });

  it("the platform's receiving wallet is an address like any other: a merchant cannot take it, and purchases refuse an address a merchant holds", async () => {
    const platform = node.accounts[6]!.address;
    const taken = node.accounts[7]!.address;
    const app = await h.startApp({ PLATFORM_RECEIVING_WALLETS: `base:${platform}` });
    try {
      const buyer = await h.merchant({ networks: [] });
      const user = await createDashboardUser(h.tdb.db, buyer.id);
      const dash = new DashboardClient(app.url);
      expect((await dash.signIn(user.email, user.password)).status).toBe(201);
      await json(
        await dash.request('POST', '/plan/purchases', { plan: 'starter', network: 'base', payer: payer.address }),
        201,
      );
      await expect(
        walletsAdd(h.tdb.db, { merchant: buyer.id, network: 'base', address: platform.toLowerCase() }, new Date()),
      ).rejects.toThrow(/another account/);

      const holder = await h.merchant({ networks: [] });
      await walletsAdd(h.tdb.db, { merchant: holder.id, network: 'base', address: taken }, new Date());
      const misconfigured = await h.startApp({ PLATFORM_RECEIVING_WALLETS: `base:${taken}` });
      try {
        const d = new DashboardClient(misconfigured.url);
        expect((await d.signIn(user.email, user.password)).status).toBe(201);
        const refused = await json<{ code: string; error: string }>(
          await d.request('POST', '/plan/purchases', { plan: 'starter', network: 'base', payer: payer.address }),
          409,
        );
        expect(refused.code).toBe('purchase_unavailable');
      } finally {
        await misconfigured.close();
      }
    } finally {
      await app.close();
    }
  });

  it('an address two accounts shared before the rule: the migration holds and reports both, nothing there confirms, the operator releases one, and open amounts are per address', async () => {
    const migration = await import('../../db/migrations/20261127100200_add_receiving_address_uniqueness.js');
    const { walletsDuplicates, walletsRelease } = await import('../../cli/merchant-commands.js');
    const a = await h.merchant({ plan: 'business', networks: [], webhook: true });
    const b = await h.merchant({ plan: 'business', networks: [], webhook: true });
    const shared = node.accounts[8]!.address;
    const db = h.tdb.db;
    // The schema before the rule, and what the old wallets:add let through: one address, two accounts, two spellings,
    // each with an open 10.00 request that got the same amount.
    await migration.down(db);
    const old = new Date(Date.now() - 3_600_000);
    await db('merchant_wallets').insert([
      {
        id: 'wal_LegacySharedA0000001',
        merchant_id: a.id,
        network: 'base',
        address: getAddress(shared),
        verified_at: old,
        created_at: old,
      },
      {
        id: 'wal_LegacySharedB0000001',
        merchant_id: b.id,
        network: 'base',
        address: shared.toLowerCase(),
        verified_at: old,
        created_at: new Date(old.getTime() + 1000),
      },
    ]);
    const open = (id: string, merchant: string, wallet: string) => ({
      id,
      merchant_id: merchant,
      wallet_id: wallet,
      network: 'base',
      pay_to: shared,
      quoted_amount_atomic: '10000000',
      amount_atomic: '10000001',
      description: 'legacy',
      valid_hours: 72,
      status: 'AWAITING',
      expires_at: new Date(Date.now() + 72 * 3_600_000),
      created_at: old,
    });
    await db('payment_requests').insert([
      open('req_LegacySharedA0000001', a.id, 'wal_LegacySharedA0000001'),
      open('req_LegacySharedB0000001', b.id, 'wal_LegacySharedB0000001'),
    ]);
    const writes: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      writes.push(String(chunk));
      return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stderr.write;
    try {
      await migration.up(db);
    } finally {
      process.stderr.write = write;
    }

    // Reported, not resolved: both rows and their requests are kept, both wallets are on hold.
    const report = writes.join('');
    for (const text of [
      shared.toLowerCase(),
      a.id,
      b.id,
      'wal_LegacySharedA0000001',
      'wal_LegacySharedB0000001',
      'wallets:duplicates',
    ])
      expect(report).toContain(text);
    const listed = (await walletsDuplicates(db)).addresses.find(
      (g) => g.address.toLowerCase() === shared.toLowerCase(),
    );
    expect(listed?.wallets).toEqual([
      expect.objectContaining({
        wallet: 'wal_LegacySharedA0000001',
        merchant: a.id,
        reason: 'duplicate_address',
        open_requests: 1,
      }),
      expect.objectContaining({
        wallet: 'wal_LegacySharedB0000001',
        merchant: b.id,
        reason: 'duplicate_address',
        open_requests: 1,
      }),
    ]);
    expect(
      await db('payment_requests')
        .whereIn('id', ['req_LegacySharedA0000001', 'req_LegacySharedB0000001'])
        .pluck('status'),
    ).toEqual(['AWAITING', 'AWAITING']);
    // A wallet on hold receives nothing: it is not offered for requests, and a transfer to it pays no one.
    expect((await h.ok<{ wallets: unknown[] }>(h.call(a.key, 'GET', '/v1/me'))).wallets).toEqual([]);
    expect(
      (
        await h.call(a.key, 'POST', '/v1/requests', {
          wallet_id: 'wal_LegacySharedA0000001',
          amount_usdc: '10.00',
          description: 'Order 43',
        })
      ).status,
    ).toBe(404);
    const held = await pay(10_000_001n, shared);
    await until('the held transfer to be decided', async () =>
      (await db('payment_evidence').where({ tx_hash: held }).first())?.reason === 'address_held' ? true : undefined,
    );
    expect(
      await db('payment_requests')
        .whereIn('id', ['req_LegacySharedA0000001', 'req_LegacySharedB0000001'])
        .pluck('status'),
    ).toEqual(['AWAITING', 'AWAITING']);
    expect(
      (await walletsDuplicates(db)).addresses.find((g) => g.address.toLowerCase() === shared.toLowerCase())
        ?.unmatched_transfers,
    ).toBe(1);
    // A new account cannot take the address meanwhile.
    const c = await h.merchant({ networks: [] });
    await expect(walletsAdd(db, { merchant: c.id, network: 'base', address: shared }, new Date())).rejects.toThrow(
      /another account/,
    );

    // The operator found A controls it: A's wallet is released; B's cannot be while A's receives.
    expect((await walletsRelease(db, { wallet: 'wal_LegacySharedA0000001' })).wallet.heldReason).toBeNull();
    await expect(walletsRelease(db, { wallet: 'wal_LegacySharedB0000001' })).rejects.toThrow(
      /receives at this address already/,
    );
    // Open amounts are per address: B's open request at the address still holds 10.000001, so A's new 10.00 gets the next.
    const fresh = await createRequest(a, 'wal_LegacySharedA0000001');
    expect(fresh.amount_atomic).toBe('10000002');
    await pay(10_000_002n, shared);
    await until("A's new request to be paid", async () => ((await statusOf(fresh.id)) === 'PAID' ? true : undefined));
    // A payment of A's legacy amount now pays A's legacy request, never B's.
    await pay(10_000_001n, shared);
    await until("A's legacy request to be paid", async () =>
      (await statusOf('req_LegacySharedA0000001')) === 'PAID' ? true : undefined,
    );
    expect(await statusOf('req_LegacySharedB0000001')).toBe('AWAITING');
    expect(await eventsOf(b.id)).toEqual([]);
  });
});
