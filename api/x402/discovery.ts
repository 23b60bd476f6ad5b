import { EVM, EVM_NETWORKS, FEE_NETWORK, SOLANA, type EvmNetwork } from '../../domain/networks.js';
import { formatUsdc } from '../../domain/money.js';
import { PAID_ROUTES } from './route-table.js';

export interface X402Settings {
  payTo: string | undefined;
  facilitator: 'remote' | 'self' | 'none';
  paymentTimeoutSeconds: number;
  requiredConfirmations: Readonly<Record<EvmNetwork, number>>;
}

export const paymentsConfigured = (s: X402Settings) => s.payTo !== undefined && s.facilitator !== 'none';

/** The seven inspected networks with their native USDC and finality rule. */
export function networksDocument(s: X402Settings) {
  return [
    ...EVM_NETWORKS.map((n) => ({
      network: n,
      chain_id: EVM[n].chainId,
      caip2: EVM[n].caip2,
      usdc_contract: EVM[n].usdc,
      required_confirmations: s.requiredConfirmations[n],
    })),
    { network: 'solana', chain_id: SOLANA.chainId, caip2: SOLANA.caip2, usdc_mint: SOLANA.usdcMint, required_confirmations: 'finalized' },
  ];
}

/**
 * GET /x402/.well-known/x402: every paid resource with its price, payment terms and input/output schemas,
 * generated from the same route table that builds the 402 requirements.
 */
export function wellKnownDocument(s: X402Settings, origin: string) {
  return {
    x402Version: 2,
    name: 'Native USDC transfer verification',
    description: 'Read-only inspection of native USDC transfers on seven networks, paid per call with x402 v2.',
    version: '1.0.0',
    docs: `${origin}/x402/docs`,
    payment: {
      scheme: 'exact',
      network: FEE_NETWORK.caip2,
      asset: FEE_NETWORK.usdc,
      asset_name: 'USD Coin (native USDC on Base)',
      pay_to: s.payTo ?? null,
      max_timeout_seconds: s.paymentTimeoutSeconds,
      configured: paymentsConfigured(s),
    },
    networks: networksDocument(s),
    resources: Object.values(PAID_ROUTES).map((r) => ({
      resource: `${origin}/x402${r.path}`,
      method: r.method,
      operation: r.operation,
      description: r.description,
      mime_type: r.mimeType,
      price: { amount_atomic: r.priceAtomic, amount_usdc: formatUsdc(BigInt(r.priceAtomic)), asset: FEE_NETWORK.usdc, network: FEE_NETWORK.caip2 },
      input: { type: 'http', method: r.method, query: r.inputSchema },
      output: r.outputSchema,
    })),
  };
}

/** GET /x402/launch-status: what is live on this server. */
export function launchStatus(s: X402Settings) {
  const configured = paymentsConfigured(s);
  return {
    status: configured ? 'live' : 'payments_not_configured',
    interface_version: '1.0.0',
    x402_version: 2,
    paid_operations: Object.values(PAID_ROUTES).map((r) => ({ path: `/x402${r.path}`, price_atomic: r.priceAtomic })),
    payments: { configured, facilitator: s.facilitator, fee_network: FEE_NETWORK.caip2, fee_asset: FEE_NETWORK.usdc },
    networks: networksDocument(s).map((n) => n.network),
    document_processing: 'disabled',
    mcp: 'not_available',
  };
}
