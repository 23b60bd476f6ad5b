import { randomBytes, randomInt } from 'node:crypto';
import type { Hash } from 'viem';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { loadConfig, type Config } from '../../config/schema.js';
import type { Progress } from '../../adapters/infra/progress.js';
import { createLogger } from '../../adapters/logging/logger.js';
import { createChainReader } from '../../adapters/chains/index.js';
import { createEvmReader } from '../../adapters/chains/evm/evm-reader.js';
import { createSolanaReader } from '../../adapters/chains/solana/solana-reader.js';
import { createFacilitator } from '../../adapters/x402/facilitator.js';
import { sendingTurnsIn } from '../../db/repositories/x402-sender-nonces.repo.js';
import { createAuthorizationStateReader } from '../../adapters/x402/authorization-state.js';
import { ensureInfrastructure, type Infrastructure } from '../../cli/infrastructure.js';
import type { Db } from '../../db/connection.js';
import { migrateLatest } from '../../db/migrate.js';
import { createX402Payments, serveApp } from './http-stack.js';
import { startX402Chain, USDC, type X402Chain } from '../../support/x402-harness.js';
import { openBenchDatabase } from './bench-db.js';
import { benchArgs, intOption, type RunLifecycle } from './lifecycle.js';
import { createPhaseRecorder, timedChainReader, timedFacilitator, type PhaseRecorder } from './x402-timing.js';
import { dbNow } from './x402-db.js';

/** Keeps the limiter in the path (one counter upsert per request) without ever refusing the benchmark. */
export const BENCH_RATE_LIMIT = '1000000000';

/** The options of the benchmarks on the paid app (bench/x402.ts, bench/mcp.ts). */
export interface PaidBenchOptions {
  /** Measured seconds of each throughput side. */
  duration: number;
  /** API processes (api/main.ts) for the extra scaling rows; 0 = none (bench/x402.ts only). */
  processes: number;
  /** Requests in flight in the throughput rows. */
  concurrency: number;
  /** Measured paid calls (per transport where there are two). */
  n: number;
}

/**
 * `--duration` (1..60, default 5), `--concurrency` (1..256, default 16) and `--n` (1..maxN, default 30); a bad
 * value is a usage error, `--help` prints `usage`.
 */
export function parsePaidBenchOptions(
  argv: string[],
  usage: string,
  maxN: number,
  withProcesses = false,
): PaidBenchOptions {
  const values = benchArgs(
    argv,
    withProcesses ? ['duration', 'concurrency', 'n', 'processes'] : ['duration', 'concurrency', 'n'],
    usage,
  );
  return {
    duration: intOption('--duration', values.duration, 5, 1, 60),
    processes: intOption('--processes', values.processes, 0, 0, 4),
    concurrency: intOption('--concurrency', values.concurrency, 16, 1, 256),
    n: intOption('--n', values.n, 30, 1, maxN),
  };
}

/** The real app with x402 payments on a local Base, as bench/x402.ts and bench/mcp.ts measure it. */
export interface X402BenchApp {
  config: Config;
  infra: Infrastructure;
  chain: X402Chain;
  db: Db;
  /** Which database the run uses, for the report. */
  database: string;
  /** The app's base URL (127.0.0.1, random port). */
  url: string;
  /** The database clock before the first request of the run (for x402RunStats / deleteX402RunRows). */
  since: Date;
  /** Confirmed USDC transfers never read before, one per call that should make a real chain read. */
  hashes: Hash[];
  /** The amount of each of those transfers (atomic USDC). */
  amount: bigint;
  /** Confirmations required on base (and mined after the transfers). */
  confirmations: number;
  /** Timing decorators around the facilitator client and the chain reader, and the reader's JSON-RPC calls. */
  rec: PhaseRecorder;
  /** Warning and error lines the app logged (info lines are produced, as in production, then dropped). */
  warnings(): { count: number; first: string[] };
  /** The environment the app's config was loaded from, and its database, for API processes of the same app. */
  appEnv: Record<string, string | undefined>;
  databaseUrl: string;
}

/** Starts PostgreSQL and the local Base chain side by side; whatever started is stopped at the end. */
async function startBackends(
  config: Config,
  progress: Progress,
  run: RunLifecycle,
): Promise<{ infra: Infrastructure; chain: X402Chain }> {
  // Only PostgreSQL is needed: an address that is never dialled keeps ensureInfrastructure from starting Temporal.
  const pgOnly: Config = {
    ...config,
    temporal: { ...config.temporal, address: config.temporal.address ?? 'unused-by-bench-x402:7233' },
  };
  const [infra, chain] = await Promise.allSettled([
    ensureInfrastructure(pgOnly, progress, { fsync: false }),
    startX402Chain(),
  ]);
  if (infra.status === 'fulfilled') run.defer('stop infrastructure', () => infra.value.stop());
  if (chain.status === 'fulfilled') run.defer('stop the Hardhat node', () => chain.value.node.stop());
  if (infra.status === 'rejected') throw infra.reason;
  if (chain.status === 'rejected') throw chain.reason;
  return { infra: infra.value, chain: chain.value };
}

/** Log sink of the app: lines are produced (as in production at LOG_LEVEL=info) but dropped; warnings are kept. */
function appLogSink() {
  const first: string[] = [];
  let count = 0;
  return {
    stream: {
      write(line: string) {
        const level = /"level":(\d+)/.exec(line)?.[1];
        if (level && Number(level) >= 40) {
          count++;
          if (first.length < 3) first.push(line.trim().slice(0, 400));
        }
      },
    },
    warnings: () => ({ count, first }),
  };
}

/**
 * PostgreSQL (a fresh migrated database) and a Hardhat node (Base, chain id 8453, EIP-3009 USDC at the canonical
 * address), `txCount` confirmed USDC transfers to inspect, and the real app (buildApp + listen on 127.0.0.1)
 * composed like api/deps.ts: the EVM reader on the local node for every EVM network, the self-hosted
 * facilitator, createAuthorizationStateReader and createX402Payments, with timing decorators around the
 * facilitator client and the chain reader. Everything is stopped by `run` at the end.
 */
export async function startX402BenchApp(
  opts: { name: string; txCount: number },
  progress: Progress,
  run: RunLifecycle,
): Promise<X402BenchApp> {
  const baseConfig = loadConfig(process.env);
  progress('starting PostgreSQL and a Hardhat node (Base, chain id 8453)');
  const { infra, chain } = await startBackends(baseConfig, progress, run);
  run.signal.throwIfAborted();

  // The app's configuration: every chain URL points at the local node (Solana at a closed port; never read).
  const rpc = chain.node.url;
  const appEnv: Record<string, string | undefined> = {
    ...process.env,
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: '',
    TRUST_PROXY: 'false',
    RATE_LIMIT_X402_PER_IP_PER_MINUTE: BENCH_RATE_LIMIT,
    RPC_URL_BASE: rpc,
    RPC_URL_POLYGON: rpc,
    RPC_URL_ARBITRUM: rpc,
    RPC_URL_OPTIMISM: rpc,
    RPC_URL_ETHEREUM: rpc,
    RPC_URL_AVALANCHE: rpc,
    RPC_URL_SOLANA: 'http://127.0.0.1:9',
    X402_PAY_TO: chain.payTo,
    X402_FACILITATOR: 'self',
    X402_FACILITATOR_PRIVATE_KEY: chain.facilitatorSigner.privateKey,
  };
  const config = loadConfig(appEnv);

  const runId = randomBytes(4).toString('hex');
  const {
    db,
    description,
    url: databaseUrl,
  } = await openBenchDatabase(infra, config, `tenant_${opts.name.replaceAll('-', '_')}_${runId}`, run);
  await migrateLatest(db);
  const since = await dbNow(db);

  // Each transaction is read for the first time by its call. A random amount per run makes the hashes unique
  // even on a reused DATABASE_URL.
  const [sender, receiver] = [chain.node.accounts[4]!, chain.node.accounts[5]!];
  const amount = 1_000_000n + BigInt(randomInt(1, 1_000_000));
  const confirmations = config.chains.requiredConfirmations.base;
  progress(`mining ${opts.txCount} USDC transfers and ${confirmations} blocks (the required confirmations on base)`);
  await chain.node.mint(USDC, sender.address, amount * BigInt(opts.txCount));
  const hashes: Hash[] = [];
  for (let i = 0; i < opts.txCount; i++) hashes.push(await chain.node.transfer(USDC, sender, receiver.address, amount));
  await chain.node.mine(confirmations);
  run.signal.throwIfAborted();

  const sink = appLogSink();
  const logger = createLogger({ level: config.logLevel, name: opts.name }, sink.stream);
  const rec = createPhaseRecorder();
  const c = config.chains;
  const reader = createChainReader({
    evm: createEvmReader({
      rpcUrls: c.rpcUrls,
      requiredConfirmations: c.requiredConfirmations,
      timeoutMs: c.rpcTimeoutMs,
      retries: c.rpcRetries,
      onRpcCall: (m) => rec.rpcCall(m),
    }),
    solana: createSolanaReader({ endpoints: c.rpcUrls.solana, timeoutMs: c.rpcTimeoutMs, retries: c.rpcRetries }),
  });
  const facilitator = createFacilitator(config.x402.facilitator, {
    baseRpcUrls: c.rpcUrls.base,
    sendingTurns: sendingTurnsIn(db),
  });
  if (!facilitator) throw new Error('the self-hosted facilitator was not configured');
  const payments = createX402Payments({
    db,
    logger,
    payTo: chain.payTo,
    facilitator: timedFacilitator(facilitator.client, rec),
    authorizationState: createAuthorizationStateReader({ rpcUrls: c.rpcUrls.base, timeoutMs: c.rpcTimeoutMs }),
    paymentTimeoutSeconds: config.x402.paymentTimeoutSeconds,
  });
  const url = await serveApp(run, {
    db,
    logger,
    config,
    chainReader: timedChainReader(reader, rec),
    payments,
    secretBox: createSecretBox(generateSecretsKey()),
  });
  return {
    config,
    infra,
    chain,
    db,
    database: description,
    url,
    since,
    hashes,
    amount,
    confirmations,
    rec,
    warnings: sink.warnings,
    appEnv,
    databaseUrl,
  };
}
