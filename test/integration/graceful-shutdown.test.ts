import { createRouter } from '../../api/http/router.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { testGateway, uniqueTaskQueue, deleteRunSchedules } from '../helpers/temporal.js';
import { spawnWorkerProcess } from '../helpers/worker-process.js';
import { createSecretBox, generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { createEndpoint, getDelivery, listAttempts } from '../../db/repositories/webhooks.repo.js';
import { enqueueDelivery } from '../../services/workflows/deliveries.js';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  await tdb?.drop();
});

describe('SIGTERM drains', () => {
  it('the HTTP server finishes in-flight requests, then refuses new connections', async () => {
    // The handler tells when it is running and finishes only when the test lets it, after the drain began.
    let entered!: () => void;
    const running = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const slow = createRouter({ prefix: '/x402' });
    slow.get('/slow-test', async (ctx) => {
      entered();
      await released;
      ctx.body = { finished: true };
    });
    const app = await startTestApp({ db: tdb.db, logger: capturingLogger().logger, routers: [slow] });
    const inFlight = fetch(`${app.url}/x402/slow-test`);
    await running;
    const drained = app.drain(60_000);
    release();
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
    const worker = await spawnWorkerProcess({
      DATABASE_URL: tdb.url,
      TEMPORAL_TASK_QUEUE: taskQueue,
      SECRETS_KEY: secretsKey,
      SHUTDOWN_GRACE_SECONDS: '60',
    });
    try {
      // A receiver that holds its answer until the worker has begun to drain, so the attempt is in flight when
      // SIGTERM arrives and still in flight while the worker drains.
      const { createServer } = await import('node:http');
      let arrived!: () => void;
      const requestArrived = new Promise<void>((r) => (arrived = r));
      let answer!: () => void;
      const answerAllowed = new Promise<void>((r) => (answer = r));
      const late = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          arrived();
          void answerAllowed.then(() => res.end('ok'));
        });
      });
      await new Promise<void>((r) => late.listen(0, '127.0.0.1', () => r()));
      const port = (late.address() as { port: number }).port;
      const endpoint = await createEndpoint(tdb.db, {
        interface: 'v1',
        tenantId: 'co_drain',
        url: `http://127.0.0.1:${port}/hook`,
        events: [],
        secretSealed: createSecretBox(secretsKey).seal('whsec_drain'),
      });
      const { delivery } = await enqueueDelivery(tdb.db, {
        endpoint,
        eventId: 'evt_drain',
        eventType: 'job.completed',
        body: Buffer.from('{"id":"evt_drain"}'),
      });
      // The attempt is in flight once its request arrived; then ask the worker to stop, and let the receiver answer
      // once the worker says it drains.
      await requestArrived;
      const exited = worker.kill('SIGTERM');
      const deadline = Date.now() + 60_000;
      while (!worker.output().includes('worker draining in-flight activities')) {
        if (Date.now() > deadline) throw new Error(`the worker never began to drain:\n${worker.output().slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      answer();
      expect(await exited).toBe(0);
      expect(worker.output()).toContain('worker stopped');
      const attempts = await listAttempts(tdb.db, delivery.id);
      expect(attempts).toMatchObject([{ attemptNo: 1, outcome: 'delivered', statusCode: 200 }]);
      // The stopping worker's dispatcher recorded the answer before it exited: delivered, released, never sent again.
      expect(await getDelivery(tdb.db, delivery.id)).toMatchObject({ status: 'delivered', attempts: 1 });
      expect(await tdb.db('webhook_deliveries').where({ id: delivery.id }).first('dispatch', 'dispatch_claim')).toEqual(
        { dispatch: null, dispatch_claim: null },
      );
      await new Promise<void>((r) => late.close(() => r()));
    } finally {
      await deleteRunSchedules(gw, taskQueue);
      await gw.close();
    }
  });
});
