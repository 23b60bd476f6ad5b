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
  description: 'EVM: 0x followed by 64 hex characters. Solana: base58 transaction signature (64 to 88 characters). Must fit the network.',
};
const recipient = {
  type: 'string',
  minLength: 32,
  maxLength: 44,
  description: 'EVM: 0x followed by 40 hex characters (compared case-insensitively). Solana: base58 owner wallet, not a token account.',
};
const amount = {
  type: 'string',
  minLength: 1,
  maxLength: 24,
  pattern: '^[0-9]{1,17}(\\.[0-9]{1,6})?$',
  description: 'Positive decimal USDC amount: 1 to 17 integer digits, optional 1 to 6 fraction digits; no sign, exponent or zero.',
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
  status: { type: 'string', enum: ['confirmed', 'waiting_confirmations'], description: 'Check it before trusting a result' },
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
    matched: { type: 'boolean', description: 'True only when exactly one transfer matches and required finality is reached' },
    recipient: { type: 'string' },
    amount_usdc: { type: 'string' },
    matching_transfers: { type: 'array', items: transfer },
  },
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
  },
  evidence: {
    operation: 'evidence',
    path: '/v1/usdc/evidence.pdf',
    method: 'GET',
    priceAtomic: '50000',
    description: 'A PDF of the transfer evidence with the evidence JSON attached (evidence, not a tax invoice).',
    mimeType: 'application/pdf',
    inputSchema: query({ tx_hash: txHash, network }, ['tx_hash']),
    outputSchema: { type: 'string', contentMediaType: 'application/pdf', description: 'PDF document; the Verify JSON is attached as evidence.json' },
  },
};
