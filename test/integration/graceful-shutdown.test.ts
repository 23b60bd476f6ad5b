import { createRouter } from '../../api/http/router.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { testGateway, uniqueTaskQueue, deleteRunSchedules } from '../helpers/temporal.js';
import { spawnWorkerProcess } from '../helpers/worker-process.js';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { createEndpoint, getDelivery, listAttempts } from '../../db/repositories/webhooks.repo.js';
import { enqueueDelivery } from '../../api/temporal/deliveries.js';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  await tdb?.drop();
});

describe('SIGTERM drains', () => {
  it('the HTTP server finishes in-flight requests, then refuses new connections', async () => {
    const slow = createRouter({ prefix: '/x402' });
    slow.get('/slow-test', async (ctx) => {
      await new Promise((r) => setTimeout(r, 700));
      ctx.body = { finished: true };
    });
    const app = await startTestApp({ db: tdb.db, logger: capturingLogger().logger, routers: [slow] });
    const inFlight = fetch(`${app.url}/x402/slow-test`);
    await new Promise((r) => setTimeout(r, 150));
    const drained = app.drain(5000);
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ finished: true });
    expect(res.headers.get('connection')).toBe('close');
    await drained;
    await expect(fetch(`${app.url}/x402/health`)).rejects.toThrow();
  });

  it('a worker process lets an in-flight delivery finish and exits 0', async () => {
    const taskQueue = uniqueTaskQueue('drain');
    const secretsKey = generateSecretsKey();
    const gw = await testGateway(taskQueue);
    const worker = await spawnWorkerProcess({ DATABASE_URL: tdb.url, TEMPORAL_TASK_QUEUE: taskQueue, SECRETS_KEY: secretsKey, SHUTDOWN_GRACE_SECONDS: '20' });
    try {
      // A receiver that answers after 1.5 s, so the attempt is in flight when SIGTERM arrives.
      const { createServer } = await import('node:http');
      const late = createServer((req, res) => {
        req.resume();
        req.on('end', () => setTimeout(() => res.end('ok'), 1500));
      });
      await new Promise<void>((r) => late.listen(0, '127.0.0.1', () => r()));
      const port = (late.address() as { port: number }).port;
      const endpoint = await createEndpoint(tdb.db, {
        interface: 'v1', tenantId: 'co_drain', url: `http://127.0.0.1:${port}/hook`, events: [],
        secretSealed: createSecretBox(secretsKey).seal('whsec_drain'),
      });
      const { delivery, workflowId } = await enqueueDelivery(tdb.db, gw, { endpoint, eventId: 'evt_drain', eventType: 'job.completed', body: Buffer.from('{"id":"evt_drain"}') });
      // Wait until the attempt is in flight, then ask the worker to stop.
      for (let i = 0; i < 100 && (await listAttempts(tdb.db, delivery.id)).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await worker.kill('SIGTERM')).toBe(0);
      expect(worker.output()).toContain('worker stopped');
      const attempts = await listAttempts(tdb.db, delivery.id);
      expect(attempts).toMatchObject([{ attemptNo: 1, outcome: 'delivered', statusCode: 200 }]);
      // The workflow finishes on the next worker; nothing is sent twice.
      const next = await spawnWorkerProcess({ DATABASE_URL: tdb.url, TEMPORAL_TASK_QUEUE: taskQueue, SECRETS_KEY: secretsKey });
      expect(await gw.client.workflow.getHandle(workflowId).result()).toEqual({ status: 'delivered', attempts: 1 });
      expect((await getDelivery(tdb.db, delivery.id))!.status).toBe('delivered');
      expect(await listAttempts(tdb.db, delivery.id)).toHaveLength(1);
      await next.kill('SIGTERM');
      await new Promise<void>((r) => late.close(() => r()));
    } finally {
      await deleteRunSchedules(gw, taskQueue);
      await gw.close();
    }
  });
});
