import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = dirname(fileURLToPath(import.meta.url));
const contractsDir = join(here, '..', 'test', 'evm', 'contracts');
const cacheDir = join(here, '..', 'var', 'solc-cache');

export interface CompiledContract {
  abi: unknown[];
  /** Runtime bytecode (what hardhat_setCode places at an address). */
  deployedBytecode: `0x${string}`;
}

/**
 * Compiles test/evm/contracts/<name>.sol with solc-js (cached under var/ by source hash, so only a changed
 * contract is recompiled).
 */
export function compileContract(name: 'UsdcLike' | 'Multicall3Lite'): CompiledContract {
  const source = readFileSync(join(contractsDir, `${name}.sol`), 'utf8');
  const require = createRequire(import.meta.url);
  const solc = require('solc') as { compile(input: string): string; version(): string };
  const key = createHash('sha256').update(solc.version()).update(source).digest('hex').slice(0, 16);
  const cached = join(cacheDir, `${name}-${key}.json`);
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8')) as CompiledContract;
  const input = {
    language: 'Solidity',
    sources: { [`${name}.sol`]: { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.deployedBytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { deployedBytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const c = output.contracts[`${name}.sol`]![name]!;
  const compiled: CompiledContract = { abi: c.abi, deployedBytecode: `0x${c.evm.deployedBytecode.object}` };
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(cached, JSON.stringify(compiled));
  return compiled;
}
