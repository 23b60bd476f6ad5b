import { isEvmNetwork, type Network } from '../../domain/networks.js';
import type { ChainReader, TxEvidence } from './types.js';

/** One reader for all seven networks: EVM networks go to the EVM reader, solana to the Solana reader. */
export function createChainReader(readers: { evm: ChainReader; solana: ChainReader }): ChainReader {
  return {
    getEvidence(network: Network, txHash: string): Promise<TxEvidence> {
      return isEvmNetwork(network)
        ? readers.evm.getEvidence(network, txHash)
        : readers.solana.getEvidence(network, txHash);
    },
  };
}
