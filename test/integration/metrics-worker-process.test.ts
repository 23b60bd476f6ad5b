import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { freePort } from '../helpers/own-postgres.js';
import { deleteRunSchedules, testGateway, uniqueTaskQueue } from '../helpers/temporal.js';
import { spawnWorkerProcess, stopLiveWorkers, until, type WorkerProcess } from '../helpers/worker-process.js';
import { generateSecretsKey } from '../../adapters/crypto/secret-box.js';
import { dashboardMetrics } from '../helpers/dashboard-metrics.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';

/*
 * The worker entry point (workers/main.ts) as its own process with METRICS_PORT, METRICS_TOKEN and METRICS_TEMPORAL_PORT:
 * its own registry on its own listener behind the token, and the Temporal SDK's worker metrics on the other port.
 */
let tdb: TestDatabase;
let gw: WorkflowGateway;
const taskQueue = uniqueTaskQueue('metrics-proc');
const workers: WorkerProcess[] = [];
const TOKEN = 'worker-metrics-token-0123456789abcdefgh';

beforeAll(async () => {
  tdb = await createTestDatabase();
  gw = await testGateway(taskQueue);
});
afterAll(async () => {
  await stopLiveWorkers(workers);
  await deleteRunSchedules(gw, taskQueue);
  await gw?.close();
  await tdb?.drop();
});

describe('a worker process with METRICS_PORT and METRICS_TEMPORAL_PORT', () => {
  it("serves its own metrics behind the token, and the Temporal SDK's on the other port", async () => {
    const [port, temporalPort] = [await freePort(), await freePort()];
    const worker = await spawnWorkerProcess({
      DATABASE_URL: tdb.url,
      TEMPORAL_TASK_QUEUE: taskQueue,
      SECRETS_KEY: generateSecretsKey(),
      METRICS_PORT: String(port),
      METRICS_TOKEN: TOKEN,
      METRICS_TEMPORAL_PORT: String(temporalPort),
    });
    workers.push(worker);
    const own = `http://127.0.0.1:${port}/metrics`;
    expect((await fetch(own)).status).toBe(401);
    const res = await fetch(own, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('# TYPE paycore_jobs_finished_total counter');
    expect(text).toContain('# TYPE paycore_webhook_deliveries_total counter');
    // The process metrics prom-client collects, labelled with the process.
    expect(text).toMatch(/^paycore_process_cpu_user_seconds_total\{process="worker"\} \d/m);
    // The SDK's exporter reports its pollers once the worker polls.
    const temporal = await until('the Temporal SDK metrics', async () => {
      const body = await fetch(`http://127.0.0.1:${temporalPort}/metrics`)
        .then((r) => r.text())
        .catch(() => '');
      return /^temporal_num_pollers\{/m.test(body) ? body : undefined;
    });
    expect(temporal).toMatch(new RegExp(`task_queue="${taskQueue}"`));
    expect(temporal).not.toContain(TOKEN);
    // Every SDK metric the starter dashboard (docs/grafana-dashboard.json) charts is one this exporter serves.
    for (const name of dashboardMetrics().filter((n) => n.startsWith('temporal_')))
      expect(temporal, name).toMatch(new RegExp(`^${name}[{ ]`, 'm'));
  });
});
