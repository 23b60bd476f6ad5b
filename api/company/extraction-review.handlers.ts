import type { z } from 'zod';
import type { extractionReviewSchema } from '../../domain/validation/company-responses.js';
import type Router from '@koa/router';
import { expectedForm } from '../../domain/extraction-review.js';
import { LINE_ITEM_COLUMNS, type ExtractedValue, type LineItemColumn } from '../../domain/extraction.js';
import { parseCorrections } from '../../domain/validation/extraction-corrections.js';
import { flagOf } from '../../adapters/documents/extraction-exports.js';
import { lineEvidence } from '../../domain/extraction-evidence.js';
import type { FileStore } from '../../adapters/storage/file-store.js';
import type { Db } from '../../db/connection.js';
import type { AppState } from '../http/context.js';
import { memberOf } from '../http/context.js';
import {
  correctExtraction,
  ORIGINAL_FILES,
  readReview,
  type LoadedReview,
} from '../../services/processing/extraction-review.js';

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

export const sessionDownloadPath = (jobId: string, index: number) => `/api/company/jobs/${jobId}/results/${index}`;

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

export function mountExtractionReview(router: Router<AppState>, deps: ExtractionReviewDeps): void {
  /** GET /api/company/jobs/{id}/extraction: the review of a completed flow-extract job (any member). */
  router.get('/jobs/:id/extraction', async (ctx) => {
    ctx.body = reviewJson(await readReview(deps, memberOf(ctx).companyId, ctx.params['id'] ?? ''));
  });

  /**
   * POST /api/company/jobs/{id}/extraction/corrections: one revision of corrections (any member). Serialised on the
   * job's row: a request whose `revision` is not the current one gets 409 and changes nothing. The new exports are
   * written before the transaction commits and removed if it does not; the previous revision's files are removed
   * after it commits.
   */
  router.post('/jobs/:id/extraction/corrections', async (ctx) => {
    const body = parseCorrections(ctx.request.body);
    const review = await correctExtraction(deps, memberOf(ctx), ctx.params['id'] ?? '', body);
    ctx.status = 201;
    ctx.body = reviewJson(review);
  });
}
