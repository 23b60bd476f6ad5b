import type Router from '@koa/router';
import { BATCH_LIMITS, isBatchTerminal } from '../../domain/batches.js';
import { DomainError } from '../../domain/errors.js';
import { parseBatchRequest, type BatchRequest } from '../../domain/validation/processing-request.js';
import type { Db } from '../../db/connection.js';
import { batchCounts, batchCredits, getBatch, type Batch } from '../../db/repositories/batches.repo.js';
import { listBatchChildren, type Job } from '../../db/repositories/jobs.repo.js';
import type { AppContext, AppState } from '../http/context.js';
import { keyOf } from '../http/context.js';
import { jsonBody } from '../http/body.js';
import { parseAfter, parseLimit } from '../http/pagination.js';
import { acceptedLocation, RESOURCE_PATHS } from './accepted.js';
import { assertNoFields, jobJson, v1Idempotent, type JobsRouteDeps } from './jobs.routes.js';
import { cancelQueuedBatchJobs } from '../../db/repositories/job-cancel.repo.js';
import { quoteChildren, retryFailedItems, submitJobs, type ChildSpec } from './submission.service.js';
import { streamBatchZip } from './batch-zip.js';
import type { FileStore } from '../../adapters/storage/file-store.js';
import type { Logger } from '../../adapters/logging/logger.js';

/** The batch routes need what the job routes need: they submit through the same code. */
export type BatchesRouteDeps = JobsRouteDeps;

const childrenOf = (req: BatchRequest): ChildSpec[] =>
  req.items.map((item) => ({ request: { operation: req.operation, uploadIds: item.uploadIds, options: req.options, extraction: req.extraction, webhookId: undefined }, sourcePath: item.sourcePath }));

/**
 * A child as its batch shows it: the job record and its position; a child the client deleted (`DELETE /v1/jobs/{id}`)
 * keeps its state and credits but says when it was deleted and has no result (its files are gone).
 */
const batchChildJson = (j: Job) => ({
  item_index: j.itemIndex!,
  ...jobJson(j),
  ...(j.deletedAt ? { result: null } : {}),
  deleted_at: j.deletedAt?.toISOString() ?? null,
});

/** The batch record: aggregate progress and credits, then the children (item order) with their job metadata, paged. */
export async function batchJson(db: Db, batch: Batch, page: { after: number; limit: number } = { after: 0, limit: BATCH_LIMITS.childrenPageDefault }) {
  const summary = await batchSummaryJson(db, batch);
  const children = await listBatchChildren(db, batch.id);
  const shown = children.filter((j) => j.itemIndex! >= page.after).slice(0, page.limit);
  const last = shown.at(-1);
  return {
    ...summary,
    jobs: shown.map(batchChildJson),
    next_after: last && last.itemIndex! < batch.itemCount - 1 ? last.itemIndex! + 1 : null,
  };
}

/** The batch without its children: what lists show. */
export async function batchSummaryJson(db: Db, batch: Batch) {
  // One after the other: `db` may be a transaction (one connection), which must not be sent concurrent queries.
  const counts = await batchCounts(db, batch.id);
  const credits = await batchCredits(db, batch.id);
  return {
    id: batch.id,
    status: batch.status,
    operation: batch.operation,
    options: batch.options,
    item_count: batch.itemCount,
    retry_of: batch.retryOf,
    webhook_id: batch.webhookId,
    webhook_mode: batch.webhookMode,
    created_at: batch.createdAt.toISOString(),
    started_at: batch.startedAt?.toISOString() ?? null,
    finished_at: batch.finishedAt?.toISOString() ?? null,
    progress: counts,
    credits: { estimated: batch.quotedCredits, ...credits },
  };
}

export type BatchRecord = Awaited<ReturnType<typeof batchJson>>;

/** retry-failed takes no body (or an empty JSON object): every field is refused, naming it. */
export const RETRY_BODY = {
  field: 'retry-failed takes no fields: the new batch repeats the failed items as they were',
  body: 'retry-failed takes no body, or an empty JSON object',
};

export function mountBatches(router: Router<AppState>, deps: BatchesRouteDeps): void {
  const now = deps.now ?? (() => new Date());
  const companyOf = (ctx: AppContext) => keyOf(ctx).tenantId;
  const quoteDeps = { db: deps.db, store: deps.store, qpdf: deps.qpdf, ...(deps.ocrLanguages ? { ocrLanguages: deps.ocrLanguages } : {}), ...(deps.video ? { video: deps.video } : {}), now };
  const findBatch = (ctx: AppContext): Promise<Batch> => companyBatch(deps.db, companyOf(ctx), ctx.params['id'] ?? '');
  const needsWorkflows = async (_ctx: AppContext, next: () => Promise<unknown>) => {
    if (!deps.workflows) throw new DomainError('service_unavailable', 'Batch processing is not available right now; retry later');
    await next();
  };
  const idempotentAs = (operation: string) => v1Idempotent(deps, operation, { withParams: true });
  const submitDeps = () => ({ ...quoteDeps, secretBox: deps.secretBox, workflows: deps.workflows! });

  /** POST /v1/batches/estimate: the whole batch's quote and each item's, measured on the server; reserves nothing. */
  router.post('/batches/estimate', jsonBody(deps.bodyLimitJson), async (ctx) => {
    const req = parseBatchRequest(ctx.request.body);
    const { quotes, total } = await quoteChildren(quoteDeps, companyOf(ctx), childrenOf(req), req.maxCredits, req.webhookId);
    ctx.body = {
      operation: req.operation,
      estimated_credits: total,
      items: quotes.map((q, i) => ({ item_index: i, upload_ids: req.items[i]!.uploadIds, estimated_credits: q.credits })),
    };
  });

  /**
   * POST /v1/batches: atomic. In one transaction under the company lock: the queue limit counts every child, the
   * whole quote is checked against `max_credits` and the wallet, each child's quote is reserved and every child
   * recorded; `batch:<id>` starts after commit. Any refusal leaves nothing behind. Idempotency-Key as for jobs.
   */
  router.post('/batches', needsWorkflows, acceptedLocation(RESOURCE_PATHS.batch), jsonBody(deps.bodyLimitJson), idempotentAs('batches.create'), async (ctx) => {
    const req = parseBatchRequest(ctx.request.body);
    const trx = ctx.state.trx!;
    const { batch } = await submitJobs(submitDeps(), trx, ctx.state.afterCommit!, {
      companyId: companyOf(ctx),
      submitter: { apiKeyId: keyOf(ctx).id },
      children: childrenOf(req),
      maxCredits: req.maxCredits,
      batch: { webhookId: req.webhookId, webhookMode: req.webhookMode, retryOf: null },
    });
    ctx.state.resourceId = batch!.id;
    ctx.status = 202;
    ctx.body = await batchJson(trx, batch!);
  });

  /** GET /v1/batches/{id}: progress, credits and the children (`limit` 1 to 100, `after` = first item index). */
  router.get('/batches/:id', async (ctx) => {
    ctx.body = await batchJson(deps.db, await findBatch(ctx), childrenPage(ctx));
  });

  /**
   * POST /v1/batches/{id}/retry-failed: a new batch (`retry_of` the original) of the failed items only, each child
   * quoted and reserved anew. 409 `batch_not_terminal` while the batch runs, `batch_has_no_failed_items` when nothing
   * failed, `batch_retry_needs_password` for password operations (the password is not kept after a job ends).
   */
  router.post('/batches/:id/retry-failed', needsWorkflows, acceptedLocation(RESOURCE_PATHS.batch), jsonBody(deps.bodyLimitJson), idempotentAs('batches.retry_failed'), async (ctx) => {
    assertNoFields(ctx.request.body, RETRY_BODY);
    const original = await findBatch(ctx);
    const trx = ctx.state.trx!;
    const { batch } = await retryFailedItems(submitDeps(), trx, ctx.state.afterCommit!, { original, submitter: { apiKeyId: keyOf(ctx).id } });
    ctx.state.resourceId = batch!.id;
    ctx.status = 202;
    ctx.body = await batchJson(trx, batch!);
  });

  /**
   * POST /v1/batches/{id}/cancel: every still-queued item → cancelled, each reservation released once, in one
   * transaction (cancelQueuedBatchJobs); items already processing or ended are left alone, and the batch ends as its
   * children do (cancelled items count as not completed). Ended, or nothing queued → 409 `batch_not_cancellable`.
   */
  router.post('/batches/:id/cancel', jsonBody(deps.bodyLimitJson), async (ctx) => {
    assertNoFields(ctx.request.body);
    const batch = await findBatch(ctx);
    if (isBatchTerminal(batch.status)) throw new DomainError('batch_not_cancellable', `The batch is ${batch.status}; only the queued items of a running batch can be cancelled`);
    const cancelled = await cancelQueuedBatchJobs(deps.db, batch.companyId, batch.id, now());
    if (cancelled.length === 0) throw new DomainError('batch_not_cancellable', 'No item of this batch is still queued; nothing was cancelled');
    ctx.body = { cancelled_job_ids: cancelled, batch: await batchJson(deps.db, (await getBatch(deps.db, batch.companyId, batch.id))!) };
  });

  /**
   * GET /v1/batches/{id}/results.zip: once the batch has ended (409 `batch_not_terminal` before), the successful
   * results in one folder per item plus manifest.json, streamed; over 1 GB → 413 `batch_zip_too_large`; results
   * past retention → 410.
   */
  router.get('/batches/:id/results.zip', async (ctx) => {
    await sendBatchResults(ctx, { ...deps, now: now() }, await findBatch(ctx));
  });
}

/** A batch of the company, or 404 (another company's id is the same answer): for /v1 and the company session. */
export async function companyBatch(db: Db, companyId: string, id: string): Promise<Batch> {
  const batch = await getBatch(db, companyId, id);
  if (!batch) throw new DomainError('not_found', 'Batch not found');
  return batch;
}

/** The page of a batch's children a request asks for: `limit` 1 to the batch maximum, `after` the first item index. */
export const childrenPage = (ctx: AppContext) => ({
  limit: parseLimit(ctx.query['limit'], BATCH_LIMITS.childrenPageDefault, BATCH_LIMITS.maxItems),
  after: parseAfter(ctx.query['after']),
});

/** The results ZIP of an ended batch (409 `batch_not_terminal` before), streamed. */
export async function sendBatchResults(ctx: AppContext, deps: { db: Db; store: FileStore; logger: Logger; now: Date }, batch: Batch): Promise<void> {
  if (!isBatchTerminal(batch.status)) {
    throw new DomainError('batch_not_terminal', `The batch is ${batch.status}; its results ZIP is available once it has ended`);
  }
  await streamBatchZip(ctx, { store: deps.store, logger: deps.logger, now: deps.now }, batch, await listBatchChildren(deps.db, batch.id));
}
