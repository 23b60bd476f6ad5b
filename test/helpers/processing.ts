import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, inject } from 'vitest';
import { createSecretBox, generateSecretsKey, type SecretBox } from '../../adapters/crypto/secret-box.js';
import { createSystemResolver } from '../../adapters/webhooks/http-delivery.js';
import { createFileOperationRunners } from '../../adapters/media/operation-runners.js';
import type { OperationRunners } from '../../adapters/media/runner-contract.js';
import type { SpeechWorkerDeps } from '../../activities/speech.activities.js';
import { createFileStore, type FileStore } from '../../adapters/storage/file-store.js';
import { connectWorkflowGateway, type WorkflowGateway } from '../../services/workflows/workflow-client.js';
import { startsInFlight } from '../../services/workflows/workflow-starts.js';
import { createCompany, issueCompanyKey } from '../../services/company/memberships.js';
import { createTestDatabase, type TestDatabase } from './db.js';
import { startTestApp, testConfig } from './app.js';
import { capturingLogger } from './logs.js';
import { startTestWorker, testGateway, uniqueTaskQueue } from './temporal.js';
import { startSmtpServer, type TestSmtpServer } from './smtp-server.js';
import type { JobRecord } from '../../services/processing/records.js';
import { reserveJobCredits } from '../../services/processing/credits.js';
import { newId } from '../../adapters/crypto/tokens.js';
import { insertJob } from '../../db/repositories/jobs.repo.js';

type App = Awaited<ReturnType<typeof startTestApp>>;
type TestWorker = Awaited<ReturnType<typeof startTestWorker>>;

export interface TestCompany {
  id: string;
  ownerId: string;
  /** read + write */
  key: string;
  readKey: string;
}

export type JobJson = JobRecord;

/**
 * The /v1 app, a real worker with the real file-operation runners (or wrapped ones), and one file store,
 * all on a fresh database and a task queue of their own.
 */
export class ProcessingHarness {
  readonly logs = capturingLogger();
  tdb!: TestDatabase;
  app!: App;
  store!: FileStore;
  storageDir!: string;
  gateway!: WorkflowGateway;
  /** The app's mail server: company invitations reach their invitees here. */
  smtp!: TestSmtpServer;
  taskQueue = uniqueTaskQueue('jobs');
  /** Shared with worker processes (SECRETS_KEY) so they open the passwords this app sealed. */
  readonly secretsKey = generateSecretsKey();
  readonly secretBox: SecretBox = createSecretBox(this.secretsKey);
  private workers: TestWorker[] = [];
  private workerCount = 0;

  /** Test-only waits between `/v1` webhook delivery attempts of the workers' job events (ms). */
  webhookDelaysMs: number[] | undefined;
  /** The speech engine of the workers this harness starts (none by default: speech jobs then fail). */
  speech: SpeechWorkerDeps | undefined;

  /** The Temporal server of the app and the workers: the run's, or one of the test's own (OwnTemporal). */
  private temporalAddress: string | undefined;

  /**
   * `temporalAddress`: a Temporal server of the test's own (test/helpers/own-temporal.ts); the app then connects to it
   * lazily, as the API does in production (api/run.ts), so it starts and answers while that server is down.
   */
  async start(
    opts: {
      runners?: OperationRunners;
      workers?: number;
      startWorkers?: boolean;
      webhookDelaysMs?: number[];
      speech?: SpeechWorkerDeps;
      temporalAddress?: string;
      config?: Record<string, string>;
    } = {},
  ): Promise<this> {
    this.webhookDelaysMs = opts.webhookDelaysMs;
    this.speech = opts.speech;
    this.temporalAddress = opts.temporalAddress;
    this.tdb = await createTestDatabase();
    this.storageDir = mkdtempSync(join(tmpdir(), 'jobs-store-'));
    this.store = createFileStore(this.storageDir);
    this.gateway = opts.temporalAddress
      ? await connectWorkflowGateway({
          address: opts.temporalAddress,
          namespace: inject('temporalNamespace'),
          taskQueue: this.taskQueue,
          lazy: true,
        })
      : await testGateway(this.taskQueue);
    this.smtp = await startSmtpServer();
    this.app = await startTestApp({
      db: this.tdb.db,
      logger: this.logs.logger,
      config: testConfig({ STORAGE_DIR: this.storageDir, LOG_LEVEL: 'debug', ...this.smtp.env, ...opts.config }),
      workflows: this.gateway,
      secretBox: this.secretBox,
    });
    if (opts.startWorkers !== false) {
      for (let i = 0; i < (opts.workers ?? 1); i++) await this.startWorker(opts.runners);
    }
    return this;
  }

  async startWorker(runners: OperationRunners = createFileOperationRunners()): Promise<TestWorker> {
    const worker = await startTestWorker(
      this.taskQueue,
      {
        db: this.tdb.db,
        logger: this.logs.logger,
        secretBox: this.secretBox,
        resolver: createSystemResolver(),
        allowLoopbackForTests: true,
        processing: {
          store: this.store,
          runners,
          ...(this.webhookDelaysMs ? { webhookDelaysMs: this.webhookDelaysMs } : {}),
          ...(this.speech ? { speech: this.speech } : {}),
        },
      },
      `test-worker-${++this.workerCount}@${process.pid}`,
      this.temporalAddress,
    );
    this.workers.push(worker);
    return worker;
  }

  /** Starts a worker when none runs, so a test that needs one does not depend on an earlier test having started it. */
  async ensureWorker(): Promise<void> {
    if (this.workers.length === 0) await this.startWorker();
  }

  async stopWorkers(): Promise<void> {
    const running = this.workers.splice(0);
    await Promise.all(running.map((w) => w.stop()));
  }

  async stop(): Promise<void> {
    await this.stopWorkers();
    await this.app?.close();
    await this.smtp?.close();
    await this.gateway?.close();
    await this.tdb?.drop();
  }

  async company(name: string): Promise<TestCompany> {
    const { company, owner } = await createCompany(this.tdb.db, {
      name,
      ownerEmail: `${name.toLowerCase().replace(/\W/g, '')}-${Math.random().toString(36).slice(2)}@example.com`,
    });
    const issue = async (scopes: Array<'read' | 'write'>) =>
      (await issueCompanyKey(this.tdb.db, { companyId: company.id, memberId: owner.id, name: 'k', scopes }, new Date()))
        .secret;
    return { id: company.id, ownerId: owner.id, key: await issue(['read', 'write']), readKey: await issue(['read']) };
  }

  /**
   * Files existing jobs of a company under a batch row (item order = the order given), as a batch submission would
   * have recorded them: for tests of lists and cancellation that need a batch id without running a batch.
   */
  async fileUnderBatch(companyId: string, batchId: string, jobIds: readonly string[]): Promise<void> {
    const first = await this.tdb.db('jobs').where({ id: jobIds[0] }).first('api_key_id', 'operation');
    await this.tdb.db('batches').insert({
      id: batchId,
      company_id: companyId,
      api_key_id: first.api_key_id,
      operation: first.operation,
      options: JSON.stringify({}),
      item_count: jobIds.length,
      quoted_credits: 0,
      status: 'processing',
    });
    for (const [i, id] of jobIds.entries())
      await this.tdb.db('jobs').where({ id }).update({ batch_id: batchId, item_index: i });
  }

  /**
   * Records `count` queued jobs of the company directly (1 credit reserved each, no workflow), as submissions would
   * have: for tests of the queue limit. Their ids are `job_` and `marker` repeated to 20 characters, then the index.
   */
  async recordQueuedJobs(
    companyId: string,
    count: number,
    job: { operation: string; uploadIds: string[]; options?: Record<string, unknown>; marker: string },
  ): Promise<void> {
    await this.tdb.db.transaction(async (trx) => {
      for (let i = 0; i < count; i++) {
        const id = `job_${String(i).padStart(20, job.marker)}`;
        const reservationId = newId('res');
        await reserveJobCredits(trx, companyId, [], [{ id: reservationId, jobId: id, amount: 1n }]);
        await insertJob(trx, {
          id,
          companyId,
          submitter: { apiKeyId: 'key_x' },
          operation: job.operation,
          uploadIds: job.uploadIds,
          options: job.options ?? {},
          secretSealed: null,
          quotedCredits: 1,
          reservationId,
          createdAt: new Date(),
        });
      }
    });
  }

  auth = (key: string) => ({ Authorization: `Bearer ${key}` });

  async upload(key: string, name: string, bytes: Buffer): Promise<string> {
    const f = new FormData();
    f.append('files', new Blob([new Uint8Array(bytes)]), name);
    const res = await fetch(`${this.app.url}/v1/uploads`, { method: 'POST', headers: this.auth(key), body: f });
    expect(res.status).toBe(201);
    return ((await res.json()) as { uploads: Array<{ id: string }> }).uploads[0]!.id;
  }

  /**
   * POST /v1/jobs. The API answers 202 at its commit and makes the workflow start while the answer is sent
   * (services/workflows/workflow-starts.ts, `answerFirst`); this resolves once that start has settled too, so a test
   * that inspects or terminates `job:<id>` finds it. `submission-answer-first.test.ts` checks the answer itself.
   */
  async submit(
    key: string,
    body: unknown,
    idempotencyKey: string | null = `idem-${Math.random().toString(36).slice(2)}`,
  ): Promise<Response> {
    return this.settled(
      fetch(`${this.app.url}/v1/jobs`, {
        method: 'POST',
        headers: {
          ...this.auth(key),
          'content-type': 'application/json',
          ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    );
  }

  /** `answer`, once the workflow starts the app left running after answering it have settled. */
  async settled(answer: Promise<Response>): Promise<Response> {
    const res = await answer;
    await startsInFlight(this.gateway);
    return res;
  }

  async submitOk(key: string, body: unknown): Promise<JobJson> {
    const res = await this.submit(key, body);
    const json = (await res.json()) as JobJson;
    expect(res.status, JSON.stringify(json)).toBe(202);
    return json;
  }

  async getJob(key: string, id: string): Promise<JobJson> {
    const res = await fetch(`${this.app.url}/v1/jobs/${id}`, { headers: this.auth(key) });
    expect(res.status).toBe(200);
    return (await res.json()) as JobJson;
  }

  /**
   * Waits until the job is terminal, then reads it through the API. The waiting watches the jobs table, so
   * tests with many jobs stay within the 120 requests per minute a key may make.
   */
  async waitForJob(key: string, id: string, timeoutMs = 120_000): Promise<JobJson> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const row = await this.tdb.db('jobs').where({ id }).first('status');
      if (row?.status === 'completed' || row?.status === 'failed' || row?.status === 'cancelled')
        return this.getJob(key, id);
      if (Date.now() > until) throw new Error(`job ${id} still ${row?.status} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  download(key: string, path: string): Promise<Response> {
    return fetch(`${this.app.url}${path}`, { headers: this.auth(key) });
  }

  async wallet(companyId: string): Promise<{ available: number; reserved: number }> {
    const row = await this.tdb.db('wallets').where({ company_id: companyId }).first();
    return { available: Number(row.available), reserved: Number(row.reserved) };
  }
}
