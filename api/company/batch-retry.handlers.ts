import type Router from '@koa/router';
import type { Db } from '../../db/connection.js';
import type { FileStore } from '../../adapters/storage/file-store.js';
import type { Logger } from '../../adapters/logging/logger.js';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import type { QpdfOptions } from '../../adapters/media/pdf/qpdf.js';
import type { VideoWorkPolicy } from '../../services/processing/estimate.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';
import { runAfterCommit, type AfterCommit } from '../../services/workflows/workflow-starts.js';
import { DomainError } from '../../domain/errors.js';
import type { AppState } from '../http/context.js';
import { memberOf } from '../http/context.js';
import { assertNoFields } from '../http/body.js';
import { RETRY_BODY } from '../../services/processing/submission.js';
import { retryFailedItems } from '../../services/processing/submission.js';
import { batchJson, companyBatch } from '../../services/processing/records.js';
import type { PlatformMetrics } from '../../adapters/metrics/metrics.js';

/** What the session's retry-failed submits with: the /v1 submission's engines and the workflow client. */
export interface SessionSubmissionDeps {
  /** Null when the API runs without Temporal: the route then answers 503, as on /v1. */
  workflows: WorkflowGateway | null;
  qpdf: QpdfOptions;
  ocrLanguages?: readonly string[];
  video?: VideoWorkPolicy;
  /** The API's metrics: a retry counts its jobs submitted and credits reserved there, as /v1's does. */
  metrics?: PlatformMetrics;
}

/**
 * `POST /api/company/batches/{id}/retry-failed` (billing administrators; docs/processing.md "Retrying failed items"):
 * what the /v1 route does, through the same `retryFailedItems`, recorded as submitted by the member (`member_id`, no
 * API key). Double submission: no Idempotency-Key here; instead, under the company lock that every submission takes,
 * a batch whose earlier retry is still queued or processing is refused with 409 `batch_retry_in_progress`, so a double
 * click (or two tabs) makes one retry batch. Once that retry has ended, the original may be retried again, as on /v1.
 */
export function mountBatchRetry(
  router: Router<AppState>,
  deps: {
    db: Db;
    store: FileStore;
    logger: Logger;
    secretBox: SecretBox;
    submission: SessionSubmissionDeps | undefined;
    now: () => Date;
  },
): void {
  router.post('/batches/:id/retry-failed', async (ctx) => {
    assertNoFields(ctx.request.body, RETRY_BODY);
    const me = memberOf(ctx);
    const original = await companyBatch(deps.db, me.companyId, ctx.params['id'] ?? '');
    const submission = deps.submission;
    if (!submission?.workflows)
      throw new DomainError('service_unavailable', 'Batch processing is not available right now; retry later');
    const workflows = submission.workflows;
    const afterCommit: AfterCommit = [];
    const late = (err: unknown) =>
      deps.logger.error(
        { err, requestId: ctx.state.requestId, operation: 'company.batches.retry_failed' },
        'after-commit hook failed',
      );
    const body = await deps.db.transaction(async (trx) => {
      const submitDeps = {
        db: trx,
        store: deps.store,
        qpdf: submission.qpdf,
        ...(submission.ocrLanguages ? { ocrLanguages: submission.ocrLanguages } : {}),
        ...(submission.video ? { video: submission.video } : {}),
        secretBox: deps.secretBox,
        workflows,
        now: deps.now,
        ...(submission.metrics ? { metrics: submission.metrics } : {}),
      };
      // The sources are quoted before the company lock, as for every submission; under it, an earlier retry still
      // running refuses this one (services/processing/submission.ts, RetryRule `one-at-a-time`).
      const { batch } = await retryFailedItems(submitDeps, trx, afterCommit, {
        original,
        submitter: { memberId: me.id },
        retryRule: 'one-at-a-time',
      });
      return batchJson(trx, batch!);
    });
    await runAfterCommit(afterCommit, deps.db, late); // as after an Idempotency-Key commit
    ctx.status = 202;
    ctx.set('Location', `/api/company/batches/${body.id}`);
    ctx.body = body;
  });
}
