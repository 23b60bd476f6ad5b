import { PublicKey } from '@solana/web3.js';
import { SOLANA } from '../../../domain/networks.js';
import { TOKEN_PROGRAM_ID } from './decode.js';

export const ASSOCIATED_TOKEN_PROGRAM_ID = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';

const ataProgram = new PublicKey(ASSOCIATED_TOKEN_PROGRAM_ID);
const tokenProgram = new PublicKey(TOKEN_PROGRAM_ID);

/**
 * The associated token account of `owner` for native USDC (a program address of the Associated Token Account
 * program, seeds [owner, SPL Token program, mint]): where wallets and Solana Pay send USDC to a wallet. Native USDC
 * is an SPL Token (not Token-2022) mint. `owner` is a base58 address; an invalid one throws.
 */
export function usdcTokenAccountOf(owner: string, mint: string = SOLANA.usdcMint): string {
  const [account] = PublicKey.findProgramAddressSync(
    [new PublicKey(owner).toBuffer(), tokenProgram.toBuffer(), new PublicKey(mint).toBuffer()],
    ataProgram,
  );
  return account.toBase58();
}
