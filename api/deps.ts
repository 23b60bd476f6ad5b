import type { Config } from '../config/schema.js';
import { createChainReader } from '../adapters/chains/index.js';
import { createEvmReader } from '../adapters/chains/evm/evm-reader.js';
import { createSolanaReader } from '../adapters/chains/solana/solana-reader.js';
import type { ChainReader } from '../adapters/chains/types.js';

/** Composition root of the API's adapters: chain readers for all seven networks from the validated config. */
export function buildChainReader(config: Pick<Config, 'chains'>): ChainReader {
  const c = config.chains;
  return createChainReader({
    evm: createEvmReader({ rpcUrls: c.rpcUrls, requiredConfirmations: c.requiredConfirmations, timeoutMs: c.rpcTimeoutMs, retries: c.rpcRetries }),
    solana: createSolanaReader({ endpoints: c.rpcUrls.solana, timeoutMs: c.rpcTimeoutMs, retries: c.rpcRetries }),
  });
}
