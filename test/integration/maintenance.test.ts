import { createMerchant } from '../../db/repositories/merchants.repo.js';
import { createDashboardUser } from '../../services/proof/account.js';
import { createSession, endSession } from '../../db/repositories/merchant-sessions.repo.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { capturingLogger } from '../helpers/logs.js';
import { startTestWorker, testGateway, uniqueTaskQueue, deleteRunSchedules } from '../helpers/temporal.js';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { createSystemResolver } from '../../adapters/webhooks/http-delivery.js';
import { takeRateLimitHits } from '../../db/repositories/rate-limits.repo.js';
import { createDelivery, createEndpoint, getDelivery } from '../../db/repositories/webhooks.repo.js';
import { startReceiver } from '../helpers/receiver.js';
import { ensureSchedules } from '../../workers/schedules.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';

let tdb: TestDatabase;
let gw: WorkflowGateway;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
let taskQueue: string;
const secretsKey = generateSecretsKey();

beforeAll(async () => {
  tdb = await createTestDatabase();
  taskQueue = uniqueTaskQueue('maint');
  worker = await startTestWorker(taskQueue, {
    db: tdb.db,
    logger: capturingLogger().logger,
    secretBox: createSecretBox(secretsKey),
    resolver: createSystemResolver(),
    allowLoopbackForTests: true,
  });
  gw = await testGateway(taskQueue);
});
afterAll(async () => {
  await deleteRunSchedules(gw, taskQueue);
  await worker?.stop();
  await gw?.close();
  await tdb?.drop();
});

describe('maintenance', () => {
  it('purges ended rate-limit windows, expired /v1 idempotency keys and ended dashboard sessions, keeping /proof keys forever', async () => {
    const rule = { name: 'm:test', limit: 10, windowSeconds: 60 };
    const hitAt = (subject: string, at: number) =>
      takeRateLimitHits(tdb.db, [{ rule, subject, ask: 1, recordAt: at }], new Date(at));
    await hitAt('a', Date.now() - 3_600_000);
    // A window whose hit has not left it when the sweep runs: one an hour ahead (a hit of now could leave it between
    // this line and the sweep).
    await hitAt('b', Date.now() + 3_600_000);
    const row = {
      operation: 'op',
      request_hash: 'h',
      response_status: 201,
      response_body: Buffer.from('{}'),
      response_content_type: 'application/json',
    };
    await tdb.db('idempotency_keys').insert([
      { ...row, dialect: 'v1', tenant_id: 't', key: 'expired-key-1', expires_at: new Date(Date.now() - 1000) },
      { ...row, dialect: 'v1', tenant_id: 't', key: 'fresh-key-0001', expires_at: new Date(Date.now() + 86_400_000) },
      { ...row, dialect: 'proof', tenant_id: 't', key: 'proof-key-never-expires', expires_at: null },
    ]);
    const merchant = await createMerchant(tdb.db, { name: 'Sessions', trial: true }, new Date());
    const user = await createDashboardUser(
      tdb.db,
      {
        merchantId: merchant.id,
        email: `m-${randomBytes(3).toString('hex')}@example.com`,
        passwordHash: 'scrypt$15$8$1$AA==$AA==',
      },
      new Date(),
    );
    const session = (hash: string, expiresAt: Date) =>
      createSession(tdb.db, { tokenHash: hash, userId: user.id, merchantId: merchant.id, expiresAt }, new Date());
    await session('expired', new Date(Date.now() - 1000));
    const ended = await session('ended', new Date(Date.now() + 3_600_000));
    await endSession(tdb.db, ended.id, new Date(Date.now() - 1000));
    const live = await session('live', new Date(Date.now() + 3_600_000));
    const result = await gw.client.workflow.execute('maintenanceWorkflow', {
      taskQueue,
      workflowId: `maintenance-test-${randomBytes(4).toString('hex')}`,
      args: [],
    });
    expect((await tdb.db('merchant_sessions').select('id')).map((r) => r.id)).toEqual([live.id]);
    expect(result).toEqual({
      rateLimitWindows: 1,
      idempotencyKeys: 1,
      sessions: 2,
      expiredRequests: 0,
      restartedDeliveries: 0,
      restartedJobs: 0,
      reconciledPayments: { settled: 0, failed: 0, open: 0, purgedAnswers: 0 },
      restartedInvoiceLifecycles: 0,
      restartedBatches: 0,
    });
    expect((await tdb.db('idempotency_keys').select('key').orderBy('key')).map((r) => r.key)).toEqual([
      'fresh-key-0001',
      'proof-key-never-expires',
    ]);
    expect((await tdb.db('rate_limit_windows')).map((r: { bucket: string }) => r.bucket)).toEqual(['m:test:b']);
  });

  it("starts the workflow of an earlier version's delivery whose start was lost, and leaves running ones alone", async () => {
    const receiver = await startReceiver(() => 200);
    const secretBox = createSecretBox(secretsKey);
    const endpoint = await createEndpoint(tdb.db, {
      interface: 'proof',
      tenantId: 'mer_m',
      url: receiver.url,
      events: [],
      secretSealed: secretBox.seal('whsec_m'),
    });
    // Deliveries recorded before the dispatcher existed (not queued for it; committed so, the dispatcher never sees them
    // queued): one 10 minutes ago whose process died before starting delivery:<id>, one within the grace period.
    const legacy = (eventId: string, createdAt: Date) =>
      tdb.db.transaction(async (trx) => {
        const { delivery } = await createDelivery(trx, {
          endpoint,
          eventId,
          eventType: 'test.event',
          body: Buffer.from(`{"id":"${eventId}"}`),
          maxAttempts: 5,
        });
        await trx('webhook_deliveries').where({ id: delivery.id }).update({ dispatch: null, created_at: createdAt });
        return delivery;
      });
    const lost = await legacy('evt_lost', new Date(Date.now() - 600_000));
    const recent = await legacy('evt_recent', new Date());

    const run = () =>
      gw.client.workflow.execute('maintenanceWorkflow', {
        taskQueue,
        workflowId: `maintenance-test-${randomBytes(4).toString('hex')}`,
        args: [],
      });
    expect(await run()).toMatchObject({ restartedDeliveries: 1 });
    expect(await gw.client.workflow.getHandle(`delivery:${lost.id}`).result()).toEqual({
      status: 'delivered',
      attempts: 1,
    });
    expect((await getDelivery(tdb.db, recent.id))!.status).toBe('pending');
    expect(await run()).toMatchObject({ restartedDeliveries: 0 });
    expect(receiver.requests.map((r) => r.headers['x-service-event-id'])).toEqual(['evt_lost']);
    await receiver.close();
  });

  it('keeps the maintenance and retention schedules in place idempotently', async () => {
    const opts = { address: inject('temporalAddress'), namespace: inject('temporalNamespace'), taskQueue };
    await ensureSchedules(opts);
    await ensureSchedules(opts);
    for (const [id, workflowType] of [
      [`maintenance:${taskQueue}`, 'maintenanceWorkflow'],
      [`retention:${taskQueue}`, 'retentionWorkflow'],
    ] as const) {
      const desc = await gw.client.schedule.getHandle(id).describe();
      expect(desc.action).toMatchObject({ type: 'startWorkflow', workflowType, taskQueue });
      expect(desc.spec.intervals?.[0]?.every).toBe(15 * 60 * 1000);
    }
  });
});
