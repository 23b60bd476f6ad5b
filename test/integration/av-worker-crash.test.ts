import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { defaultPayloadConverter } from '@temporalio/common';
import { crashTestHarness, spawnWorkerProcess, until } from '../helpers/worker-process.js';
import { decodeAll, ffprobe, testVideo } from '../helpers/av-media.js';

/**
 * A video job whose worker (the real workers/main.ts, an OS process) is SIGKILLed while ffmpeg encodes: its ffmpeg
 * dies with it (no orphan encoding on), the job's heartbeats stop, and a second worker finishes the job. One charge,
 * one correct result.
 *
 * "While ffmpeg encodes" is made certain rather than timed: the stored source (Matroska, which ffmpeg reads as a
 * stream) is replaced by a named pipe. The runner's ffprobe is served the whole file; ffmpeg is served 60 % of it
 * and then held, waiting for more, after it has reported progress through the activity's heartbeat.
 */
const { h, workers } = crashTestHarness();

/** Pids of the processes whose command line names `path` (ffmpeg or ffprobe reading the source). */
function processesReading(path: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`).toString().includes(path)) pids.push(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return pids;
}

describe('a worker dies while ffmpeg encodes a video', () => {
  it('its ffmpeg goes with it, and another worker finishes the job: one charge, one correct result', async () => {
    const env = {
      DATABASE_URL: h.tdb.url,
      TEMPORAL_TASK_QUEUE: h.taskQueue,
      SECRETS_KEY: h.secretsKey,
      STORAGE_DIR: h.storageDir,
    };
    const acme = await h.company('AvCrash');
    const video = testVideo(20, { size: '640x360', ext: 'mkv' });
    const upload = await h.upload(acme.key, 'talk.mkv', video);
    const before = await h.wallet(acme.id);
    const job = await h.submitOk(acme.key, {
      operation: 'video-resize',
      upload_ids: [upload],
      options: { height: 480 },
    });

    const source = h.store.pathOf(upload);
    rmSync(source);
    execFileSync('mkfifo', ['-m', '600', source]);
    // The first reader (the runner's ffprobe) gets the whole file; the second (ffmpeg) 60 % of it, then waits.
    const held: Promise<FileHandle> = (async () => {
      const probeEnd = await open(source, 'w');
      await probeEnd.write(video).catch(() => undefined); // ffprobe may stop reading early (EPIPE)
      await probeEnd.close();
      const ffmpegEnd = await open(source, 'w');
      await ffmpegEnd.write(video.subarray(0, Math.floor(video.length * 0.6)));
      return ffmpegEnd;
    })();

    workers.push(await spawnWorkerProcess(env));
    const handle = h.gateway.client.workflow.getHandle(`job:${job.id}`);
    // Progress reaches Temporal as the heartbeat details of runJobOperation (what the Temporal UI shows).
    const progress = await until('a progress heartbeat', async () => {
      const d = await handle.describe();
      const payload = d.raw.pendingActivities?.[0]?.heartbeatDetails?.payloads?.[0];
      const p = payload
        ? defaultPayloadConverter.fromPayload<{ fraction: number; detail?: string }>(payload)
        : undefined;
      return p?.detail ? p : undefined;
    });
    expect(progress.fraction).toBeGreaterThanOrEqual(0);
    expect(progress.fraction).toBeLessThan(1);
    expect(progress.detail).toMatch(/ s of 20\.0\d* s$/);
    const writer = await held;
    expect(processesReading(source).length).toBeGreaterThan(0);
    expect(await h.tdb.db('jobs').where({ id: job.id }).first('status')).toEqual({ status: 'processing' });

    const killedAt = Date.now();
    expect(await workers[0]!.kill('SIGKILL')).toBeNull();
    // ffmpeg was started with a parent-death signal: it does not outlive its worker.
    await until(
      'ffmpeg to end with its worker',
      () => (processesReading(source).length === 0 ? true : undefined),
      10_000,
    );
    await writer.close();
    writeFileSync(`${source}.restore`, video);
    renameSync(`${source}.restore`, source);

    workers.push(await spawnWorkerProcess(env));
    const done = await h.waitForJob(acme.key, job.id, 240_000);
    expect(done).toMatchObject({ status: 'completed', charged_credits: 4 });

    // The operation's first attempt died with its worker; the second, on the other worker, completed.
    const history = await handle.fetchHistory();
    const events = history.events ?? [];
    const scheduled = events.find(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runJobOperation',
    )!;
    const started = events.filter(
      (e) => e.activityTaskStartedEventAttributes?.scheduledEventId?.toString() === scheduled.eventId?.toString(),
    );
    expect(started.map((e) => e.activityTaskStartedEventAttributes!.attempt)).toEqual([2]);
    // Noticed within the 15 s heartbeat timeout (plus the 2 s retry wait and a worker start).
    const restartedAfterMs = Number(started[0]!.eventTime!.seconds) * 1000 - killedAt;
    expect(restartedAfterMs).toBeLessThan(60_000);

    const ledger = await h.tdb
      .db('credit_ledger')
      .join('credit_reservations', 'credit_reservations.id', 'credit_ledger.reservation_id')
      .where({ job_id: job.id })
      .orderBy('credit_ledger.id')
      .select('kind', 'credit_ledger.amount');
    expect(ledger.map((r) => [r.kind, Number(r.amount)])).toEqual([
      ['reserve', 4],
      ['charge', 4],
    ]);
    expect(await h.wallet(acme.id)).toEqual({ available: before.available - 4, reserved: before.reserved });

    const files = done.result!.files;
    expect(files).toHaveLength(1);
    const bytes = Buffer.from(await (await h.download(acme.key, files[0]!.download_path)).arrayBuffer());
    const v = ffprobe(bytes, 'mp4').streams.find((s) => s.codec_type === 'video')!;
    expect([v.width, v.height]).toEqual([854, 480]);
    expect(Math.abs(Number(v.duration) - 20)).toBeLessThanOrEqual(1 / 25 + 1e-6);
    expect(Math.abs(decodeAll(bytes, 'mp4') - 20)).toBeLessThanOrEqual(0.05);
    expect(readdirSync(`${h.storageDir}/tmp`).filter((n) => !n.startsWith('.'))).toEqual([]);
  });
});
