import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { checkDocument, mergeReview, type ReviewOutcome } from '../../domain/extraction-checks.js';
import { checkEvidence } from '../../domain/extraction-evidence.js';
import type { ExtractionResult, PositionedText } from '../../domain/extraction.js';
import { extractionResultFiles, type ExtractionDocumentResult } from '../documents/extraction-exports.js';
import type { OcrEngine } from '../media/ocr/ocr-engine.js';
import type { OperationRunner, RunnerOutput } from '../media/runner-contract.js';
import { readJsonIfExists, writeWhole } from '../storage/whole-files.js';
import { withEInvoices } from './einvoice/einvoice-engine.js';
import type { ExtractionProvider } from './extraction-provider.js';
import { conceptOf } from './offline-labels.js';
import { readSourceText } from './source-text.js';
import { inSpan } from '../tracing/tracing.js';

/**
 * `flow-extract` (docs/processing.md, "Field extraction"): each source document is read as positioned text, given to
 * the configured engine with the job's fields and instructions, every value's evidence is checked against the source
 * and the values against each other (the document's arithmetic and dates: domain/extraction-checks.ts); then the three result files (XLSX, the CSV files in one ZIP, JSON) are written with one row per document.
 * Each finished document is saved whole in the job's checkpoint folder, so a worker that dies resumes at the next
 * document (its progress is reported as the activity's heartbeat).
 *
 * The runner's `options` carry `fields` and `instructions` (the job's extraction, resolved when it was quoted).
 */
export interface ExtractionRunnerOptions {
  provider: ExtractionProvider;
  /** The Tesseract language(s) of scanned pages and images (the first of OCR_LANGUAGES). */
  language?: string;
}

/**
 * The platform's review of an engine's answer, whatever engine gave it: the evidence check (every value's snippet on
 * its page, the value derivable from it) and the document checks (its arithmetic and dates), the client's field
 * names mapped to the concepts the engines use (total, tax, dates…). What a job's results show; a benchmark calling
 * an engine directly uses it too, so it counts the same flags.
 */
export function reviewExtraction(result: ExtractionResult, document: PositionedText): ReviewOutcome {
  return mergeReview(
    checkEvidence(result, document),
    checkDocument(result, document, (f) => conceptOf(f).id),
  );
}

const documentFile = (dir: string, index: number) => join(dir, `document-${index}.json`);

/** The formats of the result files, in the order of extractionResultFiles: `xlsx`, `zip` (the CSV files), `json`. */
const FORMATS = ['xlsx', 'zip', 'json'] as const;

export function createExtractionRunner(engine: OcrEngine, opts: ExtractionRunnerOptions): OperationRunner {
  // E-invoices (a PDF's embedded invoice XML, or the XML itself) are read from their XML (einvoice/einvoice-engine.ts).
  const provider = withEInvoices(opts.provider);
  return async ({ sources, options, workDir, checkpointDir, progress, signal }): Promise<RunnerOutput[]> => {
    const fields = (options['fields'] as string[] | undefined) ?? [];
    const instructions = typeof options['instructions'] === 'string' ? options['instructions'] : undefined;
    const documents: ExtractionDocumentResult[] = [];
    for (const [i, source] of sources.entries()) {
      const saved = checkpointDir
        ? await readJsonIfExists<ExtractionDocumentResult>(documentFile(checkpointDir, i))
        : null;
      if (saved) {
        documents.push(saved);
        continue;
      }
      const pagesDir = join(workDir, `document-${i}`);
      await mkdir(pagesDir, { recursive: true, mode: 0o700 });
      // Each step is a span of the job's trace (docs/observability.md); the OCR child processes are under the read.
      const step = { 'extraction.document': i };
      const text = await inSpan('extraction read', step, () =>
        readSourceText(source.path, {
          engine,
          workDir: pagesDir,
          ...(opts.language ? { language: opts.language } : {}),
          ...(signal ? { signal } : {}),
        }),
      );
      await rm(pagesDir, { recursive: true, force: true });
      const result = await inSpan(
        'engine extraction',
        { 'engine.name': 'extraction', 'extraction.provider': provider.name, ...step },
        () =>
          provider.extract({
            document: text,
            fields,
            ...(instructions ? { instructions } : {}),
            ...(signal ? { signal } : {}),
          }),
      );
      const check = await inSpan('extraction check', step, () => Promise.resolve(reviewExtraction(result, text)));
      const doc: ExtractionDocumentResult = {
        document: source.filename,
        upload_id: source.uploadId ?? null,
        // The pages the document was quoted and charged for (a capped text reads fewer); the reading's own count for a
        // source without a measure (direct calls).
        pages: source.pages ?? text.pages.length,
        result: { fields: result.fields, items: result.items, warnings: [...text.warnings, ...result.warnings] },
        check,
      };
      if (checkpointDir) await writeWhole(documentFile(checkpointDir, i), doc);
      documents.push(doc);
      progress?.({ fraction: (i + 1) / sources.length, detail: `${i + 1} of ${sources.length} documents` });
    }
    const files = await extractionResultFiles({ fields, documents }, 'extraction');
    return files.map((f, i) => ({ format: FORMATS[i]!, data: f.content }));
  };
}
