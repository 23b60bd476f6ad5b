import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { capturingLogger } from '../helpers/logs.js';
import { startTestWorker, testGateway, uniqueTaskQueue } from '../helpers/temporal.js';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { createSystemResolver } from '../../adapters/webhooks/http-delivery.js';
import { hitRateLimits } from '../../db/repositories/rate-limits.repo.js';
import { ensureSchedules } from '../../workers/schedules.js';
import type { WorkflowGateway } from '../../api/temporal/workflow-client.js';

let tdb: TestDatabase;
let gw: WorkflowGateway;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
let taskQueue: string;

beforeAll(async () => {
  tdb = await createTestDatabase();
  taskQueue = uniqueTaskQueue('maint');
  worker = await startTestWorker(taskQueue, { db: tdb.db, logger: capturingLogger().logger, secretBox: createSecretBox(generateSecretsKey()), resolver: createSystemResolver(), allowLoopbackForTests: true });
  gw = await testGateway(taskQueue);
});
afterAll(async () => {
  await gw?.client.schedule.getHandle(`maintenance:${taskQueue}`).delete().catch(() => undefined);
  await worker?.stop();
  await gw?.close();
  await tdb?.drop();
});

describe('maintenance', () => {
  it('purges ended rate-limit windows and expired /v1 idempotency keys, keeping /proof keys forever', async () => {
    const rule = { name: 'm:test', limit: 10, windowSeconds: 60 };
    await hitRateLimits(tdb.db, [{ rule, subject: 'a' }], new Date(Date.now() - 3_600_000));
    await hitRateLimits(tdb.db, [{ rule, subject: 'a' }], new Date());
    const row = { operation: 'op', request_hash: 'h', response_status: 201, response_body: Buffer.from('{}'), response_content_type: 'application/json' };
    await tdb.db('idempotency_keys').insert([
      { ...row, dialect: 'v1', tenant_id: 't', key: 'expired-key-1', expires_at: new Date(Date.now() - 1000) },
      { ...row, dialect: 'v1', tenant_id: 't', key: 'fresh-key-0001', expires_at: new Date(Date.now() + 86_400_000) },
      { ...row, dialect: 'proof', tenant_id: 't', key: 'proof-key-never-expires', expires_at: null },
    ]);
    const result = await gw.client.workflow.execute('maintenanceWorkflow', { taskQueue, workflowId: `maintenance-test-${randomBytes(4).toString('hex')}`, args: [] });
    expect(result).toEqual({ rateLimitWindows: 1, idempotencyKeys: 1 });
    expect((await tdb.db('idempotency_keys').select('key').orderBy('key')).map((r) => r.key)).toEqual(['fresh-key-0001', 'proof-key-never-expires']);
    expect(await tdb.db('rate_limit_counters')).toHaveLength(1);
  });

  it('keeps the maintenance schedule in place idempotently', async () => {
    const opts = { address: inject('temporalAddress'), namespace: inject('temporalNamespace'), taskQueue };
    await ensureSchedules(opts);
    await ensureSchedules(opts);
    const desc = await gw.client.schedule.getHandle(`maintenance:${taskQueue}`).describe();
    expect(desc.action.type).toBe('startWorkflow');
    expect(desc.spec.intervals?.[0]?.every).toBe(15 * 60 * 1000);
  });
});
