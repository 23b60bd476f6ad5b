/**
 * Field extraction benchmark, in one run on this machine.
 *
 * `--corpus real` (the default; bench/README.md, "Field extraction on real invoices"): the real corpus of
 * bench/extraction-corpus (invoices and receipts shipped in public registry packages, pinned and fetched by
 * bench/lib/extraction-corpus.ts), for the tune and held-out parts separately, in each form (text PDF, scanned PDF,
 * PNG of page 1, XML, an image as shipped): field recall and precision, line-item accuracy and wrong values returned without a review
 * flag, per language, as a client gets them through the API (one `flow-extract` job per part and form), and the
 * same chain called directly (the worker's own `flow-extract` runner), side by side in pages per minute.
 * `--verbose` prints the tune part's per-document diffs; `--diffs-file F` writes them to F; held-out diffs are
 * printed only with `--heldout-diffs` (tuning discipline: bench/extraction-corpus/README.md).
 *
 * `--corpus generated`: invoices generated from known values (support/invoice-corpus.ts; edge cases only),
 * as text PDFs and as scanned PDFs:
 *   1. the chain called directly on each file: positioned text (text layer or OCR), the offline engine, the evidence
 *      check, then the three exports;
 *   2. a `flow-extract` job with the same documents through the real /v1 API and Temporal (an in-process worker with
 *      the real runners);
 * side by side in pages per minute with their ratio, and the field precision/recall and line-item accuracy of the job's
 * JSON against the truth. See bench/README.md, "Field extraction".
 *
 * Run: npm run bench:extraction                      # the real corpus, both parts, every form
 *      npm run bench:extraction -- --split tune --forms text_pdf --verbose
 *      npm run bench:extraction -- --corpus generated --documents 10
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { basename, join } from 'node:path';
import { stderrProgress as progress } from '../adapters/infra/progress.js';
import { createLogger } from '../adapters/logging/logger.js';
import { ExtractionJson, extractionResultFiles } from '../adapters/documents/extraction-exports.js';
import { OfflineExtractionEngine } from '../adapters/extraction/offline-engine.js';
import { reviewExtraction } from '../adapters/extraction/extraction-runner.js';
import { readSourceText } from '../adapters/extraction/source-text.js';
import { createOcrEngine } from '../adapters/media/ocr/ocr-engine.js';
import { createFileOperationRunners } from '../adapters/media/operation-runners.js';
import type { OperationRunners } from '../adapters/media/runner-contract.js';
import { migrateLatest } from '../db/migrate.js';
import { createCompany, issueCompanyKey } from '../services/company/memberships.js';
import { grantCredits } from '../services/processing/credits.js';
import { installTemporalRuntime } from '../workers/temporal-runtime.js';
import {
  CORPUS_FIELDS,
  generateInvoice,
  LAYOUTS,
  renderInvoice,
  type InvoiceDocument,
  type RenderForm,
} from '../support/invoice-corpus.js';
import { startProcessingBench } from './lib/bench-worker.js';
import { openBenchDatabase } from './lib/bench-db.js';
import {
  ALL_FORMS,
  CANONICAL_FIELDS,
  corpusForm,
  fetchCorpus,
  formsOf,
  loadTruth,
  type CorpusForm,
  type CorpusSplit,
  type FetchedDocument,
} from './lib/extraction-corpus.js';
import { formatCorpusDiff, measureExtraction, scoreCorpusDocument } from './lib/extraction-measure.js';
import { accuracyRows, type ScoredDocument } from './lib/extraction-report.js';
import { benchArgs, intOption, runBenchmark, type RunLifecycle } from './lib/lifecycle.js';
import { table, withDeadline } from './lib/measure.js';
import { v1Client } from './lib/processing-client.js';
import { retireBenchCompany } from './lib/processing-db.js';
import { benchInfrastructure } from './lib/bench-infrastructure.js';

const RATE_LIMIT = '1000000000';

interface Options {
  corpus: 'real' | 'generated';
  documents: number;
  pollMs: number;
  splits: CorpusSplit[];
  forms: CorpusForm[];
  ids: string[] | null;
  api: boolean;
  verbose: boolean;
  heldoutDiffs: boolean;
  diffsFile: string | null;
}

const USAGE = `usage: tsx bench/extraction.ts [--corpus real|generated] [options]
  --corpus         real: the registry-package corpus of bench/extraction-corpus (default); generated: invoices made
                   from known values (edge cases)
 real corpus:
  --split          tune | heldout | both (default both)
  --forms          comma-separated of text_pdf, scanned_pdf, png, xml, image (default all)
  --ids            comma-separated document ids of the manifest (default all of the split)
  --no-api         the chain called directly only (no server, no job)
  --verbose        print the tune part's per-document diffs
  --diffs-file F   write the tune part's per-document diffs to F
  --heldout-diffs  also print the held-out part's diffs (for reports only: never tune on them)
 generated corpus:
  --documents      invoices per form (text PDF, scanned PDF), 1..20 (one flow-extract job takes at most 20) (default 10)
 both:
  --poll-ms        interval of the client's GET /v1/jobs/{id} polls, 1..5000 (default 200)`;

function parseOptions(argv: string[]): Options {
  const flags = new Set(['--no-api', '--verbose', '--heldout-diffs']);
  const v = benchArgs(
    argv.filter((a) => !flags.has(a)),
    ['corpus', 'documents', 'poll-ms', 'split', 'forms', 'ids', 'diffs-file'],
    USAGE,
  );
  const corpus = v.corpus ?? 'real';
  if (corpus !== 'real' && corpus !== 'generated')
    throw new Error(`--corpus must be real or generated (got ${corpus})`);
  const split = v.split ?? 'both';
  if (!['tune', 'heldout', 'both'].includes(split))
    throw new Error(`--split must be tune, heldout or both (got ${split})`);
  const forms = v.forms ? v.forms.split(',').map((f) => f.trim()) : [...ALL_FORMS];
  for (const f of forms)
    if (!ALL_FORMS.includes(f as CorpusForm)) throw new Error(`--forms: unknown form ${f} (${ALL_FORMS.join(', ')})`);
  return {
    corpus,
    documents: intOption('--documents', v.documents, 10, 1, 20),
    pollMs: intOption('--poll-ms', v['poll-ms'], 200, 1, 5000),
    splits: split === 'both' ? ['tune', 'heldout'] : [split as CorpusSplit],
    forms: forms as CorpusForm[],
    ids: v.ids
      ? v.ids
          .split(',')
          .map((i) => i.trim())
          .filter(Boolean)
      : null,
    api: !argv.includes('--no-api'),
    verbose: argv.includes('--verbose'),
    heldoutDiffs: argv.includes('--heldout-diffs'),
    diffsFile: v['diffs-file'] ?? null,
  };
}

const fixed = (n: number, d = 3) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');

interface JsonDoc {
  fields: Record<string, string | null>;
  items: Array<Record<string, string | null>>;
}
const asResult = (d: JsonDoc) =>
  ({
    fields: Object.fromEntries(
      Object.entries(d.fields).map(([k, v]) => [k, { value: v, evidence: null, confidence: null }]),
    ),
    items: d.items.map((it) =>
      Object.fromEntries(Object.entries(it).map(([k, v]) => [k, { value: v, evidence: null, confidence: null }])),
    ),
  }) as never;

type Client = ReturnType<typeof v1Client>;

interface Served {
  client: Client;
  runId: string;
  description: string;
  temporal: string;
  taskQueue: string;
}

/** The platform for the API path: infrastructure, a tenant with a key and credits, the API with an in-process worker. */
async function serve(run: RunLifecycle, work: string, credits: number, runners: OperationRunners): Promise<Served> {
  const env = {
    ...process.env,
    STORAGE_DIR: join(work, 'storage'),
    RATE_LIMIT_V1_PER_KEY_PER_MINUTE: RATE_LIMIT,
    RATE_LIMIT_V1_PER_IP_PER_MINUTE: RATE_LIMIT,
  };
  const logger = createLogger({ level: 'warn', name: 'bench-extraction' });
  installTemporalRuntime(logger);
  const { config, infra } = await benchInfrastructure(run, env);
  const runId = randomBytes(4).toString('hex');
  const { db, description } = await openBenchDatabase(infra, config, `tenant_bench_extraction_${runId}`, run);
  await migrateLatest(db);
  const { company, owner } = await createCompany(db, {
    name: `bench-extraction-${runId}`,
    ownerEmail: `bench-extraction-${runId}@example.com`,
  });
  if (!infra.adminDatabaseUrl) run.defer(`retire company ${company.id}`, () => retireBenchCompany(db, company.id));
  const { secret: apiKey } = await issueCompanyKey(
    db,
    { companyId: company.id, memberId: owner.id, name: 'bench', scopes: ['read', 'write'] },
    new Date(),
  );
  await grantCredits(db, company.id, BigInt(credits), 'bench');
  const server = await startProcessingBench(run, { name: 'bench-extraction', infra, config, db, logger, runners });
  return {
    client: v1Client(server.url, apiKey),
    runId,
    description,
    temporal: infra.temporalAddress,
    taskQueue: server.taskQueue,
  };
}

function machineLine(): string {
  const cpu = os.cpus();
  return `machine: node ${process.version}, ${process.platform} ${process.arch}, ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? 'unknown'}); load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;
}

async function main(opts: Options, run: RunLifecycle): Promise<boolean> {
  const work = await mkdtemp(join(os.tmpdir(), 'bench-extraction-'));
  run.defer(`remove ${work}`, () => rm(work, { recursive: true, force: true }));
  return opts.corpus === 'real' ? realCorpus(opts, run, work) : generatedCorpus(opts, run, work);
}

// ---------------------------------------------------------------------------------------------------------------
// The real corpus

/** The document's JSON result (the third of the runner's files), as a client downloads it. */
const jsonDocuments = (bytes: Uint8Array): ExtractionJson['documents'] =>
  ExtractionJson.parse(JSON.parse(Buffer.from(bytes).toString('utf8'))).documents;

async function realCorpus(opts: Options, run: RunLifecycle, work: string): Promise<boolean> {
  const fetched = (await fetchCorpus({ ...(opts.ids ? { ids: opts.ids } : {}), progress })).filter((f) =>
    opts.splits.includes(f.doc.split),
  );
  const runners = createFileOperationRunners();
  const served = opts.api ? await serve(run, work, 25 * 4 * 200 + 1000, runners) : null;
  const fields = [...CANONICAL_FIELDS];
  const problems: string[] = [];
  const scoredApi: ScoredDocument[] = [];
  const scoredDirect: ScoredDocument[] = [];
  const speed: string[][] = [
    [
      'split',
      'form',
      'documents',
      'pages',
      'direct s',
      'direct pages/min',
      'API s',
      'API pages/min',
      'ratio API/direct',
      'answers differ',
    ],
  ];
  const diffs: Record<CorpusSplit, string[]> = { tune: [], heldout: [] };
  let warmedUp = false;
  const directRun = async (
    sources: Array<{ path: string; filename: string }>,
  ): Promise<ExtractionJson['documents']> => {
    const dir = await mkdtemp(join(work, 'direct-'));
    try {
      const out = await runners['flow-extract']({
        sources,
        options: { fields },
        workDir: dir,
        signal: run.signal,
        progress: (p) => progress(`  direct: ${p.detail ?? ''}`),
      });
      const json = out[2]!;
      return jsonDocuments('data' in json ? json.data : await readFile(json.path));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };

  for (const split of opts.splits) {
    for (const form of opts.forms) {
      const group: Array<{ f: FetchedDocument; path: string }> = [];
      for (const f of fetched.filter((x) => x.doc.split === split && formsOf(x.doc).includes(form)))
        group.push({ f, path: await corpusForm(f, form) });
      if (!group.length) continue;
      const label = `${split} ${form}`;

      progress(`${label}: ${group.length} documents, the chain directly (the worker's flow-extract runner)`);
      const sources = group.map((g, i) => ({
        path: g.path,
        filename: `${String(i).padStart(2, '0')}-${g.f.doc.id}.${basename(g.path).split('.').pop()}`,
      }));
      if (!warmedUp) {
        // One untimed call first, so the first timed group does not pay for loading the modules and tools.
        await directRun(sources.slice(0, 1));
        warmedUp = true;
      }
      const t0 = performance.now();
      // One call with every document, as the job's activity makes it.
      const direct = await directRun(sources);
      const directMs = performance.now() - t0;
      const pages = direct.reduce((n, d) => n + d.pages, 0);

      let answers = direct;
      let apiMs = Number.NaN;
      if (served) {
        progress(`${label}: one flow-extract job of ${group.length} documents through the API`);
        const uploadIds: string[] = [];
        for (const [i, src] of sources.entries())
          uploadIds.push(await served.client.upload(src.filename, await readFile(group[i]!.path)));
        const polling = served.client.submitAndPoll(
          { operation: 'flow-extract', upload_ids: uploadIds, fields, options: {} } as never,
          `bench-${served.runId}-${split}-${form}`,
          opts.pollMs,
          run.signal,
        );
        polling.catch(() => undefined);
        const polled = await withDeadline(polling, 60 * 60_000, `${label} job`, run.signal);
        const job = polled.job;
        if (job.status !== 'completed')
          throw new Error(`flow-extract job ${job.id} ${job.status}: ${job.error_code ?? ''} ${job.error ?? ''}`);
        if (job.charged_credits !== 25 * pages)
          problems.push(`${label} job charged ${job.charged_credits}, expected ${25 * pages} (25 a page)`);
        answers = jsonDocuments(await served.client.download(job.result!.files[2]!.download_path));
        apiMs = polled.e2eMs;
      }
      let differ = 0;
      for (const [i, g] of group.entries()) {
        const truth = loadTruth(g.f.doc.id);
        const a = answers[i]!;
        const d = direct[i]!;
        if (
          JSON.stringify([a.fields, a.items, a.review_required]) !==
          JSON.stringify([d.fields, d.items, d.review_required])
        )
          differ++;
        const score = scoreCorpusDocument(truth, a);
        scoredApi.push({ doc: g.f.doc, form, pages: a.pages, score });
        scoredDirect.push({ doc: g.f.doc, form, pages: d.pages, score: scoreCorpusDocument(truth, d) });
        diffs[split].push(`[${form}] ${formatCorpusDiff(g.f.doc.id, score)}`);
      }
      const ppm = (ms: number) => (pages / ms) * 60_000;
      speed.push([
        split,
        form,
        String(group.length),
        String(pages),
        fixed(directMs / 1000, 1),
        fixed(ppm(directMs), 1),
        fixed(apiMs / 1000, 1),
        fixed(ppm(apiMs), 1),
        Number.isFinite(apiMs) ? `${fixed(apiMs / directMs, 2)}x` : 'n/a',
        served ? String(differ) : 'n/a',
      ]);
    }
  }

  if (opts.diffsFile) await writeFile(opts.diffsFile, `${diffs.tune.join('\n\n')}\n`);
  process.stdout.write(
    [
      machineLine(),
      served
        ? `database: ${served.description}; temporal: ${served.temporal}, task queue ${served.taskQueue}, in-process worker; engine: offline`
        : 'the chain called directly only (--no-api)',
      '',
      `accuracy (${served ? 'the JSON a client downloads from the flow-extract job' : 'the chain called directly'}; fields: ${fields.join(', ')}):`,
      table(accuracyRows(served ? scoredApi : scoredDirect)),
      '',
      'speed (pages per minute; "answers differ": documents whose fields, items or review flag differ between the job and the direct call):',
      table(speed),
      '',
      ...(opts.verbose ? ['per-document diffs, tune part:', '', diffs.tune.join('\n\n'), ''] : []),
      ...(opts.heldoutDiffs
        ? ['per-document diffs, HELD-OUT part (do not tune on these):', '', diffs.heldout.join('\n\n'), '']
        : []),
      problems.length
        ? `PROBLEMS:\n${problems.map((p) => `  - ${p}`).join('\n')}`
        : served
          ? 'checks: every job completed and charged 25 credits per page'
          : '',
      '',
    ].join('\n'),
  );
  return problems.length === 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Generated invoices (edge cases)

async function generatedCorpus(opts: Options, run: RunLifecycle, work: string): Promise<boolean> {
  const served = await serve(run, work, opts.documents * 2 * 25 * 4 + 1000, createFileOperationRunners());
  const { client, runId } = served;
  const ocr = createOcrEngine();
  const engine = new OfflineExtractionEngine();
  const problems: string[] = [];
  const rows: string[][] = [
    [
      'form',
      'documents',
      'pages',
      'direct s',
      'direct pages/min',
      'job s',
      'job pages/min',
      'ratio job/direct',
      'precision',
      'recall',
      'items',
    ],
  ];

  for (const form of ['text_pdf', 'scanned_pdf'] as RenderForm[]) {
    progress(`${form}: generating ${opts.documents} invoices`);
    const docs: InvoiceDocument[] = Array.from({ length: opts.documents }, (_, i) =>
      generateInvoice(1000 + i, { layout: LAYOUTS[i % LAYOUTS.length]!, itemCount: 1 + ((i * 7) % 12) }),
    );
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
      const text = await readSourceText(f.path, {
        engine: ocr,
        workDir: await mkdtemp(join(work, 'direct-')),
        signal: run.signal,
      });
      pages += text.pages.length;
      const result = await engine.extract({ document: text, fields: CORPUS_FIELDS });
      const check = reviewExtraction(result, text);
      documents.push({
        document: f.name,
        upload_id: null,
        pages: text.pages.length,
        result: { fields: result.fields, items: result.items, warnings: [...text.warnings, ...result.warnings] },
        check,
      });
    }
    await extractionResultFiles({ fields: CORPUS_FIELDS, documents }, 'extraction');
    const directMs = performance.now() - t0;

    progress(`${form}: one flow-extract job of ${files.length} documents`);
    const polling = client.submitAndPoll(
      { operation: 'flow-extract', upload_ids: uploadIds, fields: [...CORPUS_FIELDS], options: {} } as never,
      `bench-${runId}-${form}`,
      opts.pollMs,
      run.signal,
    );
    polling.catch(() => undefined);
    const polled = await withDeadline(polling, 30 * 60_000, `${form} job`, run.signal);
    const job = polled.job;
    if (job.status !== 'completed')
      throw new Error(`flow-extract job ${job.id} ${job.status}: ${job.error_code ?? ''} ${job.error ?? ''}`);
    if (job.charged_credits !== 25 * pages)
      problems.push(`${form} job charged ${job.charged_credits}, expected ${25 * pages}`);
    const json = JSON.parse((await client.download(job.result!.files[2]!.download_path)).toString('utf8')) as {
      documents: JsonDoc[];
    };
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
    rows.push([
      form,
      String(files.length),
      String(pages),
      fixed(directMs / 1000, 2),
      fixed(ppm(directMs), 1),
      fixed(polled.e2eMs / 1000, 2),
      fixed(ppm(polled.e2eMs), 1),
      `${fixed(polled.e2eMs / directMs, 2)}x`,
      fixed(correct / Math.max(1, given)),
      fixed(correct / Math.max(1, expected)),
      fixed(itemsRight / Math.max(1, itemsAll)),
    ]);
  }
  process.stdout.write(
    [
      machineLine(),
      `database: ${served.description}; temporal: ${served.temporal}, task queue ${served.taskQueue}, in-process worker; engine: offline`,
      '',
      table(rows),
      '',
      problems.length
        ? `PROBLEMS:\n${problems.map((p) => `  - ${p}`).join('\n')}`
        : 'checks: every job completed and charged 25 credits per page',
      '',
    ].join('\n'),
  );
  return problems.length === 0;
}

await runBenchmark({ progress, usage: USAGE, parseOptions, main });
