/**
 * Field extraction benchmark, in one run on this machine, on invoices generated from known values
 * (test/helpers/invoice-corpus.ts), as text PDFs and as scanned PDFs:
 *   1. the chain called directly on each file: positioned text (text layer or OCR), the offline engine, the evidence
 *      check, then the three exports;
 *   2. a `flow-extract` job with the same documents through the real /v1 API and Temporal (an in-process worker with
 *      the real runners);
 * side by side in pages per minute with their ratio, and the field precision/recall and line-item accuracy of the job's
 * JSON against the truth. See bench/README.md, "Field extraction".
 *
 * Run: npm run bench:extraction -- --documents 10
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/schema.js';
import { checkEvidence } from '../domain/extraction-evidence.js';
import { stderrProgress as progress } from '../adapters/infra/progress.js';
import { createLogger } from '../adapters/logging/logger.js';
import { extractionResultFiles } from '../adapters/documents/extraction-exports.js';
import { OfflineExtractionEngine } from '../adapters/extraction/offline-engine.js';
import { readSourceText } from '../adapters/extraction/source-text.js';
import { createOcrEngine } from '../adapters/media/ocr/ocr-engine.js';
import { createFileOperationRunners } from '../adapters/media/operation-runners.js';
import { ensureInfrastructure } from '../cli/infrastructure.js';
import { migrateLatest } from '../db/migrate.js';
import { createCompany, issueCompanyKey } from '../db/repositories/companies.repo.js';
import { grantCredits } from '../db/repositories/credits.repo.js';
import { installTemporalRuntime } from '../workers/temporal-runtime.js';
import { CORPUS_FIELDS, generateInvoice, LAYOUTS, renderInvoice, type InvoiceDocument, type RenderForm } from '../test/helpers/invoice-corpus.js';
import { measureExtraction } from '../test/helpers/extraction-measure.js';
import { startProcessingBench } from './lib/bench-worker.js';
import { openBenchDatabase } from './lib/bench-db.js';
import { benchArgs, intOption, runBenchmark, type RunLifecycle } from './lib/lifecycle.js';
import { table, withDeadline } from './lib/measure.js';
import { v1Client } from './lib/processing-client.js';
import { retireBenchCompany } from './lib/processing-db.js';

const RATE_LIMIT = '1000000000';

interface Options {
  documents: number;
  pollMs: number;
}

const USAGE = `usage: tsx bench/extraction.ts [--documents N] [--poll-ms MS]
  --documents  invoices per form (text PDF, scanned PDF), 1..20 (one flow-extract job takes at most 20) (default 10)
  --poll-ms    interval of the client's GET /v1/jobs/{id} polls, 1..5000 (default 200)`;

function parseOptions(argv: string[]): Options {
  const v = benchArgs(argv, ['documents', 'poll-ms'], USAGE);
  return { documents: intOption('--documents', v.documents, 10, 1, 20), pollMs: intOption('--poll-ms', v['poll-ms'], 200, 1, 5000) };
}

const fixed = (n: number, d = 3) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');

interface JsonDoc { fields: Record<string, string | null>; items: Array<Record<string, string | null>> }
const asResult = (d: JsonDoc) => ({
  fields: Object.fromEntries(Object.entries(d.fields).map(([k, v]) => [k, { value: v, evidence: null, confidence: null }])),
  items: d.items.map((it) => Object.fromEntries(Object.entries(it).map(([k, v]) => [k, { value: v, evidence: null, confidence: null }]))),
}) as never;

async function main(opts: Options, run: RunLifecycle): Promise<boolean> {
  const work = await mkdtemp(join(os.tmpdir(), 'bench-extraction-'));
  run.defer(`remove ${work}`, () => rm(work, { recursive: true, force: true }));
  const config = loadConfig({ ...process.env, STORAGE_DIR: join(work, 'storage'), RATE_LIMIT_V1_PER_KEY_PER_MINUTE: RATE_LIMIT, RATE_LIMIT_V1_PER_IP_PER_MINUTE: RATE_LIMIT });
  const logger = createLogger({ level: 'warn', name: 'bench-extraction' });
  installTemporalRuntime(logger);
  const infra = await ensureInfrastructure(config, progress, { fsync: false });
  run.defer('stop infrastructure', () => infra.stop());
  const runId = randomBytes(4).toString('hex');
  const { db, description } = await openBenchDatabase(infra, config, `tenant_bench_extraction_${runId}`, run);
  await migrateLatest(db);
  const { company, owner } = await createCompany(db, { name: `bench-extraction-${runId}`, ownerEmail: `bench-extraction-${runId}@example.com` });
  if (!infra.adminDatabaseUrl) run.defer(`retire company ${company.id}`, () => retireBenchCompany(db, company.id));
  const { secret: apiKey } = await issueCompanyKey(db, { companyId: company.id, memberId: owner.id, name: 'bench', scopes: ['read', 'write'] }, new Date());
  await grantCredits(db, company.id, BigInt(opts.documents * 2 * 25 * 4 + 1000), 'bench');

  const server = await startProcessingBench(run, { name: 'bench-extraction', infra, config, db, logger, runners: createFileOperationRunners() });
  const client = v1Client(server.url, apiKey);
  const ocr = createOcrEngine();
  const engine = new OfflineExtractionEngine();
  const problems: string[] = [];
  const rows: string[][] = [['form', 'documents', 'pages', 'direct s', 'direct pages/min', 'job s', 'job pages/min', 'ratio job/direct', 'precision', 'recall', 'items']];

  for (const form of ['text_pdf', 'scanned_pdf'] as RenderForm[]) {
    progress(`${form}: generating ${opts.documents} invoices`);
    const docs: InvoiceDocument[] = Array.from({ length: opts.documents }, (_, i) => generateInvoice(1000 + i, { layout: LAYOUTS[i % LAYOUTS.length]!, itemCount: 1 + (i * 7) % 12 }));
    const files: Array<{ path: string; name: string; bytes: Uint8Array }> = [];
    for (const [i, doc] of docs.entries()) {
      const rendered = await renderInvoice(doc, form);
      const path = join(work, `${form}-${i}.pdf`);
      await writeFile(path, rendered.bytes);
      files.push({ path, name: `invoice-${i}.pdf`, bytes: rendered.bytes });
    }
    const uploadIds: string[] = [];
    for (const f of files) uploadIds.push(await client.upload(f.name, Buffer.from(f.bytes)));

    progress(`${form}: the chain directly`);
    let pages = 0;
    const t0 = performance.now();
    const documents = [];
    for (const f of files) {
      const text = await readSourceText(f.path, { engine: ocr, workDir: await mkdtemp(join(work, 'direct-')), signal: run.signal });
      pages += text.pages.length;
      const reviewed = checkEvidence(await engine.extract({ document: text, fields: CORPUS_FIELDS }), text);
      documents.push({ document: f.name, upload_id: null, pages: text.pages.length, result: reviewed, check: { review_required: reviewed.review_required, reasons: reviewed.review_reasons, flagged: [] } });
    }
    await extractionResultFiles({ fields: CORPUS_FIELDS, documents }, 'extraction');
    const directMs = performance.now() - t0;

    progress(`${form}: one flow-extract job of ${files.length} documents`);
    const polling = client.submitAndPoll({ operation: 'flow-extract', upload_ids: uploadIds, fields: [...CORPUS_FIELDS], options: {} } as never, `bench-${runId}-${form}`, opts.pollMs, run.signal);
    polling.catch(() => undefined);
    const polled = await withDeadline(polling, 30 * 60_000, `${form} job`, run.signal);
    const job = polled.job;
    if (job.status !== 'completed') throw new Error(`flow-extract job ${job.id} ${job.status}: ${job.error_code ?? ''} ${job.error ?? ''}`);
    if (job.charged_credits !== 25 * pages) problems.push(`${form} job charged ${job.charged_credits}, expected ${25 * pages}`);
    const json = JSON.parse((await client.download(job.result!.files[2]!.download_path)).toString('utf8')) as { documents: JsonDoc[] };
    let correct = 0;
    let given = 0;
    let expected = 0;
    let itemsRight = 0;
    let itemsAll = 0;
    for (const [i, d] of json.documents.entries()) {
      const s = measureExtraction(docs[i]!.truth, asResult(d));
      correct += s.counts.correct;
      given += s.counts.correct + s.counts.wrong + s.counts.spurious;
      expected += s.counts.correct + s.counts.wrong + s.counts.missed;
      itemsRight += s.items.right;
      itemsAll += Math.max(s.items.truth, s.items.extracted);
    }
    const ppm = (ms: number) => (pages / ms) * 60_000;
    rows.push([form, String(files.length), String(pages), fixed(directMs / 1000, 2), fixed(ppm(directMs), 1), fixed(polled.e2eMs / 1000, 2), fixed(ppm(polled.e2eMs), 1),
      `${fixed(polled.e2eMs / directMs, 2)}x`, fixed(correct / Math.max(1, given)), fixed(correct / Math.max(1, expected)), fixed(itemsRight / Math.max(1, itemsAll))]);
  }
  const cpu = os.cpus();
  process.stdout.write([
    `machine: node ${process.version}, ${process.platform} ${process.arch}, ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? 'unknown'}); load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    `database: ${description}; temporal: ${infra.temporalAddress}, task queue ${server.taskQueue}, in-process worker; engine: offline`,
    '',
    table(rows),
    '',
    problems.length ? `PROBLEMS:\n${problems.map((p) => `  - ${p}`).join('\n')}` : 'checks: every job completed and charged 25 credits per page',
    '',
  ].join('\n'));
  return problems.length === 0;
}

await runBenchmark({ progress, usage: USAGE, parseOptions, main });
