import type { Config } from '../config/schema.js';
import { createChainReader } from '../adapters/chains/index.js';
import { createEvmReader } from '../adapters/chains/evm/evm-reader.js';
import { createSolanaReader } from '../adapters/chains/solana/solana-reader.js';
import type { ChainReader } from '../adapters/chains/types.js';
import type { Logger } from '../adapters/logging/logger.js';
import { createFacilitator } from '../adapters/x402/facilitator.js';
import { createAuthorizationStateReader } from '../adapters/x402/authorization-state.js';
import type { PlatformMetrics } from '../adapters/metrics/metrics.js';
import type { Db } from '../db/connection.js';
import { sendingTurnsIn } from '../db/repositories/x402-sender-nonces.repo.js';
import { createX402Payments, type X402Payments } from './x402/payment.middleware.js';

/** Composition root of the API's adapters: chain readers for all seven networks from the validated config. */
export function buildChainReader(config: Pick<Config, 'chains'>): ChainReader {
  const c = config.chains;
  return createChainReader({
    evm: createEvmReader({
      rpcUrls: c.rpcUrls,
      requiredConfirmations: c.requiredConfirmations,
      timeoutMs: c.rpcTimeoutMs,
      retries: c.rpcRetries,
    }),
    solana: createSolanaReader({ endpoints: c.rpcUrls.solana, timeoutMs: c.rpcTimeoutMs, retries: c.rpcRetries }),
  });
}

/**
 * The x402 payment gate: a remote facilitator (X402_FACILITATOR_URL) or the self-hosted one settling through
 * RPC_URL_BASE (its transactions take turns in PostgreSQL, so API processes sharing its key never share a nonce). Null when no facilitator or payee is configured: paid routes then answer 503.
 */
export function buildPayments(
  config: Pick<Config, 'x402' | 'chains' | 'http'>,
  db: Db,
  logger: Logger,
  metrics?: PlatformMetrics,
): X402Payments | null {
  // Settlements of the self-hosted facilitator take turns in PostgreSQL: API processes share its key.
  const facilitator = createFacilitator(config.x402.facilitator, {
    baseRpcUrls: config.chains.rpcUrls.base,
    sendingTurns: sendingTurnsIn(db),
  });
  if (!facilitator || !config.x402.payTo) return null;
  return createX402Payments({
    db,
    logger,
    payTo: config.x402.payTo,
    facilitator: facilitator.client,
    authorizationState: createAuthorizationStateReader({
      rpcUrls: config.chains.rpcUrls.base,
      timeoutMs: config.chains.rpcTimeoutMs,
    }),
    paymentTimeoutSeconds: config.x402.paymentTimeoutSeconds,
    settlementWaitMs: config.x402.settlementWaitSeconds * 1000,
    metrics,
    ...(config.http.publicBaseUrl ? { publicBaseUrl: config.http.publicBaseUrl } : {}),
  });
}
