import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { WALLET_CHALLENGE_TTL_MS } from '../../domain/self-service.js';
import { addVerifiedWallet } from '../../services/proof/account.js';
import { createDashboardUser, DashboardClient } from '../helpers/dashboard.js';
import { newIdem, ProofHarness, type TestMerchant } from '../helpers/proof.js';
import { base58Encode } from '../helpers/solana-rpc.js';

/**
 * Wallet verification by signature (docs/proof.md "Wallet verification"), over HTTP against the real app and
 * PostgreSQL, with real keys: viem accounts sign EIP-191 messages, a generated ed25519 key pair signs for Solana.
 * The app's clock is injected (a challenge's expiry is crossed by moving it, not by waiting).
 */
const h = new ProofHarness();
let clock = new Date('2026-03-01T10:00:00.000Z');
let app: Awaited<ReturnType<ProofHarness['startApp']>>;

beforeAll(async () => {
  await h.start();
  app = await h.startApp({}, { now: () => clock });
});
afterAll(async () => {
  await app?.close();
  await h.stop();
});

interface Challenge {
  id: string;
  message: string;
  expires_at: string;
  network: string;
  address: string;
}

async function json<T = Record<string, unknown>>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/** A merchant (a trial that runs at the test clock) with a signed-in dashboard client. */
async function signedIn(): Promise<{ m: TestMerchant; dash: DashboardClient }> {
  const m = await h.merchant({ networks: [] });
  await h.tdb.db('merchants').where({ id: m.id }).update({ trial_started_at: clock });
  const u = await createDashboardUser(h.tdb.db, m.id);
  const dash = new DashboardClient(app.url);
  expect((await dash.signIn(u.email, u.password)).status).toBe(201);
  return { m, dash };
}

function solanaKeys(): { address: string; privateKey: KeyObject } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  return { address: base58Encode(raw), privateKey };
}
const solanaSign = (message: string, key: KeyObject) => base58Encode(sign(null, Buffer.from(message, 'utf8'), key));

/** A refusal in the /api/integrations error shape, with its code and the field it names. */
async function refused(res: Response, status: number, code: string, path?: string): Promise<void> {
  const body = await json<{ error: string; code: string; request_id: string; issues?: Array<{ path: string }> }>(
    res,
    status,
  );
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe('string');
  expect(body.request_id).toBeTruthy();
  if (path) expect(body.issues?.map((i) => i.path)).toContain(path);
}

describe('wallet verification by signature', () => {
  it('EVM: a personal_sign of the challenge verifies the wallet, which then receives payment requests; the challenge is single use', async () => {
    const { m, dash } = await signedIn();
    const account = privateKeyToAccount(generatePrivateKey());
    const challenge = await json<Challenge>(
      await dash.request('POST', '/wallets/challenges', { network: 'base', address: account.address, label: 'Main' }),
      201,
    );
    expect(challenge.message).toContain(account.address);
    expect(challenge.message).toContain(m.id);
    expect(challenge.message).toContain('Network: base');
    expect(new Date(challenge.expires_at).getTime()).toBe(clock.getTime() + WALLET_CHALLENGE_TTL_MS);

    const signature = await account.signMessage({ message: challenge.message });
    const wallet = await json<{ id: string; network: string; address: string; label: string; verified_at: string }>(
      await dash.request('POST', '/wallets/verify', { challenge_id: challenge.id, signature }),
      201,
    );
    expect(wallet).toMatchObject({
      network: 'base',
      address: account.address,
      label: 'Main',
      verified_at: clock.toISOString(),
    });
    expect(
      (await json<{ data: Array<{ id: string }> }>(await dash.request('GET', '/wallets'), 200)).data.map((w) => w.id),
    ).toEqual([wallet.id]);
    // It is a verified wallet now: /v1/me lists it and a payment request can be made to it.
    expect(
      (
        await h.ok<{ wallets: Array<{ id: string }> }>(h.call(m.key, 'GET', '/v1/me', undefined, null, app))
      ).wallets.map((w) => w.id),
    ).toEqual([wallet.id]);
    await h.ok(
      h.call(
        m.key,
        'POST',
        '/v1/requests',
        { wallet_id: wallet.id, amount_usdc: '5', description: 'To a wallet verified by signature' },
        undefined,
        app,
      ),
      201,
    );

    // Used once: the same signature again (under a new Idempotency-Key) is refused.
    await refused(
      await dash.request('POST', '/wallets/verify', { challenge_id: challenge.id, signature }),
      422,
      'challenge_invalid',
      'challenge_id',
    );
  });

  it('Solana: an ed25519 signature of the challenge by the wallet key verifies it', async () => {
    const { dash } = await signedIn();
    const keys = solanaKeys();
    const challenge = await json<Challenge>(
      await dash.request('POST', '/wallets/challenges', { network: 'solana', address: keys.address }),
      201,
    );
    const wallet = await json<{ address: string; network: string; label: null }>(
      await dash.request('POST', '/wallets/verify', {
        challenge_id: challenge.id,
        signature: solanaSign(challenge.message, keys.privateKey),
      }),
      201,
    );
    expect(wallet).toMatchObject({ network: 'solana', address: keys.address, label: null });
  });

  it("refuses a wrong key, a wrong message, an expired or used challenge, another merchant's challenge or wallet, and malformed signatures — never a 5xx", async () => {
    const { m, dash } = await signedIn();
    const owner = privateKeyToAccount(generatePrivateKey());
    const stranger = privateKeyToAccount(generatePrivateKey());
    const challenge = await json<Challenge>(
      await dash.request('POST', '/wallets/challenges', { network: 'base', address: owner.address }),
      201,
    );

    // Wrong key: another account signed the right message.
    await refused(
      await dash.request('POST', '/wallets/verify', {
        challenge_id: challenge.id,
        signature: await stranger.signMessage({ message: challenge.message }),
      }),
      422,
      'signature_invalid',
      'signature',
    );
    // Wrong message: the right key signed something else (an older challenge's text, here with another nonce).
    await refused(
      await dash.request('POST', '/wallets/verify', {
        challenge_id: challenge.id,
        signature: await owner.signMessage({ message: challenge.message.replace(/Nonce: .*/, 'Nonce: x') }),
      }),
      422,
      'signature_invalid',
      'signature',
    );
    // Malformed signatures, EVM and Solana shapes, and bodies.
    for (const signature of [
      '0x',
      '0x1234',
      `0x${'zz'.repeat(65)}`,
      `0x${'00'.repeat(65)}`,
      `0x${'ff'.repeat(65)}`,
      'not a signature',
      base58Encode(Buffer.alloc(64, 7)),
    ]) {
      await refused(
        await dash.request('POST', '/wallets/verify', { challenge_id: challenge.id, signature }),
        422,
        'signature_invalid',
        'signature',
      );
    }
    for (const body of [
      {},
      { challenge_id: challenge.id },
      { challenge_id: 'wch_x', signature: '0x' },
      { challenge_id: challenge.id, signature: 12 },
      { challenge_id: challenge.id, signature: 'a'.repeat(201) },
      { challenge_id: challenge.id, signature: '0x', extra: 1 },
    ]) {
      await refused(await dash.request('POST', '/wallets/verify', body), 422, 'validation_failed');
    }
    // Failed attempts did not use it up: the owner's signature still verifies.
    const good = await owner.signMessage({ message: challenge.message });
    await json(await dash.request('POST', '/wallets/verify', { challenge_id: challenge.id, signature: good }), 201);

    // Another merchant's challenge is not found for this one, with a valid signature of its wallet.
    const other = await signedIn();
    const otherOwner = privateKeyToAccount(generatePrivateKey());
    const foreign = await json<Challenge>(
      await other.dash.request('POST', '/wallets/challenges', { network: 'base', address: otherOwner.address }),
      201,
    );
    await refused(
      await dash.request('POST', '/wallets/verify', {
        challenge_id: foreign.id,
        signature: await otherOwner.signMessage({ message: foreign.message }),
      }),
      422,
      'challenge_invalid',
      'challenge_id',
    );
    // A wallet another merchant verified already cannot be claimed by this one (one wallet receives for one account).
    const taken = privateKeyToAccount(generatePrivateKey());
    await addVerifiedWallet(h.tdb.db, { merchantId: other.m.id, network: 'base', address: taken.address }, clock);
    await refused(
      await dash.request('POST', '/wallets/challenges', { network: 'base', address: taken.address.toLowerCase() }),
      409,
      'conflict',
    );

    // Expired: the clock moves past the challenge's expiry.
    const late = await json<Challenge>(
      await dash.request('POST', '/wallets/challenges', { network: 'base', address: stranger.address }),
      201,
    );
    const signature = await stranger.signMessage({ message: late.message });
    clock = new Date(clock.getTime() + WALLET_CHALLENGE_TTL_MS);
    try {
      await refused(
        await dash.request('POST', '/wallets/verify', { challenge_id: late.id, signature }),
        422,
        'challenge_invalid',
        'challenge_id',
      );
    } finally {
      clock = new Date(clock.getTime() - WALLET_CHALLENGE_TTL_MS);
    }
    // Solana: a signature by another key, and one of the wrong length.
    const sol = solanaKeys();
    const solChallenge = await json<Challenge>(
      await dash.request('POST', '/wallets/challenges', { network: 'solana', address: sol.address }),
      201,
    );
    await refused(
      await dash.request('POST', '/wallets/verify', {
        challenge_id: solChallenge.id,
        signature: solanaSign(solChallenge.message, solanaKeys().privateKey),
      }),
      422,
      'signature_invalid',
      'signature',
    );
    await refused(
      await dash.request('POST', '/wallets/verify', {
        challenge_id: solChallenge.id,
        signature: base58Encode(Buffer.alloc(63, 9)),
      }),
      422,
      'signature_invalid',
      'signature',
    );
    await refused(
      await dash.request('POST', '/wallets/verify', {
        challenge_id: solChallenge.id,
        signature: await owner.signMessage({ message: solChallenge.message }),
      }),
      422,
      'signature_invalid',
      'signature',
    );

    // Challenge bodies: an address of the wrong network, the zero address, a mistyped checksum, an unknown network.
    for (const body of [
      { network: 'base', address: sol.address },
      { network: 'solana', address: owner.address },
      { network: 'base', address: `0x${'0'.repeat(40)}` },
      {
        network: 'base',
        address: owner.address.replace(/[a-fA-F]/, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())),
      },
      { network: 'bitcoin', address: owner.address },
      { network: 'base', address: owner.address, private_key: generatePrivateKey() },
    ]) {
      await refused(await dash.request('POST', '/wallets/challenges', body), 422, 'validation_failed');
    }
    // Nothing was verified for this merchant but the one good signature; no 5xx was logged.
    expect(
      (await h.ok<{ wallets: unknown[] }>(h.call(m.key, 'GET', '/v1/me', undefined, null, app))).wallets,
    ).toHaveLength(1);
    expect(h.logs.text()).not.toMatch(/"level":(50|60)/);
  });

  it('the routes keep the session guards: no session → 403 session_required; a mutation without the CSRF token → 403 csrf_failed', async () => {
    const { dash } = await signedIn();
    const account = privateKeyToAccount(generatePrivateKey());
    await refused(
      await dash.request(
        'POST',
        '/wallets/challenges',
        { network: 'base', address: account.address },
        { cookie: null, csrf: null },
      ),
      403,
      'session_required',
    );
    await refused(
      await dash.request('POST', '/wallets/challenges', { network: 'base', address: account.address }, { csrf: null }),
      403,
      'csrf_failed',
    );
    await refused(
      await dash.request('POST', '/wallets/challenges', { network: 'base', address: account.address }, { idem: null }),
      422,
      'idempotency_key_required',
    );
    // A replay answers the same challenge (the same message), not a new one.
    const idem = newIdem();
    const a = await json<Challenge>(
      await dash.request('POST', '/wallets/challenges', { network: 'base', address: account.address }, { idem }),
      201,
    );
    const b = await json<Challenge>(
      await dash.request('POST', '/wallets/challenges', { network: 'base', address: account.address }, { idem }),
      201,
    );
    expect(b).toEqual(a);
  });
});
