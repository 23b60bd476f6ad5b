import { readFile } from 'node:fs/promises';
import { DomainError } from '../../domain/errors.js';
import { correctedValue, MAX_REVIEW_REVISIONS } from '../../domain/extraction-review.js';
import type { parseCorrections } from '../../domain/validation/extraction-corrections.js';
import { invalidBody, type FieldIssue } from '../../domain/validation/proof-request.js';
import { extractionResultFiles, type ExtractionExportInput } from '../../adapters/documents/extraction-exports.js';
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
import { companyJob, resultsExpired } from './records.js';

/*
 * Review of a `flow-extract` job in the company session (spec section 2, Records; docs/processing.md "Review
 * corrections"): the review read from the job's JSON result with the recorded corrections applied, and one revision
 * of corrections, which renders the three exports again as new result files beside the originals (never changed).
 * Only the latest revision's files are kept (the corrections log holds every revision). No credits move.
 */

export interface ReviewDeps {
  db: Db;
  store: FileStore;
  now: () => Date;
}

/** The first result files of a flow-extract job: its exports as the engine made them (XLSX, CSV ZIP, JSON). */
export const ORIGINAL_FILES = 3;

export interface LoadedReview {
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

/** The review of a company's completed flow-extract job (unknown or another company's → not found). */
export async function readReview(deps: ReviewDeps, companyId: string, jobId: string): Promise<LoadedReview> {
  const job = await companyJob(deps.db, companyId, jobId);
  return loadReview(deps.db, deps.store, job, deps.now());
}

/**
 * One revision of corrections by a member, serialised on the job's row: unknown or another company's job → not
 * found (before the lock); a job not completed, or a `revision` that is not the current one → conflict, changing
 * nothing; past MAX_REVIEW_REVISIONS → limit_reached; each correction checked (422 naming it). The new exports are
 * written before the transaction commits and removed if it does not; the previous revision's files are removed after
 * it commits. The review as it now reads.
 */
export async function correctExtraction(
  deps: ReviewDeps,
  me: { companyId: string; id: string; email: string },
  jobId: string,
  body: ReturnType<typeof parseCorrections>,
): Promise<LoadedReview> {
  const at = deps.now();
  await companyJob(deps.db, me.companyId, jobId); // 404 before the lock for a foreign or unknown id
  const written: string[] = [];
  let replaced: ResultFile[] = [];
  let review: LoadedReview;
  try {
    review = await deps.db.transaction(async (trx) => {
      const job = await lockCompletedJob(trx, me.companyId, jobId);
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
  return review;
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
