import { describe, expect, it } from 'vitest';
import { HttpRequestError, RpcRequestError, keccak256, toHex, type Hex } from 'viem';
import {
  SettlementNotBroadcastError,
  createSettlementSender,
  inProcessTurns,
  type SenderNode,
  type SendingTurns,
} from '../../../adapters/x402/settlement-sender.js';

const KEY = { chainId: 8453, address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' } as const;
const TX = { to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', data: '0xe3ee160e' } as const;

const refusal = (message: string) =>
  new RpcRequestError({ body: {}, error: { code: -32000, message }, url: 'http://node' });
const noAnswer = () => new HttpRequestError({ body: {}, url: 'http://node', details: 'socket hang up' });
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A node that mines each accepted transaction at once (as Hardhat's automine does): it takes exactly the key's next
 * nonce, answers "nonce too low" for a used one, and records every transaction it was sent. `lag` makes its pending
 * count trail the truth by that many transactions (a node behind a load balancer); `script` overrides the answers of
 * the next sends.
 */
function fakeNode(opts: { lag?: number } = {}) {
  let count = 0n;
  let salt = 0;
  const mined = new Map<Hex, bigint>();
  const script: Array<'no-answer' | 'no-answer-but-accepted' | { refuse: string }> = [];
  const stats = { sends: 0, nonceRefusals: 0 };
  const node: SenderNode = {
    key: KEY,
    async pendingNonce() {
      await tick();
      return count - BigInt(Math.min(opts.lag ?? 0, Number(count)));
    },
    async prepare(tx) {
      await tick();
      if (tx.data === '0xdead') throw new Error('execution reverted: estimateGas failed');
      const id = salt++;
      // The "serialized transaction": its nonce and a per-prepare salt, so each signature has its own hash.
      return async (nonce) => toHex(`${nonce}:${id}:${tx.data}`);
    },
    async sendRaw(raw) {
      stats.sends += 1;
      await tick();
      const nonce = BigInt(Buffer.from(raw.slice(2), 'hex').toString().split(':')[0]!);
      const hash = keccak256(raw);
      const scripted = script.shift();
      if (scripted === 'no-answer') throw noAnswer();
      if (scripted && typeof scripted === 'object') throw refusal(scripted.refuse);
      if (mined.has(hash)) throw refusal('already known');
      if (nonce < count) {
        stats.nonceRefusals += 1;
        throw refusal(`Nonce too low. Expected nonce to be ${count} but got ${nonce}.`);
      }
      if (nonce > count) throw refusal(`Nonce too high. Expected nonce to be ${count} but got ${nonce}.`);
      mined.set(hash, nonce);
      count += 1n;
      if (scripted === 'no-answer-but-accepted') throw noAnswer();
      return hash;
    },
    async knows(hash) {
      return mined.has(hash);
    },
  };
  return { node, mined, script, stats, count: () => count };
}

describe('settlement sender (adapters/x402/settlement-sender.ts)', () => {
  it('gives 10 concurrent settlements of one key 10 distinct nonces, none refused', async () => {
    const chain = fakeNode();
    const sender = createSettlementSender({ node: chain.node, turns: inProcessTurns() });
    const hashes = await Promise.all(Array.from({ length: 10 }, () => sender.send(TX)));
    expect(new Set(hashes).size).toBe(10);
    expect([...chain.mined.values()].sort((a, b) => Number(a - b))).toEqual([0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n]);
    expect(hashes.every((h) => chain.mined.has(h))).toBe(true);
    expect(chain.stats.nonceRefusals).toBe(0);
  });

  it('keeps two senders of one key (two processes) apart when they share turns; without them, a taken nonce is signed again', async () => {
    const shared = fakeNode();
    const turns = inProcessTurns();
    const a = createSettlementSender({ node: shared.node, turns });
    const b = createSettlementSender({ node: shared.node, turns });
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).send(TX)));
    expect(shared.count()).toBe(10n);
    expect(shared.stats.nonceRefusals).toBe(0);

    // Separate turns (e.g. the key also used by something else): one is refused for the taken nonce, signs again, is served.
    const apart = fakeNode();
    const c = createSettlementSender({ node: apart.node, turns: inProcessTurns() });
    const d = createSettlementSender({ node: apart.node, turns: inProcessTurns() });
    const hashes = await Promise.all([c.send(TX), d.send(TX)]);
    expect(apart.count()).toBe(2n);
    expect(hashes.every((h) => apart.mined.has(h))).toBe(true);
    expect(apart.stats.nonceRefusals).toBe(1);
  });

  it('uses the nonce its previous turn recorded over a pending count that lags behind', async () => {
    const chain = fakeNode({ lag: 1 });
    const sender = createSettlementSender({ node: chain.node, turns: inProcessTurns() });
    for (let i = 0; i < 4; i++) await sender.send(TX);
    expect(chain.count()).toBe(4n);
    expect(chain.stats.nonceRefusals).toBe(0);
  });

  it('reports a refusal by the node as not broadcast, records nothing, and the next settlement takes that nonce', async () => {
    const chain = fakeNode();
    const turns: SendingTurns & { used: Array<bigint | null> } = {
      used: [],
      async take(key, send) {
        const { value, used } = await send(null);
        this.used.push(used);
        return value;
      },
    };
    const sender = createSettlementSender({ node: chain.node, turns });
    chain.script.push({ refuse: "Sender doesn't have enough funds to send tx" });
    const refused = await sender.send(TX).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SettlementNotBroadcastError);
    expect((refused as Error).message).toContain('refused the settlement transaction');
    expect(turns.used).toEqual([]);
    expect(chain.count()).toBe(0n);
    await sender.send(TX);
    expect(turns.used).toEqual([0n]);
  });

  it('reports a transaction that could not be prepared (gas estimate reverted) as not broadcast, without a turn', async () => {
    const chain = fakeNode();
    let turnsTaken = 0;
    const turns: SendingTurns = { take: (key, send) => ((turnsTaken += 1), send(null).then((r) => r.value)) };
    const refused = await createSettlementSender({ node: chain.node, turns })
      .send({ ...TX, data: '0xdead' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SettlementNotBroadcastError);
    expect(turnsTaken).toBe(0);
    expect(chain.stats.sends).toBe(0);
  });

  it('sends the same signed bytes again when a broadcast got no answer, and takes "already known" or a landed transaction as sent', async () => {
    const chain = fakeNode();
    const sender = createSettlementSender({ node: chain.node, turns: inProcessTurns() });
    chain.script.push('no-answer');
    const first = await sender.send(TX);
    expect(chain.mined.get(first)).toBe(0n);
    expect(chain.stats.sends).toBe(2);

    // Accepted, answer lost; the re-send is refused for its (own) nonce: the node knows the hash, so it was sent.
    chain.script.push('no-answer-but-accepted');
    const second = await sender.send(TX);
    expect(chain.mined.get(second)).toBe(1n);
    expect(chain.count()).toBe(2n);
  });

  it('returns the hash of a transaction whose every broadcast went unanswered (it may be out: the receipt and the chain decide)', async () => {
    const chain = fakeNode();
    const used: Array<bigint | null> = [];
    const turns: SendingTurns = { take: (key, send) => send(null).then((r) => (used.push(r.used), r.value)) };
    chain.script.push('no-answer', 'no-answer', 'no-answer');
    const hash = await createSettlementSender({ node: chain.node, turns }).send(TX);
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(chain.stats.sends).toBe(3);
    expect(used).toEqual([null]);
  });
});
