import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import type { Address } from 'viem';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startEvmNode, type EvmNode } from '../../support/evm-node.js';
import { SOLANA_FIXTURES, loadSolanaFixture, startSolanaRpc, type SolanaRpcServer } from '../helpers/solana-rpc.js';
import { readAttachments } from '../helpers/pdf-attachments.js';
import { createEvidenceService, type EvidenceService } from '../../services/x402/evidence.js';
import { evidencePdfInput, matchJson, verifyJson } from '../../services/x402/responses.js';
import { renderEvidencePdf, EVIDENCE_STATEMENT } from '../../adapters/media/pdf/evidence-pdf.js';
import { createChainReader } from '../../adapters/chains/index.js';
import { createEvmReader } from '../../adapters/chains/evm/evm-reader.js';
import { createSolanaReader } from '../../adapters/chains/solana/solana-reader.js';
import { EVM, EVM_NETWORKS, type EvmNetwork } from '../../domain/networks.js';
import { DomainError } from '../../domain/errors.js';

const USDC = EVM.base.usdc;
let tdb: TestDatabase;
let node: EvmNode;
let sol: SolanaRpcServer;
let service: EvidenceService;
let rpcUp = true;

const urls = (url: string) => Object.fromEntries(EVM_NETWORKS.map((n) => [n, [url]])) as Record<EvmNetwork, string[]>;
const threeConfirmations = Object.fromEntries(EVM_NETWORKS.map((n) => [n, 3])) as Record<EvmNetwork, number>;

beforeAll(async () => {
  tdb = await createTestDatabase();
  node = await startEvmNode({ chainId: 8453 });
  await node.placeToken(USDC);
  sol = await startSolanaRpc({
    [SOLANA_FIXTURES.usdcTransferCreatesAta.signature]: {
      finalized: loadSolanaFixture(SOLANA_FIXTURES.usdcTransferCreatesAta.name),
    },
  });
  // Timeouts far above what the local node and replay server need on a busy machine (a read must not fail by load).
  const evm = createEvmReader({
    rpcUrls: urls(node.url),
    requiredConfirmations: threeConfirmations,
    timeoutMs: 30_000,
    retries: 0,
  });
  const down = createEvmReader({
    rpcUrls: urls('http://127.0.0.1:9'),
    requiredConfirmations: threeConfirmations,
    timeoutMs: 500,
    retries: 0,
  });
  const reader = createChainReader({
    evm: { getEvidence: (n, h) => (rpcUp ? evm : down).getEvidence(n, h) },
    solana: createSolanaReader({ endpoints: [sol.url], timeoutMs: 30_000, retries: 0 }),
  });
  service = createEvidenceService({ db: tdb.db, reader });
});
afterAll(async () => {
  await node?.stop();
  await sol?.close();
  await tdb?.drop();
});

describe('evidence on an EVM chain', () => {
  it('is read from the chain while waiting, stored once confirmed, then served from PostgreSQL even with the RPC down', async () => {
    const [payer, payee] = [node.accounts[1]!, node.accounts[2]!];
    await node.mint(USDC, payer.address, 10_000_000n);
    const hash = await node.transfer(USDC, payer, payee.address, 2_500_000n);

    const waiting = await service.getEvidence('base', hash);
    expect(waiting.evidence).toMatchObject({
      status: 'waiting_confirmations',
      confirmations: 1,
      requiredConfirmations: 3,
    });
    expect(await tdb.db('x402_evidence')).toHaveLength(0);

    await node.mine(2);
    const confirmed = await service.getEvidence('base', hash);
    expect(confirmed).toMatchObject({ stored: false, evidence: { status: 'confirmed', confirmations: 3 } });
    expect(await tdb.db('x402_evidence')).toHaveLength(1);

    rpcUp = false;
    try {
      const again = await service.getEvidence('base', hash.toUpperCase().replace('0X', '0x') as Address);
      expect(again.stored).toBe(true);
      expect(verifyJson(again)['transfers']).toEqual(verifyJson(confirmed)['transfers']);
      // A transaction that is not stored needs the chain: with the RPC down that is a 503, never a guess.
      const other = await node.transfer(USDC, payer, payee.address, 1n);
      await expect(service.getEvidence('base', other)).rejects.toMatchObject({ code: 'chain_unavailable' });
    } finally {
      rpcUp = true;
    }
  });

  it('renders Verify and Match exactly as specified', async () => {
    const [payer, a, b] = [node.accounts[3]!, node.accounts[4]!, node.accounts[5]!];
    await node.mint(USDC, payer.address, 100_000_000n);
    const hash = await node.batchTransfer(
      USDC,
      payer,
      [a.address, b.address, a.address],
      [1_000_000n, 1_000_000n, 2_000_000n],
    );
    const waiting = await service.getEvidence('base', hash);
    const verify = verifyJson(waiting);
    expect(verify).toMatchObject({
      network: 'base',
      chain_id: 8453,
      tx_hash: hash.toLowerCase(),
      asset: 'USDC',
      token_contract: USDC,
      status: 'waiting_confirmations',
      confirmations: 1,
      required_confirmations: 3,
    });
    expect(verify['transfers']).toEqual([
      {
        from: payer.address,
        to: a.address,
        amount_usdc: '1.000000',
        amount_atomic: '1000000',
        log_index: expect.any(Number),
      },
      {
        from: payer.address,
        to: b.address,
        amount_usdc: '1.000000',
        amount_atomic: '1000000',
        log_index: expect.any(Number),
      },
      {
        from: payer.address,
        to: a.address,
        amount_usdc: '2.000000',
        amount_atomic: '2000000',
        log_index: expect.any(Number),
      },
    ]);
    expect(typeof verify['checked_at']).toBe('string');
    // Exactly one transfer to A of 1 USDC, but not yet final: not matched.
    const m1 = matchJson(waiting, { recipient: a.address.toLowerCase(), amount: '1', amountAtomic: 1_000_000n });
    expect(m1).toMatchObject({
      matched: false,
      recipient: a.address.toLowerCase(),
      amount_usdc: '1',
      matching_transfers: [{ to: a.address }],
    });
    expect(m1).not.toHaveProperty('transfers');
    await node.mine(3);
    const final = await service.getEvidence('base', hash);
    expect(
      matchJson(final, {
        recipient: a.address.toUpperCase().replace('0X', '0x'),
        amount: '1.0',
        amountAtomic: 1_000_000n,
      })['matched'],
    ).toBe(true);
    expect(matchJson(final, { recipient: a.address, amount: '2', amountAtomic: 2_000_000n })['matched']).toBe(true);
    expect(matchJson(final, { recipient: a.address, amount: '3', amountAtomic: 3_000_000n })).toMatchObject({
      matched: false,
      matching_transfers: [],
    });
    expect(matchJson(final, { recipient: payer.address, amount: '1', amountAtomic: 1_000_000n })['matched']).toBe(
      false,
    );
    // Two transfers to the same recipient of the same amount: listed, but not a match.
    const dup = await node.batchTransfer(USDC, payer, [b.address, b.address], [5n, 5n]);
    await node.mine(3);
    const twice = matchJson(await service.getEvidence('base', dup), {
      recipient: b.address,
      amount: '0.000005',
      amountAtomic: 5n,
    });
    expect(twice).toMatchObject({ matched: false, status: 'confirmed' });
    expect(twice['matching_transfers']).toHaveLength(2);
  });

  it('maps chain refusals to 404, 422 and 503', async () => {
    await expect(service.getEvidence('base', `0x${'12'.repeat(32)}`)).rejects.toMatchObject({
      code: 'transaction_not_found',
    });
    const reverted = await node.transfer(USDC, node.accounts[7]!, node.accounts[8]!.address, 1_000_000_000n);
    const err = await service.getEvidence('base', reverted).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ code: 'transaction_failed' });
  });
});

describe('evidence PDF', () => {
  it('embeds the Verify JSON and prints its SHA-256, with every required field', async () => {
    const [payer, payee] = [node.accounts[6]!, node.accounts[2]!];
    await node.mint(USDC, payer.address, 3_000_000n);
    const hash = await node.transfer(USDC, payer, payee.address, 3_000_000n);
    await node.mine(5);
    const result = await service.getEvidence('base', hash);
    const input = evidencePdfInput(result);
    const { pdf, sha256 } = await renderEvidencePdf(input);
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
    const attachments = await readAttachments(pdf);
    const json = attachments.get('evidence.json')!;
    expect(json.equals(input.json)).toBe(true);
    expect(createHash('sha256').update(json).digest('hex')).toBe(sha256);
    expect(JSON.parse(json.toString())).toEqual(JSON.parse(JSON.stringify(verifyJson(result))));
    const doc = await PDFDocument.load(pdf);
    expect(doc.getTitle()).toContain(hash.toLowerCase());
    expect(doc.getPageCount()).toBe(1);
    expect(input).toMatchObject({
      network: 'base',
      status: 'confirmed',
      confirmations: '6',
      requiredConfirmations: '3',
      transfers: [{ amountUsdc: '3.000000' }],
    });
    expect(EVIDENCE_STATEMENT).toContain('not a tax invoice');
    // Same evidence, same bytes.
    expect(Buffer.from((await renderEvidencePdf(input)).pdf).equals(Buffer.from(pdf))).toBe(true);
  });
});

describe('evidence on Solana (recorded mainnet payload)', () => {
  it('reports the owner wallets, instruction index and finalized status', async () => {
    const r = await service.getEvidence('solana', SOLANA_FIXTURES.usdcTransferCreatesAta.signature);
    expect(verifyJson(r)).toMatchObject({
      network: 'solana',
      status: 'confirmed',
      confirmations: 'finalized',
      required_confirmations: 'finalized',
      token_contract: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      block_number: 339540943,
      block_timestamp: 1747059490,
      transfers: [
        {
          from: 'FQT9SSwEZ6UUQxsmTzgt5JzjrS4M5zm13M1QiYF8TEo6',
          to: '9fE6zKgca6K2EEa3yjbcq7zGMusUNqSQeWQNL2YDZ2Yi',
          amount_usdc: '1.000000',
          amount_atomic: '1000000',
          instruction_index: 2,
        },
      ],
    });
    expect(
      matchJson(r, {
        recipient: '9fE6zKgca6K2EEa3yjbcq7zGMusUNqSQeWQNL2YDZ2Yi',
        amount: '1',
        amountAtomic: 1_000_000n,
      })['matched'],
    ).toBe(true);
    await expect(service.getEvidence('solana', SOLANA_FIXTURES.failedSwap.signature)).rejects.toMatchObject({
      code: 'transaction_not_found',
    });
  });
});
