import type { z } from 'zod';
import type { extractionReviewSchema } from '../../domain/validation/company-responses.js';
import { readFile } from 'node:fs/promises';
import type Router from '@koa/router';
import { DomainError } from '../../domain/errors.js';
import { correctedValue, expectedForm, MAX_REVIEW_REVISIONS } from '../../domain/extraction-review.js';
import { LINE_ITEM_COLUMNS, type ExtractedValue, type LineItemColumn } from '../../domain/extraction.js';
import { parseCorrections } from '../../domain/validation/extraction-corrections.js';
import { invalidBody } from '../../domain/validation/proof-request.js';
import type { FieldIssue } from '../../domain/validation/proof-request.js';
import {
  extractionResultFiles,
  flagOf,
  type ExtractionExportInput,
} from '../../adapters/documents/extraction-exports.js';
import { lineEvidence } from '../../domain/extraction-evidence.js';
import {
  applyCorrections,
  exportInputFromJson,
  reviewedFileName,
  type StoredCorrection,
} from '../../adapters/documents/extraction-review.js';
import { newId } from '../../adapters/crypto/tokens.js';
import type { FileStore } from '../../adapters/storage/file-store.js';
import type { Db } from '../../db/connection.js';
import {
  insertExtractionCorrections,
  listExtractionCorrections,
  type CorrectionRecord,
} from '../../db/repositories/extraction-corrections.repo.js';
import { lockCompletedJob, setResultFiles, type Job, type ResultFile } from '../../db/repositories/jobs.repo.js';
import type { AppState } from '../http/context.js';
import { memberOf } from '../http/context.js';
import { resultsExpired } from '../../services/processing/records.js';
import { companyJob } from '../../services/processing/records.js';

/**
 * Review of a `flow-extract` job in the company session (spec section 2, Records: "Review corrections of extracted
 * scalar fields are made in the dashboard, are recorded, and regenerate exports without a new charge";
 * docs/processing.md "Review corrections"). Any member of the company may review: a correction is recorded with
 * who made it, when, the value before and after; each request is one revision, which renders the three exports again
 * as new result files (`<name>-reviewed.xlsx`, `-reviewed-csv.zip`, `-reviewed.json`) beside the originals, which are
 * never changed. Only the latest revision's files are kept (the corrections log holds every revision). No credits move.
 */

export interface ExtractionReviewDeps {
  db: Db;
  store: FileStore;
  now: () => Date;
}

/** The first result files of a flow-extract job: its exports as the engine made them (XLSX, CSV ZIP, JSON). */
const ORIGINAL_FILES = 3;

export const sessionDownloadPath = (jobId: string, index: number) => `/api/company/jobs/${jobId}/results/${index}`;

interface LoadedReview {
  job: Job;
  fields: string[];
  original: ExtractionExportInput;
  current: ExtractionExportInput;
  corrections: CorrectionRecord[];
  revision: number;
}

/** A completed flow-extract job whose results are still kept, with its JSON result read and the corrections applied. */
async function loadReview(db: Db, store: FileStore, job: Job, now: Date): Promise<LoadedReview> {
  if (job.operation !== 'flow-extract' || !job.extraction)
    throw new DomainError(
      'conflict',
      `Only flow-extract jobs have an extraction to review; this job is ${job.operation}`,
    );
  if (job.status !== 'completed' || !job.resultFiles)
    throw new DomainError('conflict', `The job is ${job.status}; its extraction can be reviewed once it has completed`);
  if (resultsExpired(job, now))
    throw new DomainError(
      'gone',
      'The results of this job have expired (results are kept 7 days); its corrections log is kept',
    );
  const json = job.resultFiles.slice(0, ORIGINAL_FILES).find((f) => f.contentType === 'application/json');
  const raw = json ? await readFile(store.pathOf(json.storageId), 'utf8').catch(() => null) : null;
  if (raw === null) throw new DomainError('gone', 'The results of this job are no longer stored');
  const fields = job.extraction.fields;
  const original = exportInputFromJson(JSON.parse(raw), fields);
  const corrections = await listExtractionCorrections(db, job.id);
  return {
    job,
    fields,
    original,
    current: applyCorrections(original, corrections),
    corrections,
    revision: corrections.reduce((m, c) => Math.max(m, c.revision), 0),
  };
}

const evidenceJson = (v: ExtractedValue | undefined) => {
  const ev = v?.evidence;
  if (!ev) return null;
  const xml = ev.source === 'xml';
  return {
    page: ev.page,
    snippet: ev.snippet,
    box: ev.box,
    source: xml ? ('xml' as const) : ('page' as const),
    path: xml ? (ev.path ?? null) : null,
    file: xml ? (ev.file ?? null) : null,
  };
};

/** The review as the dashboard shows it: every value beside the evidence it was read from and its flag. */
function reviewJson(r: LoadedReview): z.input<typeof extractionReviewSchema> {
  const files = (r.job.resultFiles ?? []).map((f, i) => ({
    index: i,
    name: f.name,
    download_path: sessionDownloadPath(r.job.id, i),
    bytes: f.bytes,
    content_type: f.contentType,
  }));
  return {
    job_id: r.job.id,
    revision: r.revision,
    fields: r.fields,
    forms: Object.fromEntries(r.fields.map((f) => [f, expectedForm(f)])),
    review_required: r.current.documents.some((d) => d.check.review_required),
    documents: r.current.documents.map((d, i) => {
      const engine = r.original.documents[i]!;
      return {
        index: i,
        document: d.document,
        upload_id: d.upload_id,
        pages: d.pages,
        review_required: d.check.review_required,
        review_reasons: d.check.reasons,
        warnings: d.result.warnings,
        fields: Object.fromEntries(
          r.fields.map((f) => {
            const reason = flagOf(engine.check.flagged, { field: f });
            return [
              f,
              {
                value: d.result.fields[f]?.value ?? null,
                extracted_value: engine.result.fields[f]?.value ?? null,
                evidence: evidenceJson(engine.result.fields[f]),
                flagged: reason !== null,
                reason,
                corrected: (d.corrections ?? []).some((c) => c.field === f),
              },
            ];
          }),
        ),
        items: engine.result.items.map((item, n) => {
          const cell = (c: LineItemColumn) => {
            const reason = flagOf(engine.check.flagged, { item: n, column: c });
            return { value: item[c].value, evidence: evidenceJson(item[c]), flagged: reason !== null, reason };
          };
          return Object.fromEntries(LINE_ITEM_COLUMNS.map((c) => [c, cell(c)])) as Record<
            LineItemColumn,
            ReturnType<typeof cell>
          >;
        }),
        // Where each whole line is (page, the union of its cells' boxes, their snippets), for the reviewer.
        lines: engine.result.items.map((item) =>
          evidenceJson({ value: '', evidence: lineEvidence(item), confidence: null }),
        ),
      };
    }),
    corrections: r.corrections.map((c) => ({
      id: c.id,
      revision: c.revision,
      document: c.document,
      field: c.field,
      previous_value: c.previous_value,
      value: c.value,
      corrected_by: c.corrected_by,
      corrected_at: c.corrected_at,
    })),
    files: { original: files.slice(0, ORIGINAL_FILES), reviewed: files.slice(ORIGINAL_FILES) },
    expires_at: r.job.resultsExpireAt?.toISOString() ?? null,
  };
}

/** The corrections of a request checked against the job (document, field, value form), as stored rows. */
function checkCorrections(
  review: LoadedReview,
  body: ReturnType<typeof parseCorrections>,
  who: string,
  at: Date,
): StoredCorrection[] {
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  const rows: StoredCorrection[] = [];
  body.corrections.forEach((c, i) => {
    const doc = review.current.documents[c.document];
    if (!doc)
      return issues.push({
        path: `corrections.${i}.document`,
        message: `the job has ${review.current.documents.length} document(s), numbered from 0`,
      });
    if (!review.fields.includes(c.field)) {
      return issues.push({
        path: `corrections.${i}.field`,
        message: `not a field of this job (its fields: ${review.fields.join(', ')}); line items are not corrected here`,
      });
    }
    const key = `${c.document}\u0000${c.field}`;
    if (seen.has(key))
      return issues.push({
        path: `corrections.${i}`,
        message: "this document's field is corrected twice in one request",
      });
    seen.add(key);
    const checked = correctedValue(c.field, c.value);
    if ('error' in checked) return issues.push({ path: `corrections.${i}.value`, message: checked.error });
    rows.push({
      document: c.document,
      field: c.field,
      previous_value: doc.result.fields[c.field]?.value ?? null,
      value: checked.value,
      revision: review.revision + 1,
      corrected_by: who,
      corrected_at: at.toISOString(),
    });
    return undefined;
  });
  if (issues.length > 0) invalidBody(issues);
  return rows;
}

export function mountExtractionReview(router: Router<AppState>, deps: ExtractionReviewDeps): void {
  /** GET /api/company/jobs/{id}/extraction: the review of a completed flow-extract job (any member). */
  router.get('/jobs/:id/extraction', async (ctx) => {
    const job = await companyJob(deps.db, memberOf(ctx).companyId, ctx.params['id'] ?? '');
    ctx.body = reviewJson(await loadReview(deps.db, deps.store, job, deps.now()));
  });

  /**
   * POST /api/company/jobs/{id}/extraction/corrections: one revision of corrections (any member). Serialised on the
   * job's row: a request whose `revision` is not the current one gets 409 and changes nothing. The new exports are
   * written before the transaction commits and removed if it does not; the previous revision's files are removed
   * after it commits.
   */
  router.post('/jobs/:id/extraction/corrections', async (ctx) => {
    const body = parseCorrections(ctx.request.body);
    const me = memberOf(ctx);
    const at = deps.now();
    await companyJob(deps.db, me.companyId, ctx.params['id'] ?? ''); // 404 before the lock for a foreign or unknown id
    const written: string[] = [];
    let replaced: ResultFile[] = [];
    let review: LoadedReview;
    try {
      review = await deps.db.transaction(async (trx) => {
        const job = await lockCompletedJob(trx, me.companyId, ctx.params['id'] ?? '');
        if (!job)
          throw new DomainError(
            'conflict',
            'The job is not completed; its extraction can be reviewed once it has completed',
          );
        const loaded = await loadReview(trx, deps.store, job, at);
        if (body.revision !== loaded.revision) {
          throw new DomainError(
            'conflict',
            `The review is at revision ${loaded.revision}, not ${body.revision}: reload it and correct again`,
            { fields: { revision: loaded.revision } },
          );
        }
        if (loaded.revision >= MAX_REVIEW_REVISIONS)
          throw new DomainError('limit_reached', `A job has at most ${MAX_REVIEW_REVISIONS} review revisions`);
        const rows = checkCorrections(loaded, body, me.email, at);
        const next = applyCorrections(loaded.current, rows);
        const originals = job.resultFiles!.slice(0, ORIGINAL_FILES);
        const rendered = await extractionResultFiles(next, 'reviewed', { date: at });
        const files: ResultFile[] = [];
        for (const [i, f] of rendered.entries()) {
          const storageId = newId('res');
          written.push(storageId);
          await deps.store.put(storageId, f.content);
          files.push({
            name: reviewedFileName(originals[i]?.name ?? f.name),
            storageId,
            bytes: f.content.length,
            contentType: f.mime,
          });
        }
        replaced = job.resultFiles!.slice(ORIGINAL_FILES);
        const resultFiles = [...originals, ...files];
        await setResultFiles(trx, job.id, resultFiles);
        await insertExtractionCorrections(
          trx,
          job,
          loaded.revision + 1,
          me,
          rows.map((r) => ({ document: r.document, field: r.field, previousValue: r.previous_value, value: r.value })),
          at,
        );
        return {
          ...loaded,
          job: { ...job, resultFiles },
          current: next,
          corrections: await listExtractionCorrections(trx, job.id),
          revision: loaded.revision + 1,
        };
      });
    } catch (e) {
      for (const id of written) await deps.store.remove(id);
      throw e;
    }
    for (const f of replaced) await deps.store.remove(f.storageId);
    ctx.status = 201;
    ctx.body = reviewJson(review);
  });
}
