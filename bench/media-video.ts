/**
 * Video tools benchmark, in one run on this machine: a 5-minute 720p video (ffmpeg lavfi testsrc2 + a tone, H.264 +
 * AAC; generated once and cached under DATA_DIR/bench-cache) trimmed and resized
 *   1. as the very same ffmpeg command the runner builds (`avCommand`), run directly on the same file, and
 *   2. as jobs through the real /v1 API (upload once, POST /v1/jobs, poll GET /v1/jobs/{id}) and Temporal (an
 *      in-process worker running processingJobWorkflow with the real runners),
 * interleaved (direct, job; then job, direct in the next round), printed side by side with the ratio, plus the
 * job's own overhead (end to end minus the operation's time as the activity measured it). Every output is checked
 * by content (dimensions and duration read back with ffprobe).
 *
 * Run: npm run bench:media-video -- --rounds 2
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { stderrProgress as progress } from '../adapters/infra/progress.js';
import { createLogger } from '../adapters/logging/logger.js';
import { createFileOperationRunners } from '../adapters/media/operation-runners.js';
import { avCommand, type AvOperation } from '../adapters/media/av/av-operations.js';
import { probeMedia } from '../adapters/media/av/media-probe.js';
import { runMediaTool } from '../adapters/media/av/media-process.js';
import { migrateLatest } from '../db/migrate.js';
import { createCompany, issueCompanyKey } from '../services/company/memberships.js';
import { grantCredits } from '../services/processing/credits.js';
import { startProcessingBench } from './lib/bench-worker.js';
import { installTemporalRuntime } from '../workers/temporal-runtime.js';
import { workflowIds } from '../workflows/task-queues.js';
import type { JobWorkflowResult } from '../workflows/processing/job.workflow.js';
import { openBenchDatabase } from './lib/bench-db.js';
import { benchArgs, intOption, runBenchmark, type RunLifecycle } from './lib/lifecycle.js';
import { table, withDeadline } from './lib/measure.js';
import { v1Client } from './lib/processing-client.js';
import { retireBenchCompany } from './lib/processing-db.js';
import { benchInfrastructure } from './lib/bench-infrastructure.js';

const VIDEO = { seconds: 300, size: '1280x720', fps: 25 };
const RATE_LIMIT = '1000000000';
/** Under the job activity's 30-minute limit; a 5-minute 720p encode takes a few minutes on a busy small machine. */
const JOB_DEADLINE_MS = 30 * 60_000;

interface Options {
  rounds: number;
  pollMs: number;
}

const USAGE = `usage: tsx bench/media-video.ts [--rounds N] [--poll-ms MS]
  --rounds   measured rounds (each: every case once directly and once as a job), 1..20 (default 1)
  --poll-ms  interval of the client's GET /v1/jobs/{id} polls, 10..5000 (default 200)`;

function parseOptions(argv: string[]): Options {
  const values = benchArgs(argv, ['rounds', 'poll-ms'], USAGE);
  return {
    rounds: intOption('--rounds', values.rounds, 1, 1, 20),
    pollMs: intOption('--poll-ms', values['poll-ms'], 200, 10, 5000),
  };
}

interface Case {
  label: string;
  operation: AvOperation;
  options: Record<string, unknown>;
  /** What the output must be: its size and duration (within one frame). */
  expect: { width: number; height: number; seconds: number };
  direct: number[];
  jobs: Array<{ e2eMs: number; operationMs: number }>;
  problems: string[];
}

/** The 5-minute test video, generated once (about a minute) and kept under DATA_DIR/bench-cache. */
function cachedVideo(dataDir: string): string {
  const dir = resolve(dataDir, 'bench-cache');
  const path = join(dir, `media-video-${VIDEO.seconds}s-${VIDEO.size}-${VIDEO.fps}fps.mp4`);
  if (existsSync(path)) return path;
  mkdirSync(dir, { recursive: true });
  progress(`generating the ${VIDEO.seconds / 60}-minute ${VIDEO.size} test video once: ${path}`);
  const partial = `${path}.partial.mp4`;
  execFileSync(
    'ffmpeg',
    [
      '-nostdin',
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=d=${VIDEO.seconds}:s=${VIDEO.size}:r=${VIDEO.fps}`,
      '-f',
      'lavfi',
      '-i',
      `sine=f=440:d=${VIDEO.seconds}`,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '23',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-shortest',
      '-movflags',
      '+faststart',
      partial,
    ],
    { stdio: 'inherit' },
  );
  renameSync(partial, path);
  return path;
}

/** Width, height and duration of a video file's video stream, read back with ffprobe. */
async function videoShape(path: string): Promise<{ width: number; height: number; seconds: number } | null> {
  const data = await probeMedia(path);
  const v = data?.streams?.find((s) => s.codec_type === 'video');
  return v ? { width: v.width ?? 0, height: v.height ?? 0, seconds: Number(v.duration) } : null;
}

function shapeProblem(
  c: Case,
  got: { width: number; height: number; seconds: number } | null,
  who: string,
): string | undefined {
  if (!got) return `${who}: no video stream in the output`;
  if (got.width !== c.expect.width || got.height !== c.expect.height)
    return `${who}: ${got.width}x${got.height}, expected ${c.expect.width}x${c.expect.height}`;
  if (Math.abs(got.seconds - c.expect.seconds) > 1 / VIDEO.fps + 1e-6)
    return `${who}: ${got.seconds} s, expected ${c.expect.seconds} s within one frame`;
  return undefined;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main(opts: Options, run: RunLifecycle): Promise<boolean> {
  const storageDir = await mkdtemp(join(os.tmpdir(), 'bench-media-video-'));
  run.defer(`remove ${storageDir}`, () => rm(storageDir, { recursive: true, force: true }));
  const env = {
    ...process.env,
    STORAGE_DIR: storageDir,
    RATE_LIMIT_V1_PER_KEY_PER_MINUTE: RATE_LIMIT,
    RATE_LIMIT_V1_PER_IP_PER_MINUTE: RATE_LIMIT,
  };
  const logger = createLogger({ level: 'warn', name: 'bench-media-video' });
  installTemporalRuntime(logger);
  const { config, infra } = await benchInfrastructure(run, env);
  const source = cachedVideo(config.dataDir);
  run.signal.throwIfAborted();
  const runId = randomBytes(4).toString('hex');
  const { db, description } = await openBenchDatabase(infra, config, `tenant_bench_media_video_${runId}`, run);
  await migrateLatest(db);
  const { company, owner } = await createCompany(db, {
    name: `bench-media-video-${runId}`,
    ownerEmail: `bench-media-video-${runId}@example.com`,
  });
  if (!infra.adminDatabaseUrl) run.defer(`retire company ${company.id}`, () => retireBenchCompany(db, company.id));
  const { secret: apiKey } = await issueCompanyKey(
    db,
    { companyId: company.id, memberId: owner.id, name: 'bench', scopes: ['read', 'write'] },
    new Date(),
  );
  await grantCredits(db, company.id, BigInt(opts.rounds * 2 * 20 + 100), 'bench');

  const server = await startProcessingBench(run, {
    name: 'bench-media-video',
    infra,
    config,
    db,
    logger,
    runners: createFileOperationRunners({}, {}, { timeoutMs: config.media.ffmpegTimeoutMs }),
  });
  const client = v1Client(server.url, apiKey);
  progress('uploading the video');
  const uploadId = await client.upload('bench-5min.mp4', readFileSync(source));

  const cases: Case[] = [
    {
      label: 'video-trim 60-240 s (3 min of 720p)',
      operation: 'video-trim',
      options: { start: 60, end: 240 },
      expect: { width: 1280, height: 720, seconds: 180 },
      direct: [],
      jobs: [],
      problems: [],
    },
    {
      label: 'video-resize to 360 (5 min 720p)',
      operation: 'video-resize',
      options: { height: 360 },
      expect: { width: 640, height: 360, seconds: VIDEO.seconds },
      direct: [],
      jobs: [],
      problems: [],
    },
  ];
  const probe = await probeMedia(source);
  if (!probe) throw new Error('ffprobe cannot read the cached video');
  const scratch = await mkdtemp(join(os.tmpdir(), 'bench-media-video-direct-'));
  run.defer(`remove ${scratch}`, () => rm(scratch, { recursive: true, force: true }));

  const direct = async (c: Case) => {
    // The runner probes the source and then runs ffmpeg: the direct side does the same two steps.
    const t = performance.now();
    const data = await probeMedia(source);
    const cmd = avCommand(c.operation, data ?? probe, c.options, source, (f) => join(scratch, `out.${f}`));
    await runMediaTool('ffmpeg', 'ffmpeg', cmd.args, {
      timeoutMs: JOB_DEADLINE_MS,
      signal: run.signal,
      onProgress: () => undefined,
    });
    c.direct.push(performance.now() - t);
    const problem = shapeProblem(c, await videoShape(join(scratch, `out.${cmd.format}`)), 'direct');
    if (problem) c.problems.push(problem);
  };
  let seq = 0;
  const job = async (c: Case) => {
    const n = ++seq;
    const polled = await withDeadline(
      client.submitAndPoll(
        { operation: c.operation, upload_ids: [uploadId], options: c.options },
        `bench-${runId}-${n}`,
        opts.pollMs,
        run.signal,
      ),
      JOB_DEADLINE_MS,
      `job #${n} (${c.operation})`,
      run.signal,
    );
    const wf = (await server.gw.client.workflow
      .getHandle(workflowIds.job(polled.job.id))
      .result()) as JobWorkflowResult;
    const files = polled.job.result?.files ?? [];
    if (polled.job.status !== 'completed' || files.length !== 1 || wf.operationMs === null) {
      c.problems.push(`job ${polled.job.id} ${polled.job.status} ${polled.job.error ?? ''}`);
      return;
    }
    c.jobs.push({ e2eMs: polled.e2eMs, operationMs: wf.operationMs });
    const out = join(scratch, 'job-result.mp4');
    await writeFile(out, await client.download(files[0]!.download_path));
    const problem = shapeProblem(c, await videoShape(out), `job ${polled.job.id}`);
    if (problem) c.problems.push(problem);
  };

  for (let r = 0; r < opts.rounds; r++) {
    for (const c of cases) {
      run.signal.throwIfAborted();
      progress(`round ${r + 1}/${opts.rounds}: ${c.label}, ${r % 2 === 0 ? 'direct then job' : 'job then direct'}`);
      if (r % 2 === 0) {
        await direct(c);
        await job(c);
      } else {
        await job(c);
        await direct(c);
      }
    }
  }

  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const rows = [['case', 'direct ffmpeg', 'job e2e', 'job operation', 'overhead', 'ratio job/direct']];
  for (const c of cases) {
    const d = median(c.direct);
    const e = median(c.jobs.map((j) => j.e2eMs));
    const o = median(c.jobs.map((j) => j.operationMs));
    rows.push([c.label, s(d), s(e), s(o), s(e - o), `${(e / d).toFixed(2)}x`]);
  }
  const cpu = os.cpus();
  const problems = cases.flatMap((c) => c.problems);
  process.stdout.write(
    [
      `machine: node ${process.version}, ${process.platform} ${process.arch}, ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? 'unknown'})`,
      `input: ${VIDEO.seconds} s ${VIDEO.size} ${VIDEO.fps} fps H.264 + AAC (testsrc2 + sine), ${readFileSync(source).length} bytes, ${source}`,
      `database: ${description}; temporal: ${infra.temporalAddress}, task queue ${server.taskQueue}, in-process worker; polls every ${opts.pollMs} ms`,
      `rounds: ${opts.rounds} (medians shown); direct = probe + the runner's own ffmpeg command (avCommand) on the same file`,
      '',
      table(rows),
      '',
      `check: every output ${problems.length === 0 ? 'has' : 'does NOT have'} the expected dimensions and duration (within one frame)${problems.length ? `; first problem: ${problems[0]}` : ''}`,
      '',
    ].join('\n'),
  );
  return problems.length === 0 && cases.every((c) => c.jobs.length === opts.rounds && c.direct.length === opts.rounds);
}

await runBenchmark({ progress, usage: USAGE, parseOptions, main });
