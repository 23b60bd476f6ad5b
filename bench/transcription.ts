/**
 * Transcription benchmark, in one run on this machine, on speech generated with known text (espeak-ng, the sentences
 * and two voices of support/speech-corpus.ts, repeated to the length asked):
 *   1. the offline engine called directly on the file: OfflineWhisperProvider.transcribe (decode, faster-whisper with
 *      Whisper base in its worker process), then embedSpeakers (the speaker regions the job also computes);
 *   2. a `transcribe` job (JSON) through the real /v1 API (upload once, POST /v1/jobs, poll) and Temporal (an
 *      in-process worker with the same engine): silence analysis, one activity per chunk, stitching and speakers;
 * interleaved round by round, printed side by side with their real-time factors and ratio, and the WER of both.
 * See bench/README.md, "Transcription".
 *
 * Run: npm run bench:transcription -- --minutes 3 --chunk-seconds 60 --rounds 1
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stderrProgress as progress } from '../adapters/infra/progress.js';
import { createLogger } from '../adapters/logging/logger.js';
import { createFileOperationRunners } from '../adapters/media/operation-runners.js';
import { OfflineWhisperProvider } from '../adapters/providers/transcription/offline-whisper.provider.js';
import { migrateLatest } from '../db/migrate.js';
import { createCompany, issueCompanyKey } from '../services/company/memberships.js';
import { grantCredits } from '../services/processing/credits.js';
import { installTemporalRuntime } from '../workers/temporal-runtime.js';
import { SENTENCES, VOICES, spokenClip } from '../support/speech-corpus.js';
import { wordErrorRate } from '../support/wer.js';
import { startProcessingBench } from './lib/bench-worker.js';
import { openBenchDatabase } from './lib/bench-db.js';
import { benchArgs, intOption, runBenchmark, type RunLifecycle } from './lib/lifecycle.js';
import { percentile, table, withDeadline } from './lib/measure.js';
import { v1Client } from './lib/processing-client.js';
import { retireBenchCompany } from './lib/processing-db.js';
import { benchInfrastructure } from './lib/bench-infrastructure.js';

const run = promisify(execFile);
const RATE_LIMIT = '1000000000';

interface Options {
  minutes: number;
  chunkSeconds: number;
  rounds: number;
  pollMs: number;
}

const USAGE = `usage: tsx bench/transcription.ts [--minutes M] [--chunk-seconds S] [--rounds N] [--poll-ms MS]
  --minutes        length of the generated speech, 1..60 (default 3)
  --chunk-seconds  TRANSCRIPTION_CHUNK_SECONDS of the job, 10..600 (default 60)
  --rounds         measured rounds (one direct run and one job each), 1..10 (default 1; plus 1 warm-up of the engine)
  --poll-ms        interval of the client's GET /v1/jobs/{id} polls, 1..5000 (default 200)`;

function parseOptions(argv: string[]): Options {
  const v = benchArgs(argv, ['minutes', 'chunk-seconds', 'rounds', 'poll-ms'], USAGE);
  return {
    minutes: intOption('--minutes', v.minutes, 3, 1, 60),
    chunkSeconds: intOption('--chunk-seconds', v['chunk-seconds'], 60, 10, 600),
    rounds: intOption('--rounds', v.rounds, 1, 1, 10),
    pollMs: intOption('--poll-ms', v['poll-ms'], 200, 1, 5000),
  };
}

const fixed = (n: number, d = 3) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');

/** The sentences in both voices, repeated until `minutes` of speech; with its text. */
async function corpus(dir: string, minutes: number): Promise<{ path: string; text: string; duration: number }> {
  const clips = [];
  for (const [i, v] of VOICES.entries())
    clips.push(await spokenClip(dir, `voice-${i}`, SENTENCES, v.voice, v.speed, 1.0));
  const once = clips.reduce((s, c) => s + c.duration + 1, 0);
  const repeats = Math.max(1, Math.round((minutes * 60) / once));
  const list = join(dir, 'list.txt');
  const lines: string[] = [];
  const texts: string[] = [];
  for (let r = 0; r < repeats; r++) {
    for (const c of clips) {
      lines.push(`file '${c.path}'`, `file '${join(dir, 'gap.wav')}'`);
      texts.push(c.text);
    }
  }
  await run('ffmpeg', [
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'anullsrc=r=22050:cl=mono',
    '-t',
    '1',
    '-c:a',
    'pcm_s16le',
    join(dir, 'gap.wav'),
  ]);
  await writeFile(list, `${lines.join('\n')}\n`);
  const path = join(dir, 'speech.mp3');
  await run('ffmpeg', [
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    list,
    '-c:a',
    'libmp3lame',
    '-q:a',
    '4',
    path,
  ]);
  const probe = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path]);
  return { path, text: texts.join(' '), duration: Number(probe.stdout.trim()) };
}

async function main(opts: Options, lifecycle: RunLifecycle): Promise<boolean> {
  const work = await mkdtemp(join(os.tmpdir(), 'bench-transcription-'));
  lifecycle.defer(`remove ${work}`, () => rm(work, { recursive: true, force: true }));
  const env = {
    ...process.env,
    STORAGE_DIR: join(work, 'storage'),
    RATE_LIMIT_V1_PER_KEY_PER_MINUTE: RATE_LIMIT,
    RATE_LIMIT_V1_PER_IP_PER_MINUTE: RATE_LIMIT,
  };
  const logger = createLogger({ level: 'warn', name: 'bench-transcription' });
  installTemporalRuntime(logger);
  const { config, infra } = await benchInfrastructure(lifecycle, env);
  const runId = randomBytes(4).toString('hex');
  const { db, description } = await openBenchDatabase(infra, config, `tenant_bench_transcription_${runId}`, lifecycle);
  await migrateLatest(db);
  const { company, owner } = await createCompany(db, {
    name: `bench-transcription-${runId}`,
    ownerEmail: `bench-transcription-${runId}@example.com`,
  });
  if (!infra.adminDatabaseUrl)
    lifecycle.defer(`retire company ${company.id}`, () => retireBenchCompany(db, company.id));
  const { secret: apiKey } = await issueCompanyKey(
    db,
    { companyId: company.id, memberId: owner.id, name: 'bench', scopes: ['read', 'write'] },
    new Date(),
  );

  progress(`generating about ${opts.minutes} minutes of espeak-ng speech`);
  const speech = await corpus(work, opts.minutes);
  const credits = 8 * Math.ceil(speech.duration / 60);
  await grantCredits(db, company.id, BigInt((opts.rounds + 1) * credits + 100), 'bench');

  // One engine for both sides (one worker process: TRANSCRIPTION_CONCURRENCY=1), so they are measured alike.
  const engine = new OfflineWhisperProvider({ concurrency: 1, timeoutMs: config.transcription.timeoutMs, logger });
  lifecycle.defer('stop the speech engine', () => engine.close());
  const server = await startProcessingBench(lifecycle, {
    name: 'bench-transcription',
    infra,
    config,
    db,
    logger,
    runners: createFileOperationRunners(),
    speech: { provider: engine, speakers: engine, media: {}, chunkSeconds: opts.chunkSeconds },
  });
  const client = v1Client(server.url, apiKey);
  const uploadId = await client.upload('speech.mp3', await readFile(speech.path));

  progress('warm-up: the engine loads its models');
  await engine.transcribe({ path: speech.path, signal: lifecycle.signal });

  const problems: string[] = [];
  const directMs: number[] = [];
  const directSpeakersMs: number[] = [];
  const jobMs: number[] = [];
  const processingMs: number[] = [];
  let directWer = NaN;
  let jobWer = NaN;
  for (let r = 1; r <= opts.rounds; r++) {
    progress(`round ${r}/${opts.rounds}: the engine directly, then a transcribe job`);
    let t = performance.now();
    const direct = await engine.transcribe({ path: speech.path, signal: lifecycle.signal });
    directMs.push(performance.now() - t);
    t = performance.now();
    await engine.embedSpeakers({ path: speech.path, signal: lifecycle.signal });
    directSpeakersMs.push(performance.now() - t);
    directWer = wordErrorRate(speech.text, direct.words.map((w) => w.word).join(' ')).wer;

    const polling = client.submitAndPoll(
      { operation: 'transcribe', upload_ids: [uploadId], options: { output_format: 'json' } },
      `bench-${runId}-${r}`,
      opts.pollMs,
      lifecycle.signal,
    );
    polling.catch(() => undefined);
    const polled = await withDeadline(polling, 60 * 60_000, `transcribe job #${r}`, lifecycle.signal);
    const j = polled.job;
    if (j.status !== 'completed')
      throw new Error(`transcribe job ${j.id} ${j.status}: ${j.error_code ?? ''} ${j.error ?? ''}`);
    if (j.charged_credits !== credits) problems.push(`job ${j.id} charged ${j.charged_credits}, expected ${credits}`);
    jobMs.push(polled.e2eMs);
    processingMs.push(Date.parse(j.finished_at!) - Date.parse(j.started_at!));
    const transcript = JSON.parse((await client.download(j.result!.files[0]!.download_path)).toString('utf8')) as {
      words: Array<{ word: string }>;
    };
    jobWer = wordErrorRate(speech.text, transcript.words.map((w) => w.word).join(' ')).wer;
  }

  const med = (xs: number[]) => percentile(xs, 0.5);
  const rtf = (ms: number) => ms / 1000 / speech.duration;
  const directBoth = directMs.map((d, i) => d + directSpeakersMs[i]!);
  const cpu = os.cpus();
  const out = [
    `machine: node ${process.version}, ${process.platform} ${process.arch}, ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? 'unknown'}); load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
    `engine: faster-whisper (Whisper base, int8, CPU) in one worker process; speakers: Silero VAD + Resemblyzer encoder (numpy)`,
    `database: ${description}; temporal: ${infra.temporalAddress}, task queue ${server.taskQueue}, in-process worker`,
    `input: ${fixed(speech.duration, 1)} s of espeak-ng speech (2 voices, MP3), ${speech.text.split(/\s+/).length} words; chunks of about ${opts.chunkSeconds} s; ${opts.rounds} measured round(s) after a warm-up`,
    '',
    table([
      ['transcription of the same file', 'median s', 'real-time factor', 'WER'],
      ['engine directly: transcribe', fixed(med(directMs) / 1000, 1), fixed(rtf(med(directMs))), fixed(directWer)],
      [
        'engine directly: transcribe + speaker regions',
        fixed(med(directBoth) / 1000, 1),
        fixed(rtf(med(directBoth))),
        '',
      ],
      [
        'transcribe job, API + Temporal (submit -> seen completed)',
        fixed(med(jobMs) / 1000, 1),
        fixed(rtf(med(jobMs))),
        fixed(jobWer),
      ],
      [
        '  of which processing (started_at -> finished_at)',
        fixed(med(processingMs) / 1000, 1),
        fixed(rtf(med(processingMs))),
        '',
      ],
    ]),
    '',
    `ratio job / engine directly with speakers (medians): ${fixed(med(jobMs) / med(directBoth), 2)}x; job / transcribe alone: ${fixed(med(jobMs) / med(directMs), 2)}x`,
    '',
    problems.length
      ? `PROBLEMS:\n${problems.map((p) => `  - ${p}`).join('\n')}`
      : 'checks: every job completed and charged its quote',
    '',
  ];
  process.stdout.write(out.join('\n'));
  return problems.length === 0;
}

await runBenchmark({ progress, usage: USAGE, parseOptions, main });
