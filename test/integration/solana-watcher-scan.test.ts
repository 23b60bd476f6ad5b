import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWatcherActivities } from '../../activities/watcher.activities.js';
import type {
  SignatureCursor,
  SignatureInfo,
  SolanaTransferScanner,
} from '../../adapters/chains/solana/solana-transfer-scanner.js';
import { usdcTokenAccountOf } from '../../adapters/chains/solana/usdc-token-account.js';
import { ChainError } from '../../adapters/chains/types.js';
import type { ObservedTransfer } from '../../domain/proof/matching.js';
import { createMerchant } from '../../db/repositories/merchants.repo.js';
import { metricsGaugeSource } from '../../db/repositories/metrics-gauges.repo.js';
import { addVerifiedWallet } from '../../services/proof/account.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { ADDRESSES } from '../helpers/proof.js';
import { randomSignature } from '../helpers/solana-rpc.js';

/**
 * One Solana scan (activities/solana-watcher.activities.ts) on a real database with an in-memory chain: where an
 * account starts, the per-scan budget, and how an RPC failure on one account is contained.
 */
const A = '9fE6zKgca6K2EEa3yjbcq7zGMusUNqSQeWQNL2YDZ2Yi';
const B = ADDRESSES.solana;
const accountOf = (owner: string) => usdcTokenAccountOf(owner);

class FakeChain implements SolanaTransferScanner {
  finalized = 1000;
  readonly entries: Record<string, SignatureInfo[]> = {};
  readonly owners: Record<string, string> = {};
  readonly failingAccounts = new Set<string>();
  readonly failingTransactions = new Set<string>();
  readonly listings: Array<{ account: string; cursor: SignatureCursor }> = [];
  readonly reads: string[] = [];

  /** A successful transaction paying `owner` 1 atomic USDC (unmatched evidence) at `slot`. */
  land(owner: string, slot: number): string {
    const signature = randomSignature();
    (this.entries[accountOf(owner)] ??= []).push({ signature, slot, failed: false, blockTime: 1_800_000_000 });
    this.owners[signature] = owner;
    return signature;
  }
  async finalizedSlot() {
    return this.finalized;
  }
  tokenAccountOf(owner: string) {
    return accountOf(owner);
  }
  async newSignatures(account: string, cursor: SignatureCursor) {
    this.listings.push({ account, cursor });
    if (this.failingAccounts.has(account))
      throw new ChainError(
        'unavailable',
        'no Solana RPC endpoint answered getSignaturesForAddress (endpoint #1 attempt 1: HTTP 500)',
      );
    const all = this.entries[account] ?? [];
    const at = cursor.signature === null ? -1 : all.findIndex((e) => e.signature === cursor.signature);
    return all.filter((e, i) => (cursor.signature === null ? e.slot >= cursor.minSlot : i > at));
  }
  async transfersInto(entry: SignatureInfo, _account: string, owner: string): Promise<ObservedTransfer[]> {
    this.reads.push(entry.signature);
    if (this.failingTransactions.has(entry.signature)) throw new ChainError('unavailable', 'getTransaction timed out');
    return [
      {
        network: 'solana',
        txHash: entry.signature,
        logIndex: 0,
        from: 'FQT9SSwEZ6UUQxsmTzgt5JzjrS4M5zm13M1QiYF8TEo6',
        to: owner,
        amountAtomic: 1n,
        blockNumber: entry.slot,
        blockTime: new Date(1_800_000_000_000),
      },
    ];
  }
}

let tdb: TestDatabase;
let chain: FakeChain;
let scan: (limits?: {
  maxAccounts?: number;
  maxTransactions?: number;
}) => ReturnType<ReturnType<typeof createWatcherActivities>['scanNetwork']>;

beforeEach(async () => {
  tdb = await createTestDatabase();
  chain = new FakeChain();
  const merchant = await createMerchant(tdb.db, { name: 'Scan merchant', trial: true }, new Date());
  await addVerifiedWallet(tdb.db, { merchantId: merchant.id, network: 'solana', address: A }, new Date());
  await addVerifiedWallet(tdb.db, { merchantId: merchant.id, network: 'solana', address: B }, new Date());
  const activities = createWatcherActivities({ db: tdb.db, solana: chain });
  scan = (limits = {}) => activities.scanNetwork({ network: 'solana', maxBlocks: 500, ...limits });
});
afterEach(async () => {
  await tdb.drop();
});

const progress = async () => Number((await tdb.db('watcher_progress').where({ network: 'solana' }).first()).last_block);
const account = (owner: string) =>
  tdb
    .db('watcher_accounts')
    .where({ network: 'solana', account: accountOf(owner) })
    .first();
const evidence = async () =>
  (await tdb.db('payment_evidence').orderBy('id').select('tx_hash')).map((r: { tx_hash: string }) => r.tx_hash);

describe('a Solana scan', () => {
  it('the first scan starts at the finalized slot: older history is not read', async () => {
    chain.land(A, 900);
    const at = chain.land(A, 1000);
    const later = chain.land(A, 1010);
    const result = await scan();
    expect(chain.listings.map((l) => l.cursor)).toEqual([
      { signature: null, minSlot: 1000 },
      { signature: null, minSlot: 1000 },
    ]);
    expect(await evidence()).toEqual([at, later]);
    expect(result).toMatchObject({
      network: 'solana',
      finalHeight: 1000,
      recipients: 2,
      transfers: 2,
      signatures: 2,
      outcomes: { unmatched: 2 },
      caughtUp: true,
      accountErrors: [],
    });
    expect(await progress()).toBe(1000);
    expect(await account(A)).toMatchObject({
      owner: A,
      last_signature: later,
      last_slot: '1010',
      checked_slot: '1000',
    });
    expect(await account(B)).toMatchObject({ owner: B, last_signature: null, last_slot: '1000', checked_slot: '1000' });
  });

  it('reads at most maxTransactions per scan and goes on from the cursor', async () => {
    await scan();
    const sigs = [1001, 1002, 1003, 1004, 1005].map((slot) => chain.land(A, slot));
    chain.finalized = 1100;
    const first = await scan({ maxTransactions: 2 });
    expect(first).toMatchObject({ signatures: 2, caughtUp: false });
    expect(await account(A)).toMatchObject({ last_signature: sigs[1], checked_slot: '1000' });
    expect(await progress()).toBe(1000); // A is not complete up to 1100 yet
    await scan({ maxTransactions: 2 });
    const last = await scan({ maxTransactions: 2 });
    expect(last).toMatchObject({ signatures: 1, caughtUp: true });
    expect(await evidence()).toEqual(sigs);
    expect(chain.reads).toEqual(sigs); // each read once
    expect(await account(A)).toMatchObject({ last_signature: sigs[4], checked_slot: '1100' });
    expect(await progress()).toBe(1100);
  });

  it("the lag gauges read the Solana watcher's distance to the finalized slot, in slots, and since when it is behind", async () => {
    const lag = async () => (await metricsGaugeSource(tdb.db).watcherLag()).filter((r) => r.network === 'solana');
    expect(await lag()).toEqual([]); // never scanned: no figure rather than a made-up one
    await scan();
    const caughtUp = await lag();
    expect(caughtUp).toMatchObject([{ network: 'solana', blocks: 0 }]);
    expect(caughtUp[0]!.seconds).toEqual(expect.any(Number));
    [1001, 1002, 1003].forEach((slot) => chain.land(A, slot));
    chain.finalized = 1100;
    await scan({ maxTransactions: 2 }); // A is not complete up to 1100: the network's progress stays at 1000
    expect(await lag()).toMatchObject([{ network: 'solana', blocks: 100 }]);
    await scan();
    expect(await lag()).toMatchObject([{ network: 'solana', blocks: 0 }]);
  });

  it('an account whose RPC fails does not hold up the others; the network progress waits for it', async () => {
    await scan();
    chain.finalized = 1100;
    chain.failingAccounts.add(accountOf(A));
    const paid = chain.land(B, 1050);
    const result = await scan();
    expect(await evidence()).toEqual([paid]);
    expect(result.accountErrors).toEqual([
      `${accountOf(A)}: unavailable: no Solana RPC endpoint answered getSignaturesForAddress (endpoint #1 attempt 1: HTTP 500)`,
    ]);
    expect(result.caughtUp).toBe(true); // the workflow waits before trying again
    expect(await progress()).toBe(1000);
    chain.failingAccounts.clear();
    await scan();
    expect(await progress()).toBe(1100);
  });

  it('when every account read fails the scan fails, so Temporal retries it with backoff', async () => {
    await scan();
    chain.failingAccounts.add(accountOf(A));
    chain.failingAccounts.add(accountOf(B));
    await expect(scan()).rejects.toBeInstanceOf(ChainError);
  });

  it('a transaction that cannot be read stops its account there; what came before is kept and not read again', async () => {
    await scan();
    const [s0, s1, s2] = [1001, 1002, 1003].map((slot) => chain.land(A, slot));
    chain.failingTransactions.add(s1!);
    chain.finalized = 1100;
    const result = await scan();
    expect(result.accountErrors).toHaveLength(1);
    expect(await evidence()).toEqual([s0]);
    expect(await account(A)).toMatchObject({ last_signature: s0, checked_slot: '1000' });
    chain.failingTransactions.clear();
    await scan();
    expect(await evidence()).toEqual([s0, s1, s2]);
    expect(chain.reads).toEqual([s0, s1, s1, s2]);
    expect(await progress()).toBe(1100);
  });
});
