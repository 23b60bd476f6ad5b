import { EVM, EVM_NETWORKS, FEE_NETWORK, SOLANA, type EvmNetwork } from '../../domain/networks.js';
import { formatUsdc } from '../../domain/money.js';
import type { PaymentRequirements } from '@x402/core/types';
import { PAID_ROUTES, type PaidRoute } from './route-table.js';

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
    {
      network: 'solana',
      chain_id: SOLANA.chainId,
      caip2: SOLANA.caip2,
      usdc_mint: SOLANA.usdcMint,
      required_confirmations: 'finalized',
    },
  ];
}

/** The live `accepts` of a paid route's 402 challenge at `resourceUrl`; null when payments are not configured. */
export type AcceptsFor = (route: PaidRoute, resourceUrl: string) => Promise<PaymentRequirements[] | null>;

/**
 * One `resources` entry of the discovery manifest. The x402 discovery extension allows two kinds: a bare pointer
 * (`url`, optional `method` and `description`, nothing else) or a complete payment description; a partial one must
 * never be published. Other kinds (MCP tools: `type: "mcp"`, `url` of the MCP endpoint, `toolName`) are appended
 * by the caller through `extraResources`.
 */
export interface ManifestResource {
  url: string;
  method?: string;
  description?: string;
  [field: string]: unknown;
}

/** How long the manifest waits for the live challenge of a route before publishing a bare pointer instead. */
export const ACCEPTS_TIMEOUT_MS = 3_000;

const withTimeout = <T>(promise: Promise<T>, ms: number): Promise<T | null> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
};

/**
 * One manifest entry: complete (the live challenge's `accepts`, plus `extras` describing the call) when `accepts`
 * answers in time with requirements, else a bare pointer {url, method, description} (payments not configured,
 * facilitator unreachable or slower than `timeoutMs`): the spec forbids partial payment data.
 */
export async function manifestEntry(
  pointer: { url: string; method: string; description: string },
  complete: { mimeType: string; extras: Record<string, unknown> },
  accepts: (() => Promise<PaymentRequirements[] | null>) | undefined,
  timeoutMs = ACCEPTS_TIMEOUT_MS,
): Promise<ManifestResource> {
  const requirements = accepts ? await withTimeout(accepts(), timeoutMs).catch(() => null) : null;
  if (!requirements || requirements.length === 0) return pointer;
  // Extras (consumers ignore unknown fields): what the bazaar block of the 402 describes.
  return { ...pointer, mimeType: complete.mimeType, x402Version: 2, accepts: requirements, ...complete.extras };
}

/** The manifest entries of the paid routes (see manifestEntry). */
export async function paidRouteResources(
  origin: string,
  acceptsFor?: AcceptsFor,
  timeoutMs = ACCEPTS_TIMEOUT_MS,
): Promise<ManifestResource[]> {
  return Promise.all(
    Object.values(PAID_ROUTES).map((r) => {
      const url = `${origin}/x402${r.path}`;
      return manifestEntry(
        { url, method: r.method, description: r.description },
        {
          mimeType: r.mimeType,
          extras: { operation: r.operation, inputSchema: r.inputSchema, outputSchema: r.outputSchema },
        },
        acceptsFor && (() => acceptsFor(r, url)),
        timeoutMs,
      );
    }),
  );
}

/** The fee of each paid operation (an extra of the manifest, beside the entries). */
export function feesDocument(origin: string) {
  return Object.values(PAID_ROUTES).map((r) => ({
    url: `${origin}/x402${r.path}`,
    method: r.method,
    operation: r.operation,
    amount_atomic: r.priceAtomic,
    amount_usdc: formatUsdc(BigInt(r.priceAtomic)),
    asset: FEE_NETWORK.usdc,
    network: FEE_NETWORK.caip2,
  }));
}

/**
 * The `/.well-known/x402` manifest of the x402 discovery extension (specs/extensions/discovery.md in
 * x402-foundation/x402): `x402Version` (an integer, as in the 402 challenges), `kind`, `name`, `description`,
 * `resources`, `docs`, `updated`; then extras that consumers ignore (interface version, payment terms without
 * payee, the inspected networks, the fees).
 */
export function discoveryManifest(opts: {
  settings: X402Settings;
  origin: string;
  updated: Date;
  resources: readonly ManifestResource[];
}) {
  const { settings: s, origin } = opts;
  return {
    x402Version: 2,
    kind: 'resource-server',
    name: 'Native USDC transfer verification',
    description: 'Read-only inspection of native USDC transfers on seven networks, paid per call with x402 v2.',
    resources: opts.resources,
    docs: `${origin}/x402/docs`,
    updated: opts.updated.toISOString(),
    interface_version: '1.0.0',
    payments: {
      configured: paymentsConfigured(s),
      scheme: 'exact',
      network: FEE_NETWORK.caip2,
      asset: FEE_NETWORK.usdc,
      asset_name: 'USD Coin (native USDC on Base)',
    },
    networks: networksDocument(s),
    fees: feesDocument(origin),
  };
}

/**
 * The root `/.well-known/x402` in the shape x402scan's crawler reads (its registry's discovery, @agentcash/discovery,
 * and x402scan's own parser before it): `{version: 1, resources: [URL strings], instructions}`. Each resource is
 * the URL of a paid route with its example query (the bazaar `info.input.queryParams`), because the crawler probes
 * the URL as listed and a paid route checks its query before it asks for payment: the bare route URL would answer
 * 422, the listed one answers 402 with the challenge and its bazaar block. The full manifest (x402 discovery
 * extension, complete entries, the MCP tools) is at /x402/.well-known/x402, which `instructions` names.
 */
export function crawlerDocument(origin: string): { version: 1; resources: string[]; instructions: string } {
  return {
    version: 1,
    resources: Object.values(PAID_ROUTES).map(
      (r) => `${origin}/x402${r.path}?${new URLSearchParams(r.inputExample).toString()}`,
    ),
    instructions:
      'Read-only inspection of native USDC transfers on seven networks (verify, match, evidence PDF), paid per call with ' +
      'x402 v2: exact scheme, native USDC on Base (eip155:8453). Each resource is a GET; the query shown is an example ' +
      '(tx_hash, network, and for match recipient and amount). An unpaid request answers 402 with PAYMENT-REQUIRED; repeat ' +
      `it with PAYMENT-SIGNATURE. Full manifest with fees, schemas and the MCP tools (${origin}/mcp): ` +
      `${origin}/x402/.well-known/x402. Documentation: ${origin}/x402/docs`,
  };
}

export interface BuildManifestOptions {
  settings: X402Settings;
  /** The public origin: PUBLIC_BASE_URL when set (api/http/public-origin.ts). */
  origin: string;
  /** When the manifest last changed: it is generated from code and configuration, so the process start. */
  updated: Date;
  acceptsFor?: AcceptsFor | undefined;
  /** Entries appended after the paid routes (e.g. the MCP tools). */
  extraResources?: readonly ManifestResource[];
  acceptsTimeoutMs?: number;
}

/** The whole manifest: the paid routes' entries, then `extraResources`. */
export async function buildDiscoveryManifest(o: BuildManifestOptions) {
  const paid = await paidRouteResources(o.origin, o.acceptsFor, o.acceptsTimeoutMs);
  return discoveryManifest({
    settings: o.settings,
    origin: o.origin,
    updated: o.updated,
    resources: [...paid, ...(o.extraResources ?? [])],
  });
}

/** GET /x402/launch-status: what is live on this server; `mcpTools` are the paid tools of {base_url}/mcp. */
export function launchStatus(s: X402Settings, mcpTools: ReadonlyArray<{ name: string; priceAtomic: string }> = []) {
  const configured = paymentsConfigured(s);
  return {
    status: configured ? 'live' : 'payments_not_configured',
    interface_version: '1.0.0',
    x402_version: 2,
    paid_operations: Object.values(PAID_ROUTES).map((r) => ({ path: `/x402${r.path}`, price_atomic: r.priceAtomic })),
    payments: { configured, facilitator: s.facilitator, fee_network: FEE_NETWORK.caip2, fee_asset: FEE_NETWORK.usdc },
    networks: networksDocument(s).map((n) => n.network),
    document_processing: 'disabled',
    mcp: mcpTools.length
      ? {
          status: 'available',
          path: '/mcp',
          transport: 'streamable-http',
          x402_transport: 'mcp (tool-result binding)',
          tools: mcpTools.map((t) => ({ name: t.name, price_atomic: t.priceAtomic })),
        }
      : { status: 'not_available' },
  };
}
