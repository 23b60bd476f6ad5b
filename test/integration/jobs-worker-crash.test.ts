import { execFileSync } from 'node:child_process';
import { constants, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { crashTestHarness, spawnWorkerProcess } from '../helpers/worker-process.js';

/**
 * The real worker entry point (workers/main.ts) as OS processes: the first is SIGKILLed while it runs the job's
 * operation; a second one finishes the job. One charge, one result.
 *
 * "While it runs" is made certain rather than timed: the stored source is replaced by a named pipe, whose opening
 * by the operation (to read its source) both proves the operation started and holds it there, however fast or slow
 * the machine. After the kill the real bytes are put back for the second worker.
 */
const { h, workers } = crashTestHarness();

describe('a worker dies in the middle of a job', () => {
  it('another worker finishes it: the quote is charged once and there is one result', async () => {
    const env = {
      DATABASE_URL: h.tdb.url,
      TEMPORAL_TASK_QUEUE: h.taskQueue,
      SECRETS_KEY: h.secretsKey,
      STORAGE_DIR: h.storageDir,
    };
    const acme = await h.company('Crash');
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
    const upload = await h.upload(acme.key, 'noisy.png', noisy);
    const before = await h.wallet(acme.id);

    const job = await h.submitOk(acme.key, {
      operation: 'image-compress',
      upload_ids: [upload],
      options: { format: 'webp', level: 'strong' },
    });
    const source = h.store.pathOf(upload);
    rmSync(source);
    execFileSync('mkfifo', ['-m', '600', source]);
    // Opening the pipe for writing completes once the operation opened it for reading.
    const writer = open(source, 'w');
    workers.push(await spawnWorkerProcess(env));
    const opened = await Promise.race([writer, new Promise<null>((r) => setTimeout(() => r(null), 120_000).unref())]);
    if (!opened) {
      await open(source, constants.O_RDONLY | constants.O_NONBLOCK).then((fd) => fd.close()); // frees the pending open
      throw new Error('the job operation never opened its source');
    }
    expect(await h.tdb.db('jobs').where({ id: job.id }).first('status')).toEqual({ status: 'processing' });
    expect(await workers[0]!.kill('SIGKILL')).toBeNull();
    await opened.close();
    expect(await h.tdb.db('jobs').where({ id: job.id }).first('status')).toEqual({ status: 'processing' });
    writeFileSync(`${source}.restore`, noisy);
    renameSync(`${source}.restore`, source);

    workers.push(await spawnWorkerProcess(env));
    const done = await h.waitForJob(acme.key, job.id, 180_000);
    expect(done).toMatchObject({ status: 'completed', charged_credits: 2 });

    // The operation ran twice (the first attempt died with its worker), the job completed once.
    const history = await h.gateway.client.workflow.getHandle(`job:${job.id}`).fetchHistory();
    const runs = (history.events ?? []).filter(
      (e) =>
        e.activityTaskStartedEventAttributes &&
        (history.events ?? []).some(
          (s) =>
            s.eventId?.toString() === e.activityTaskStartedEventAttributes!.scheduledEventId?.toString() &&
            s.activityTaskScheduledEventAttributes?.activityType?.name === 'runJobOperation',
        ),
    );
    expect(runs.map((e) => e.activityTaskStartedEventAttributes!.attempt)).toEqual([2]);

    const ledger = await h.tdb
      .db('credit_ledger')
      .join('credit_reservations', 'credit_reservations.id', 'credit_ledger.reservation_id')
      .where({ job_id: job.id })
      .orderBy('credit_ledger.id')
      .select('kind', 'credit_ledger.amount');
    expect(ledger.map((r) => [r.kind, Number(r.amount)])).toEqual([
      ['reserve', 2],
      ['charge', 2],
    ]);
    expect(await h.wallet(acme.id)).toEqual({ available: before.available - 2, reserved: before.reserved });

    const files = done.result!.files;
    expect(files).toHaveLength(1);
    const bytes = Buffer.from(await (await h.download(acme.key, files[0]!.download_path)).arrayBuffer());
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'webp', width: 2000, height: 1500 });
    const stored = readdirSync(h.storageDir, { recursive: true, withFileTypes: true }).filter(
      (d) => d.isFile() && d.name.startsWith('res_'),
    );
    expect(stored.map((d) => d.name)).toEqual([
      (await h.tdb.db('jobs').where({ id: job.id }).first()).result_files[0].storage_id,
    ]);
    expect(readdirSync(join(h.storageDir, 'tmp')).filter((n) => !n.startsWith('.'))).toEqual([]);
  });
});
