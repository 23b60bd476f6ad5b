/**
 * OCR benchmark, in one run on this machine, on a 10-page scanned PDF rendered from known text (one page of each
 * variant of support/ocr-corpus.ts):
 *   1. the same engine command run directly on the file: `ocrmypdf` on the whole document with the options the
 *      service uses (`--skip-text --pdf-renderer sandwich --optimize 0 --output-type pdf`, `--jobs` = the bound);
 *   2. an `ocr-pdf` job through the real /v1 API (buildApp + listen: upload once, POST /v1/jobs, poll) and Temporal
 *      (an in-process worker with the real runners and OCR_CONCURRENCY = the same bound): page by page, each page
 *      checkpointed, ocrmypdf per page, qpdf to put the document back together;
 * interleaved round by round, printed side by side with their ratio and pages per minute. Then the accuracy table:
 * word recall and sequence accuracy per variant, for an `ocr-text` job, the `ocr-pdf` job's text layer and the
 * direct ocrmypdf output's text layer (`pdftotext -raw`). See bench/README.md, "OCR".
 *
 * Run: npm run bench:media-ocr -- --rounds 3 --concurrency 2
 */
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { stderrProgress as progress } from '../adapters/infra/progress.js';
import { createLogger } from '../adapters/logging/logger.js';
import { createFileOperationRunners } from '../adapters/media/operation-runners.js';
import { runTool } from '../adapters/media/ocr/run-tool.js';
import { migrateLatest } from '../db/migrate.js';
import { createCompany, issueCompanyKey } from '../services/company/memberships.js';
import { grantCredits } from '../services/processing/credits.js';
import { installTemporalRuntime } from '../workers/temporal-runtime.js';
import { ALL_VARIANTS, corpusPage, scannedPdf, wordAccuracy, type CorpusPage } from '../support/ocr-corpus.js';
import { startProcessingBench } from './lib/bench-worker.js';
import { openBenchDatabase } from './lib/bench-db.js';
import { benchArgs, intOption, runBenchmark, type RunLifecycle } from './lib/lifecycle.js';
import { percentile, table, withDeadline } from './lib/measure.js';
import { v1Client, type PolledJob } from './lib/processing-client.js';
import { retireBenchCompany } from './lib/processing-db.js';
import { benchInfrastructure } from './lib/bench-infrastructure.js';

const RATE_LIMIT = '1000000000';
const JOB_DEADLINE_MS = 15 * 60_000;
/** The options the service gives ocrmypdf (adapters/media/ocr/ocr-engine.ts); the service also measures each page's skew first. */
const OCRMYPDF_ARGS = [
  '--skip-text',
  '--rotate-pages',
  '--rotate-pages-threshold',
  '5',
  '--oversample',
  '300',
  '--output-type',
  'pdf',
  '--pdf-renderer',
  'sandwich',
  '--optimize',
  '0',
  '--quiet',
  '-l',
  'eng',
];

interface Options {
  rounds: number;
  concurrency: number;
  pollMs: number;
}

const USAGE = `usage: tsx bench/media-ocr.ts [--rounds N] [--concurrency C] [--poll-ms MS]
  --rounds       measured rounds (one direct ocrmypdf run and one ocr-pdf job each), 1..20 (default 3; plus 1 warm-up)
  --concurrency  pages at once on both sides (ocrmypdf --jobs, OCR_CONCURRENCY), 1..16 (default 2)
  --poll-ms      interval of the client's GET /v1/jobs/{id} polls, 1..5000 (default 100)`;

function parseOptions(argv: string[]): Options {
  const v = benchArgs(argv, ['rounds', 'concurrency', 'poll-ms'], USAGE);
  return {
    rounds: intOption('--rounds', v.rounds, 3, 1, 20),
    concurrency: intOption('--concurrency', v.concurrency, 2, 1, 16),
    pollMs: intOption('--poll-ms', v['poll-ms'], 100, 1, 5000),
  };
}

const pdftotextPage = (file: string, page: number) =>
  execFileSync('pdftotext', ['-raw', '-f', String(page), '-l', String(page), file, '-']).toString('utf8');
const fixed = (n: number, d = 3) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');

async function sameGeometry(a: Uint8Array, b: Uint8Array): Promise<boolean> {
  const [x, y] = await Promise.all([PDFDocument.load(a), PDFDocument.load(b)]);
  return (
    x.getPageCount() === y.getPageCount() &&
    JSON.stringify(x.getPages().map((p) => p.getSize())) === JSON.stringify(y.getPages().map((p) => p.getSize()))
  );
}

async function main(opts: Options, run: RunLifecycle): Promise<boolean> {
  const work = await mkdtemp(join(os.tmpdir(), 'bench-media-ocr-'));
  run.defer(`remove ${work}`, () => rm(work, { recursive: true, force: true }));
  const env = {
    ...process.env,
    STORAGE_DIR: join(work, 'storage'),
    RATE_LIMIT_V1_PER_KEY_PER_MINUTE: RATE_LIMIT,
    RATE_LIMIT_V1_PER_IP_PER_MINUTE: RATE_LIMIT,
  };
  const logger = createLogger({ level: 'warn', name: 'bench-media-ocr' });
  installTemporalRuntime(logger);
  const { config, infra } = await benchInfrastructure(run, env);
  const runId = randomBytes(4).toString('hex');
  const { db, description } = await openBenchDatabase(infra, config, `tenant_bench_media_ocr_${runId}`, run);
  await migrateLatest(db);
  const { company, owner } = await createCompany(db, {
    name: `bench-media-ocr-${runId}`,
    ownerEmail: `bench-media-ocr-${runId}@example.com`,
  });
  if (!infra.adminDatabaseUrl) run.defer(`retire company ${company.id}`, () => retireBenchCompany(db, company.id));
  const { secret: apiKey } = await issueCompanyKey(
    db,
    { companyId: company.id, memberId: owner.id, name: 'bench', scopes: ['read', 'write'] },
    new Date(),
  );
  await grantCredits(db, company.id, BigInt((opts.rounds + 2) * 100 + 100), 'bench');

  progress(`rendering the corpus: ${ALL_VARIANTS.length} pages (${ALL_VARIANTS.join(', ')})`);
  const pages: CorpusPage[] = [];
  for (const v of ALL_VARIANTS) pages.push(await corpusPage(v));
  const pdf = await scannedPdf(pages);
  const source = join(work, 'scanned.pdf');
  await writeFile(source, pdf);

  const server = await startProcessingBench(run, {
    name: 'bench-media-ocr',
    infra,
    config,
    db,
    logger,
    runners: createFileOperationRunners({}, { concurrency: opts.concurrency }),
  });
  const client = v1Client(server.url, apiKey);
  const uploadId = await client.upload('scanned-10-pages.pdf', pdf);

  const problems: string[] = [];
  let seq = 0;
  const job = async (operation: 'ocr-pdf' | 'ocr-text'): Promise<{ polled: PolledJob; result: Buffer }> => {
    const polling = client.submitAndPoll(
      { operation, upload_ids: [uploadId], options: {} },
      `bench-${runId}-${++seq}`,
      opts.pollMs,
      run.signal,
    );
    polling.catch(() => undefined);
    const polled = await withDeadline(polling, JOB_DEADLINE_MS, `${operation} job #${seq}`, run.signal);
    const j = polled.job;
    if (j.status !== 'completed')
      throw new Error(`${operation} job ${j.id} ${j.status}: ${j.error_code ?? ''} ${j.error ?? ''}`);
    const expected = operation === 'ocr-pdf' ? 10 * pages.length : 3 * pages.length;
    if (j.charged_credits !== expected)
      problems.push(`${operation} job ${j.id} charged ${j.charged_credits}, expected ${expected}`);
    return { polled, result: await client.download(j.result!.files[0]!.download_path) };
  };
  const direct = async (out: string): Promise<number> => {
    const t = performance.now();
    await runTool('ocrmypdf', [...OCRMYPDF_ARGS, '--jobs', String(opts.concurrency), '--', source, out], {
      timeoutMs: JOB_DEADLINE_MS,
      signal: run.signal,
      env: { OMP_THREAD_LIMIT: '1' },
    });
    return performance.now() - t;
  };

  const directMs: number[] = [];
  const jobMs: number[] = [];
  const operationMs: number[] = [];
  let lastJobPdf: Buffer | null = null;
  const directOut = join(work, 'direct.pdf');
  for (let r = 0; r <= opts.rounds; r++) {
    const measured = r > 0;
    progress(
      `${measured ? `round ${r}/${opts.rounds}` : 'warm-up'}: ocrmypdf directly, then an ocr-pdf job (${pages.length} pages, ${opts.concurrency} at once)`,
    );
    const d = await direct(directOut);
    const { polled, result } = await job('ocr-pdf');
    lastJobPdf = result;
    if (!(await sameGeometry(pdf, result)))
      problems.push(`ocr-pdf job ${polled.job.id}: page count or page sizes differ from the source`);
    if (!measured) continue;
    directMs.push(d);
    jobMs.push(polled.e2eMs);
    const started = Date.parse(polled.job.started_at!);
    operationMs.push(Date.parse(polled.job.finished_at!) - started);
  }
  const directPdf = await readFile(directOut);
  if (!(await sameGeometry(pdf, directPdf)))
    problems.push('direct ocrmypdf output: page count or page sizes differ from the source');
  await writeFile(join(work, 'job.pdf'), lastJobPdf!);

  progress('accuracy: an ocr-text job, and the text layers of both searchable PDFs');
  const text = (await job('ocr-text')).result.toString('utf8').split('\f');
  const rows = [
    ['variant', 'words', 'ocr-text recall', 'seq', 'ocr-pdf layer recall', 'seq', 'ocrmypdf direct recall', 'seq'],
  ];
  const sums = [0, 0, 0, 0, 0, 0];
  for (const [i, p] of pages.entries()) {
    const a = wordAccuracy(p.truth, text[i] ?? '');
    const b = wordAccuracy(p.truth, pdftotextPage(join(work, 'job.pdf'), i + 1));
    const c = wordAccuracy(p.truth, pdftotextPage(directOut, i + 1));
    [a.recall, a.sequence, b.recall, b.sequence, c.recall, c.sequence].forEach((v, k) => (sums[k]! += v));
    rows.push([
      `${p.name} (${p.dpi} dpi)`,
      String(a.truthWords),
      fixed(a.recall),
      fixed(a.sequence),
      fixed(b.recall),
      fixed(b.sequence),
      fixed(c.recall),
      fixed(c.sequence),
    ]);
  }
  rows.push(['mean', '', ...sums.map((s) => fixed(s / pages.length))]);

  const med = (xs: number[]) => percentile(xs, 0.5);
  const ppm = (ms: number) => (pages.length / ms) * 60_000;
  const cpu = os.cpus();
  const out = [
    `machine: node ${process.version}, ${process.platform} ${process.arch}, ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? 'unknown'}); load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
    `engines: ${execFileSync('tesseract', ['--version']).toString().split('\n')[0]}, ocrmypdf ${execFileSync('ocrmypdf', ['--version']).toString().trim()}`,
    `database: ${description}; temporal: ${infra.temporalAddress}, task queue ${server.taskQueue}, in-process worker`,
    `input: ${pages.length}-page scanned PDF (${pdf.length} bytes), image-only pages at 300 dpi (one at 200 dpi); ${opts.rounds} measured rounds after 1 warm-up, ${opts.concurrency} pages at once on both sides`,
    '',
    table([
      ['10-page scanned PDF -> searchable PDF', 'median s', 'min s', 'max s', 'pages/min'],
      [
        `ocrmypdf directly (--jobs ${opts.concurrency})`,
        fixed(med(directMs) / 1000, 2),
        fixed(Math.min(...directMs) / 1000, 2),
        fixed(Math.max(...directMs) / 1000, 2),
        fixed(ppm(med(directMs)), 1),
      ],
      [
        'ocr-pdf job, API + Temporal (client: submit -> seen completed)',
        fixed(med(jobMs) / 1000, 2),
        fixed(Math.min(...jobMs) / 1000, 2),
        fixed(Math.max(...jobMs) / 1000, 2),
        fixed(ppm(med(jobMs)), 1),
      ],
      [
        '  of which processing (started_at -> finished_at)',
        fixed(med(operationMs) / 1000, 2),
        fixed(Math.min(...operationMs) / 1000, 2),
        fixed(Math.max(...operationMs) / 1000, 2),
        fixed(ppm(med(operationMs)), 1),
      ],
    ]),
    '',
    `ratio job / direct (medians): ${fixed(med(jobMs) / med(directMs), 2)}x`,
    '',
    "word accuracy per variant (recall: share of the truth's words found; seq: 1 - word edit distance / words, reading order counts):",
    table(rows),
    '',
    problems.length
      ? `PROBLEMS:\n${problems.map((p) => `  - ${p}`).join('\n')}`
      : "checks: every job completed and charged its quote; both searchable PDFs have the source's page count and page sizes",
    '',
  ];
  process.stdout.write(out.join('\n'));
  return problems.length === 0;
}

await runBenchmark({ progress, usage: USAGE, parseOptions, main });
