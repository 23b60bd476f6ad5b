import { NETWORKS } from '../../domain/networks.js';

/**
 * The paid routes of /x402: one table builds the 402 payment requirements (price, description, bazaar input
 * and output schemas) and the discovery document at /x402/.well-known/x402, so they cannot drift apart.
 */
export type PaidOperation = 'verify' | 'match' | 'evidence';

export interface PaidRoute {
  operation: PaidOperation;
  /** Path under /x402. */
  path: string;
  method: 'GET';
  /** Fee in atomic USDC (6 decimals), settled on Base. */
  priceAtomic: string;
  description: string;
  mimeType: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  /** A valid query of this route (bazaar `info.input.queryParams`): it passes the route's own validation. */
  inputExample: Record<string, string>;
  /** The answer to `inputExample` (bazaar `info.output.example`): valid against `outputSchema`. */
  outputExample: unknown;
}

const network = {
  type: 'string',
  enum: [...NETWORKS],
  default: 'base',
  description: 'Network to inspect; the fee always settles in native USDC on Base.',
};
const txHash = {
  type: 'string',
  minLength: 64,
  maxLength: 100,
  description:
    'EVM: 0x followed by 64 hex characters. Solana: base58 transaction signature (64 to 88 characters). Must fit the network.',
};
const recipient = {
  type: 'string',
  minLength: 32,
  maxLength: 44,
  description:
    'EVM: 0x followed by 40 hex characters (compared case-insensitively). Solana: base58 owner wallet, not a token account.',
};
const amount = {
  type: 'string',
  minLength: 1,
  maxLength: 24,
  pattern: '^[0-9]{1,17}(\\.[0-9]{1,6})?$',
  description:
    'Positive decimal USDC amount: 1 to 17 integer digits, optional 1 to 6 fraction digits; no sign, exponent or zero.',
};

const transfer = {
  type: 'object',
  required: ['from', 'to', 'amount_usdc', 'amount_atomic'],
  properties: {
    from: { type: 'string', description: 'Sender (EVM address; Solana owner wallet)' },
    to: { type: 'string', description: 'Recipient (EVM address; Solana owner wallet)' },
    amount_usdc: { type: 'string', description: 'Decimal USDC amount with six decimals' },
    amount_atomic: { type: 'string', pattern: '^[0-9]+$', description: 'Smallest unit (1 USDC = 1,000,000)' },
    log_index: { type: 'integer', description: 'EVM: log index of the Transfer event' },
    instruction_index: { type: 'integer', description: 'Solana: index of the (outer) instruction' },
  },
};

const common = {
  network: { type: 'string', enum: [...NETWORKS] },
  chain_id: { type: ['integer', 'string'] },
  tx_hash: { type: 'string' },
  asset: { type: 'string' },
  token_contract: { type: 'string' },
  status: {
    type: 'string',
    enum: ['confirmed', 'waiting_confirmations'],
    description: 'Check it before trusting a result',
  },
  confirmations: { type: ['integer', 'string'] },
  required_confirmations: { type: ['integer', 'string'] },
  block_number: { type: 'integer' },
  block_timestamp: { type: 'integer' },
  checked_at: { type: 'string', format: 'date-time' },
};

export const VERIFY_OUTPUT_SCHEMA = {
  type: 'object',
  required: ['network', 'tx_hash', 'status', 'checked_at', 'transfers'],
  properties: { ...common, transfers: { type: 'array', items: transfer } },
};

export const MATCH_OUTPUT_SCHEMA = {
  type: 'object',
  required: ['network', 'tx_hash', 'status', 'matched', 'recipient', 'amount_usdc', 'matching_transfers', 'checked_at'],
  properties: {
    ...common,
    matched: {
      type: 'boolean',
      description: 'True only when exactly one transfer matches and required finality is reached',
    },
    recipient: { type: 'string' },
    amount_usdc: { type: 'string' },
    matching_transfers: { type: 'array', items: transfer },
  },
};

/**
 * Examples of the discovery data (bazaar): one confirmed native USDC payment of 12.5 USDC on Base, as Verify and
 * Match answer it. Catalogs validate each example against its schema (test/unit/api/x402-route-table.test.ts).
 */
const EXAMPLE_TX = '0x9a1c6e0f3b5d27c84e6f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f';
const EXAMPLE_PAYER = '0x4b2a9c1d8e7f60534a2b1c0d9e8f7a6b5c4d3e2f';
const EXAMPLE_RECIPIENT = '0x7c3e5a91b2d4f6081a3c5e7092b4d6f8a0c2e4f6';
const exampleTransfer = {
  from: EXAMPLE_PAYER,
  to: EXAMPLE_RECIPIENT,
  amount_usdc: '12.500000',
  amount_atomic: '12500000',
  log_index: 7,
};
const exampleCommon = {
  network: 'base',
  chain_id: 8453,
  tx_hash: EXAMPLE_TX,
  asset: 'USDC',
  token_contract: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  status: 'confirmed',
  confirmations: 412,
  required_confirmations: 150,
  block_number: 32418977,
  block_timestamp: 1752141583,
  checked_at: '2025-07-10T10:14:05.000Z',
};
const VERIFY_EXAMPLE = { ...exampleCommon, transfers: [exampleTransfer] };
const MATCH_EXAMPLE = {
  ...exampleCommon,
  matched: true,
  recipient: EXAMPLE_RECIPIENT,
  amount_usdc: '12.5',
  matching_transfers: [exampleTransfer],
};

const query = (properties: Record<string, unknown>, required: string[]) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: true,
});

export const PAID_ROUTES: Readonly<Record<PaidOperation, PaidRoute>> = {
  verify: {
    operation: 'verify',
    path: '/v1/usdc/verify',
    method: 'GET',
    priceAtomic: '20000',
    description: 'Lists the native USDC transfers of a transaction and its confirmation status.',
    mimeType: 'application/json',
    inputSchema: query({ tx_hash: txHash, network }, ['tx_hash']),
    outputSchema: VERIFY_OUTPUT_SCHEMA,
    inputExample: { tx_hash: EXAMPLE_TX, network: 'base' },
    outputExample: VERIFY_EXAMPLE,
  },
  match: {
    operation: 'match',
    path: '/v1/usdc/match',
    method: 'GET',
    priceAtomic: '30000',
    description: 'Checks that exactly one finalized native USDC transfer pays the recipient exactly the amount.',
    mimeType: 'application/json',
    inputSchema: query({ tx_hash: txHash, recipient, amount, network }, ['tx_hash', 'recipient', 'amount']),
    outputSchema: MATCH_OUTPUT_SCHEMA,
    inputExample: { tx_hash: EXAMPLE_TX, recipient: EXAMPLE_RECIPIENT, amount: '12.5', network: 'base' },
    outputExample: MATCH_EXAMPLE,
  },
  evidence: {
    operation: 'evidence',
    path: '/v1/usdc/evidence.pdf',
    method: 'GET',
    priceAtomic: '50000',
    description: 'A PDF of the transfer evidence with the evidence JSON attached (evidence, not a tax invoice).',
    mimeType: 'application/pdf',
    inputSchema: query({ tx_hash: txHash, network }, ['tx_hash']),
    outputSchema: {
      type: 'string',
      contentMediaType: 'application/pdf',
      description: 'PDF document; the Verify JSON is attached as evidence.json',
    },
    inputExample: { tx_hash: EXAMPLE_TX, network: 'base' },
    // The body is binary: the example is its first line and what follows, in words.
    outputExample:
      '%PDF-1.7 (binary PDF document; the Verify JSON is attached as evidence.json, its SHA-256 is in X-Evidence-SHA256)',
  },
};
