import type Router from '@koa/router';
import type { z } from 'zod';
import type { batchCancelledSchema, batchEstimateSchema } from '../../domain/validation/job-records.js';
import { DomainError } from '../../domain/errors.js';
import { parseBatchRequest, type BatchRequest } from '../../domain/validation/processing-request.js';
import type { Batch } from '../../db/repositories/batches.repo.js';
import type { AppContext, AppState } from '../http/context.js';
import { keyOf } from '../http/context.js';
import { assertNoFields, jsonBody } from '../http/body.js';
import { childrenPage } from '../http/pagination.js';
import { sendBatchResults } from '../http/result-files.js';
import { acceptedLocation, RESOURCE_PATHS } from './accepted.js';
import type { IdempotentHandler } from '../http/idempotency.js';
import { v1Idempotent, type JobsRouteDeps } from './jobs.routes.js';
import { cancelCompanyBatch } from '../../services/processing/cancel.js';
import {
  quoteChildren,
  RETRY_BODY,
  retryFailedItems,
  submitJobs,
  type ChildSpec,
} from '../../services/processing/submission.js';
import { batchJson, companyBatch } from '../../services/processing/records.js';

/** The batch routes need what the job routes need: they submit through the same code. */
export type BatchesRouteDeps = JobsRouteDeps;

const childrenOf = (req: BatchRequest): ChildSpec[] =>
  req.items.map((item) => ({
    request: {
      operation: req.operation,
      uploadIds: item.uploadIds,
      options: req.options,
      extraction: req.extraction,
      webhookId: undefined,
    },
    sourcePath: item.sourcePath,
  }));

export function mountBatches(router: Router<AppState>, deps: BatchesRouteDeps): void {
  const now = deps.now ?? (() => new Date());
  const companyOf = (ctx: AppContext) => keyOf(ctx).tenantId;
  const quoteDeps = {
    db: deps.db,
    store: deps.store,
    qpdf: deps.qpdf,
    ...(deps.ocrLanguages ? { ocrLanguages: deps.ocrLanguages } : {}),
    ...(deps.video ? { video: deps.video } : {}),
    now,
  };
  const findBatch = (ctx: AppContext): Promise<Batch> => companyBatch(deps.db, companyOf(ctx), ctx.params['id'] ?? '');
  const needsWorkflows = async (_ctx: AppContext, next: () => Promise<unknown>) => {
    if (!deps.workflows)
      throw new DomainError('service_unavailable', 'Batch processing is not available right now; retry later');
    await next();
  };
  const idempotentAs = (operation: string, handler: IdempotentHandler) =>
    v1Idempotent(deps, operation, { withParams: true }, handler);
  const submitDeps = () => ({
    ...quoteDeps,
    secretBox: deps.secretBox,
    workflows: deps.workflows!,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
  });

  /** POST /v1/batches/estimate: the whole batch's quote and each item's, measured on the server; reserves nothing. */
  router.post('/batches/estimate', jsonBody(deps.bodyLimitJson), async (ctx) => {
    const req = parseBatchRequest(ctx.request.body);
    const { quotes, total } = await quoteChildren(
      quoteDeps,
      companyOf(ctx),
      childrenOf(req),
      req.maxCredits,
      req.webhookId,
    );
    ctx.body = {
      operation: req.operation,
      estimated_credits: total,
      items: quotes.map((q, i) => ({
        item_index: i,
        upload_ids: req.items[i]!.uploadIds,
        estimated_credits: q.credits,
      })),
    } satisfies z.input<typeof batchEstimateSchema>;
  });

  /**
   * POST /v1/batches: atomic. In one transaction (services/processing/submission.ts): the whole quote is checked
   * against `max_credits`, the batch and every child recorded, and under the company lock the queue limit counts every
   * child and each child's quote is reserved when the wallet covers the total; `batch:<id>` starts as the 202 is sent. Any refusal leaves nothing behind. Idempotency-Key as for jobs.
   */
  router.post(
    '/batches',
    needsWorkflows,
    acceptedLocation(RESOURCE_PATHS.batch),
    jsonBody(deps.bodyLimitJson),
    idempotentAs('batches.create', async (ctx, { transaction: trx, afterCommit }) => {
      const req = parseBatchRequest(ctx.request.body);
      const { batch } = await submitJobs(submitDeps(), trx, afterCommit, {
        companyId: companyOf(ctx),
        submitter: { apiKeyId: keyOf(ctx).id },
        children: childrenOf(req),
        maxCredits: req.maxCredits,
        batch: { webhookId: req.webhookId, webhookMode: req.webhookMode, retryOf: null },
      });
      ctx.state.resourceId = batch!.id;
      ctx.status = 202;
      ctx.body = await batchJson(trx, batch!);
    }),
  );

  /** GET /v1/batches/{id}: progress, credits and the children (`limit` 1 to 100, `after` = first item index). */
  router.get('/batches/:id', async (ctx) => {
    ctx.body = await batchJson(deps.db, await findBatch(ctx), childrenPage(ctx));
  });

  /**
   * POST /v1/batches/{id}/retry-failed: a new batch (`retry_of` the original) of the failed items only, each child
   * quoted and reserved anew. 409 `batch_not_terminal` while the batch runs, `batch_has_no_failed_items` when nothing
   * failed, `batch_retry_needs_password` for password operations (the password is not kept after a job ends).
   */
  router.post(
    '/batches/:id/retry-failed',
    needsWorkflows,
    acceptedLocation(RESOURCE_PATHS.batch),
    jsonBody(deps.bodyLimitJson),
    idempotentAs('batches.retry_failed', async (ctx, { transaction: trx, afterCommit }) => {
      assertNoFields(ctx.request.body, RETRY_BODY);
      const original = await findBatch(ctx);
      const { batch } = await retryFailedItems(submitDeps(), trx, afterCommit, {
        original,
        submitter: { apiKeyId: keyOf(ctx).id },
      });
      ctx.state.resourceId = batch!.id;
      ctx.status = 202;
      ctx.body = await batchJson(trx, batch!);
    }),
  );

  /**
   * POST /v1/batches/{id}/cancel: every still-queued item → cancelled, each reservation released once, in one
   * transaction (cancelCompanyBatch, which wakes their workflows); items already processing or ended are left alone, and the batch ends as its
   * children do (cancelled items count as not completed). Ended, or nothing queued → 409 `batch_not_cancellable`.
   */
  router.post('/batches/:id/cancel', jsonBody(deps.bodyLimitJson), async (ctx) => {
    assertNoFields(ctx.request.body);
    const { cancelledIds, batch } = await cancelCompanyBatch(deps, companyOf(ctx), ctx.params['id'] ?? '', now());
    ctx.body = {
      cancelled_job_ids: cancelledIds,
      batch: await batchJson(deps.db, batch),
    } satisfies z.input<typeof batchCancelledSchema>;
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
