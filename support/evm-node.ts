import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  publicActions,
  walletActions,
  toHex,
  type Abi,
  type Address,
  type Hash,
  type Hex,
} from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { compileContract } from './evm-contracts.js';
import { waitForOutput } from './child-output.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

const HARDHAT_MNEMONIC = 'test test test test test test test test test test test junk';

/** Multicall3's canonical address on every EVM chain. */
export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

export interface EvmAccount {
  address: Address;
  privateKey: Hex;
}

export interface EvmNode {
  url: string;
  chainId: number;
  /** Funded accounts of the node (Hardhat's default set). */
  accounts: EvmAccount[];
  usdcAbi: Abi;
  client: ReturnType<typeof makeClient>;
  /** Places the USDC-like token's runtime code at `address` (e.g. the canonical USDC address). */
  placeToken(address: Address): Promise<void>;
  mint(token: Address, to: Address, amount: bigint): Promise<Hash>;
  transfer(token: Address, from: EvmAccount, to: Address, amount: bigint): Promise<Hash>;
  batchTransfer(token: Address, from: EvmAccount, to: Address[], amounts: bigint[]): Promise<Hash>;
  balanceOf(token: Address, owner: Address): Promise<bigint>;
  mine(blocks: number): Promise<void>;
  setAutomine(on: boolean): Promise<void>;
  blockNumber(): Promise<bigint>;
  stop(): Promise<void>;
}

function makeClient(url: string, chainId: number) {
  const chain = defineChain({
    id: chainId,
    name: `hardhat-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
  return createTestClient({ mode: 'hardhat', chain, transport: http(url) })
    .extend(publicActions)
    .extend(walletActions);
}

/**
 * A real Hardhat Network JSON-RPC node (its own process) with the given chain id, Multicall3 at its canonical
 * address, and helpers to place the USDC-like EIP-3009 token anywhere and move it.
 */
export async function startEvmNode(opts: { chainId?: number } = {}): Promise<EvmNode> {
  const chainId = opts.chainId ?? 8453;
  // Port 0: the node binds a free port itself and prints it, so nothing can take the port between a probe and
  // the node's bind (a probed "free" port is only free until someone else binds it).
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--require',
      join(repoRoot, 'test/evm/parent-watchdog.cjs'),
      join(repoRoot, 'node_modules/hardhat/internal/cli/cli.js'),
      'node',
      '--config',
      join(repoRoot, 'test/evm/hardhat.config.cjs'),
      '--hostname',
      '127.0.0.1',
      '--port',
      '0',
    ],
    {
      cwd: join(repoRoot, 'test/evm'),
      env: { ...process.env, HARDHAT_CHAIN_ID: String(chainId), HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const started = /Started HTTP and WebSocket JSON-RPC server at (http:\/\/127\.0\.0\.1:\d+)\//;
  const { exited, output } = await waitForOutput(child, started, 'hardhat node').catch((e: unknown) => {
    child.kill('SIGTERM');
    throw e;
  });

  // Hardhat Network's funded accounts come from its well-known development mnemonic.
  const accounts: EvmAccount[] = Array.from({ length: 10 }, (_, addressIndex) => {
    const key = mnemonicToAccount(HARDHAT_MNEMONIC, { addressIndex }).getHdKey().privateKey!;
    const privateKey = toHex(key);
    return { address: privateKeyToAccount(privateKey).address, privateKey };
  });

  const url = started.exec(output())![1]!;
  const client = makeClient(url, chainId);
  const usdc = compileContract('UsdcLike');
  const multicall = compileContract('Multicall3Lite');
  await client.setCode({ address: MULTICALL3_ADDRESS, bytecode: multicall.deployedBytecode });
  const abi = usdc.abi as Abi;

  const send = async (from: EvmAccount, address: Address, functionName: string, args: unknown[]): Promise<Hash> => {
    const wallet = createWalletClient({
      account: privateKeyToAccount(from.privateKey),
      chain: client.chain,
      transport: http(url),
    });
    // gas is set explicitly so a transaction that will revert is still sent and mined (status 0).
    return wallet.writeContract({ address, abi, functionName, args, gas: 500_000n, chain: client.chain } as never);
  };

  return {
    url,
    chainId,
    accounts,
    usdcAbi: abi,
    client,
    placeToken: (address) => client.setCode({ address, bytecode: usdc.deployedBytecode }),
    mint: (token, to, amount) => send(accounts[0]!, token, 'mint', [to, amount]),
    transfer: (token, from, to, amount) => send(from, token, 'transfer', [to, amount]),
    batchTransfer: (token, from, to, amounts) => send(from, token, 'batchTransfer', [to, amounts]),
    balanceOf: async (token, owner) =>
      (await createPublicClient({ chain: client.chain, transport: http(url) }).readContract({
        address: token,
        abi,
        functionName: 'balanceOf',
        args: [owner],
      })) as bigint,
    mine: (blocks) => client.mine({ blocks }),
    setAutomine: (on) => client.setAutomine(on),
    blockNumber: () => client.getBlockNumber({ cacheTime: 0 }),
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
