import { execFileSync } from 'node:child_process';
import { constants, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { batchClient } from '../helpers/batches.js';
import { crashTestHarness, spawnWorkerProcess } from '../helpers/worker-process.js';

/**
 * The real worker entry point (workers/main.ts) as OS processes: the first is SIGKILLed in the middle of a batch, while
 * its fourth child runs its operation (its stored source is a named pipe, whose opening proves the operation started
 * and holds it there); a second worker finishes the batch. Nothing is lost (every child completes, the batch ends
 * completed) and nothing is doubled (one child workflow per item, one charge per child, one result file per child).
 */
const { h, workers } = crashTestHarness();
const b = batchClient(h);

describe('a worker dies in the middle of a batch', () => {
  it('another worker finishes it: every child completes once, charged once, with one result', async () => {
    const env = {
      DATABASE_URL: h.tdb.url,
      TEMPORAL_TASK_QUEUE: h.taskQueue,
      SECRETS_KEY: h.secretsKey,
      STORAGE_DIR: h.storageDir,
    };
    const acme = await h.company('BatchCrash');
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 10, g: 120, b: 200 } } })
      .png()
      .toBuffer();
    const noisy = await sharp({
      create: {
        width: 2000,
        height: 1500,
        channels: 3,
        background: { r: 0, g: 0, b: 0 },
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .png()
      .toBuffer();
    const plain = await h.upload(acme.key, 'plain.png', png);
    const held = await h.upload(acme.key, 'noisy.png', noisy);
    const ids = [plain, plain, plain, held, plain, plain];
    const before = await h.wallet(acme.id);

    const batch = await b.submitOk(acme.key, {
      operation: 'image-compress',
      upload_ids: ids,
      options: { format: 'webp' },
    });
    const source = h.store.pathOf(held);
    rmSync(source);
    execFileSync('mkfifo', ['-m', '600', source]);
    const writer = open(source, 'w'); // completes once the operation of item 3 opened its source for reading
    workers.push(await spawnWorkerProcess(env));
    const opened = await Promise.race([writer, new Promise<null>((r) => setTimeout(() => r(null), 180_000).unref())]);
    if (!opened) {
      await open(source, constants.O_RDONLY | constants.O_NONBLOCK).then((fd) => fd.close());
      throw new Error('the operation of item 3 never opened its source');
    }
    // Children run in item order: items 0 to 2 are done, item 3 is running, 4 and 5 wait.
    const mid = await h.tdb.db('jobs').where({ batch_id: batch.id }).orderBy('item_index').select('status');
    expect(mid.map((r) => r.status)).toEqual(['completed', 'completed', 'completed', 'processing', 'queued', 'queued']);
    expect(await workers[0]!.kill('SIGKILL')).toBeNull();
    await opened.close();
    writeFileSync(`${source}.restore`, noisy);
    renameSync(`${source}.restore`, source);

    workers.push(await spawnWorkerProcess(env));
    const done = await b.waitForBatch(acme.key, batch.id, 240_000);
    expect(done).toMatchObject({
      status: 'completed',
      progress: { total: 6, completed: 6, failed: 0 },
      credits: { estimated: 12, charged: 12, reserved: 0, released: 0 },
    });

    // One child workflow per item, each started once by the batch.
    const history = await h.gateway.client.workflow.getHandle(`batch:${batch.id}`).fetchHistory();
    const started = (history.events ?? [])
      .filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)
      .map((e) => e.startChildWorkflowExecutionInitiatedEventAttributes!.workflowId);
    expect(started.sort()).toEqual(done.jobs.map((j) => `job:${j.id}`).sort());

    const ledger = await h.tdb
      .db('credit_ledger')
      .join('credit_reservations', 'credit_reservations.id', 'credit_ledger.reservation_id')
      .join('jobs', 'jobs.reservation_id', 'credit_reservations.id')
      .where('jobs.batch_id', batch.id)
      .groupBy('jobs.id', 'credit_ledger.kind')
      .select(
        'jobs.id',
        'credit_ledger.kind',
        h.tdb.db.raw('count(*)::int AS n'),
        h.tdb.db.raw('sum(credit_ledger.amount)::int AS amount'),
      );
    expect(ledger).toHaveLength(12);
    for (const row of ledger) expect({ n: row.n, amount: row.amount }).toEqual({ n: 1, amount: 2 });
    expect(await h.wallet(acme.id)).toEqual({ available: before.available - 12, reserved: before.reserved });

    const stored = readdirSync(h.storageDir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile() && d.name.startsWith('res_'))
      .map((d) => d.name)
      .sort();
    expect(stored).toEqual(
      done.jobs.map((j) => j.result!.files.length).every((n) => n === 1)
        ? (await h.tdb.db('jobs').where({ batch_id: batch.id }).select('result_files'))
            .map((r) => r.result_files[0].storage_id)
            .sort()
        : [],
    );
    expect(stored).toHaveLength(6);
  });
});
