import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, http, parseSignature, toHex, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { USDC, signTransferAuthorization, startX402Chain, type X402Chain } from '../../support/x402-harness.js';
import { createX402Activities } from '../../activities/x402.activities.js';
import { createMetrics } from '../../adapters/metrics/metrics.js';
import {
  authorizationId,
  claimAuthorization,
  findPayment,
  transitionPayment,
} from '../../db/repositories/x402-payments.repo.js';

let tdb: TestDatabase;
let chain: X402Chain;

beforeAll(async () => {
  await Promise.all([createTestDatabase().then((d) => (tdb = d)), startX402Chain().then((c) => (chain = c))]);
});
afterAll(async () => {
  await chain?.node.stop();
  await tdb?.drop();
});

/** A real EIP-3009 authorization of the payer, signed with viem under the token's EIP-712 domain. */
async function authorize(value: bigint, validBefore: bigint) {
  const nonce = toHex(randomBytes(32)) as Hex;
  const message = { from: chain.payer.address, to: chain.payTo, value, validAfter: 0n, validBefore, nonce };
  const signature = await signTransferAuthorization(chain.payer, 8453, message);
  return { message, signature };
}

/** Records the authorization the way the payment gate does, then leaves it `uncertain`. */
async function recordUncertain(message: { from: Address; value: bigint; validBefore: bigint; nonce: Hex }) {
  const ref = { network: 'eip155:8453', asset: USDC, payer: message.from, nonce: message.nonce };
  await claimAuthorization(tdb.db, {
    ...ref,
    payTo: chain.payTo,
    amountAtomic: message.value.toString(),
    validBefore: new Date(Number(message.validBefore) * 1000),
    operation: 'verify',
    resource: 'http://127.0.0.1/x402/v1/usdc/verify',
    requestFingerprint: 'f'.repeat(64),
    payloadSha256: 'p'.repeat(64),
  });
  const id = authorizationId(ref);
  expect(await transitionPayment(tdb.db, id, ['verified'], 'settling')).toBe(true);
  expect(await transitionPayment(tdb.db, id, ['settling'], 'uncertain', { reason: 'facilitator timeout' })).toBe(true);
  return ref;
}

describe('maintenance reconciles open x402 settlements from the chain', () => {
  it('settles a paid one, fails an expired unused one, and leaves a still-valid unused one open', async () => {
    const future = BigInt(Math.floor(Date.now() / 1000) + 3600);
    const paid = await authorize(20_000n, future);
    const expired = await authorize(20_000n, BigInt(Math.floor(Date.now() / 1000) - 10));
    const pending = await authorize(20_000n, future);
    const refs = [
      await recordUncertain(paid.message),
      await recordUncertain(expired.message),
      await recordUncertain(pending.message),
    ];

    // The facilitator's settle did reach the chain for the first one: execute it as the facilitator would.
    const { v, r, s } = parseSignature(paid.signature);
    const wallet = createWalletClient({
      account: privateKeyToAccount(chain.facilitatorSigner.privateKey),
      chain: chain.node.client.chain,
      transport: http(chain.node.url),
    });
    const m = paid.message;
    const tx = await wallet.writeContract({
      address: USDC,
      abi: chain.node.usdcAbi,
      functionName: 'transferWithAuthorization',
      args: [m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce, Number(v), r, s],
      chain: chain.node.client.chain,
    });

    const metrics = createMetrics();
    const late = async () =>
      Object.fromEntries(
        ((await metrics.registry.getSingleMetric('paycore_x402_late_settlements_total')?.get())?.values ?? []).map(
          (v) => [`${v.labels['outcome']}/${v.labels['decided_by']}`, v.value],
        ),
      );
    const activities = createX402Activities({ db: tdb.db, authorizationState: chain.authorizationState, metrics });
    expect(await activities.reconcileX402Payments({ limit: 10 })).toEqual({
      settled: 1,
      failed: 1,
      open: 1,
      purgedAnswers: 0,
    });
    expect(await findPayment(tdb.db, refs[0]!)).toMatchObject({
      status: 'settled',
      transaction: tx,
      reason: 'reconciled_by_maintenance',
    });
    expect(await findPayment(tdb.db, refs[1]!)).toMatchObject({
      status: 'failed',
      reason: 'reconciled_by_maintenance:unused',
    });
    expect(await findPayment(tdb.db, refs[2]!)).toMatchObject({ status: 'uncertain' });
    // Each decision counted once as a late settlement decided by maintenance.
    expect(await late()).toEqual({ 'settled/maintenance': 1, 'failed/maintenance': 1 });
    // A second run changes nothing already decided, and counts nothing.
    expect(await activities.reconcileX402Payments({ limit: 10 })).toEqual({
      settled: 0,
      failed: 0,
      open: 1,
      purgedAnswers: 0,
    });
    expect(await late()).toEqual({ 'settled/maintenance': 1, 'failed/maintenance': 1 });
  });

  it('drops the kept answer of a settled call nobody came back for after 7 days, and keeps open ones', async () => {
    const keep = async (label: string, to: 'settled' | 'uncertain') => {
      const ref = {
        network: 'eip155:8453',
        asset: USDC,
        payer: chain.payer.address,
        nonce: `0x${label.repeat(64).slice(0, 64)}` as Hex,
      };
      await claimAuthorization(tdb.db, {
        ...ref,
        payTo: chain.payTo,
        amountAtomic: '20000',
        validBefore: new Date(Date.now() + 3_600_000),
        operation: 'verify',
        resource: 'http://127.0.0.1/x402/v1/usdc/verify',
        requestFingerprint: 'f'.repeat(64),
        payloadSha256: label.repeat(64).slice(0, 64),
      });
      const id = authorizationId(ref);
      const answer = {
        status: 200,
        contentType: 'application/json',
        headers: {},
        body: Buffer.from('{"status":"confirmed"}'),
      };
      expect(await transitionPayment(tdb.db, id, ['verified'], 'settling', { answer })).toBe(true);
      expect(await transitionPayment(tdb.db, id, ['settling'], to)).toBe(true);
      return ref;
    };
    const settled = await keep('a', 'settled');
    const open = await keep('b', 'uncertain');
    const at = (days: number) => () => new Date(Date.now() + days * 86_400_000);
    // No chain reader: only the purge runs. A day later nothing is old enough; eight days later the settled one is.
    expect(
      (
        await createX402Activities({ db: tdb.db, authorizationState: null, now: at(1) }).reconcileX402Payments({
          limit: 10,
        })
      ).purgedAnswers,
    ).toBe(0);
    expect(await findPayment(tdb.db, settled)).toMatchObject({ answerKept: true });
    expect(
      (
        await createX402Activities({ db: tdb.db, authorizationState: null, now: at(8) }).reconcileX402Payments({
          limit: 10,
        })
      ).purgedAnswers,
    ).toBe(1);
    expect(await findPayment(tdb.db, settled)).toMatchObject({ status: 'settled', answerKept: false });
    expect(await findPayment(tdb.db, open)).toMatchObject({ status: 'uncertain', answerKept: true });
  });

  it('does nothing without a Base RPC for x402', async () => {
    expect(
      await createX402Activities({ db: tdb.db, authorizationState: null }).reconcileX402Payments({ limit: 10 }),
    ).toEqual({ settled: 0, failed: 0, open: 0, purgedAnswers: 0 });
  });
});
