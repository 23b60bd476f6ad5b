import type Router from '@koa/router';
import { DomainError } from '../../domain/errors.js';
import { parseJobRequest } from '../../domain/validation/processing-request.js';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import type { Logger } from '../../adapters/logging/logger.js';
import type { FileStore } from '../../adapters/storage/file-store.js';
import type { QpdfOptions } from '../../adapters/media/pdf/qpdf.js';
import type { Db } from '../../db/connection.js';
import { isJobDeleted, type Job } from '../../db/repositories/jobs.repo.js';
import { cancelCompanyJob } from '../../services/processing/cancel.js';
import { deleteJob } from '../../services/processing/delete.js';
import { listJobs } from '../../db/repositories/job-list.repo.js';
import { parseJobListQuery } from '../../domain/validation/job-list-query.js';
import { decodeCursor, page, parseLimit } from '../http/pagination.js';
import { acceptedLocation, RESOURCE_PATHS } from './accepted.js';
import type { AppContext, AppState } from '../http/context.js';
import { keyOf } from '../http/context.js';
import { idempotent, type IdempotentHandler, type IdempotentOptions } from '../http/idempotency.js';
import type { Middleware } from 'koa';
import { assertNoFields, jsonBody } from '../http/body.js';
import { sendResultFile } from '../http/result-files.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';
import { SECRET_OPTIONS, submitJobs } from '../../services/processing/submission.js';
import type { VideoWorkPolicy } from '../../services/processing/estimate.js';
import { companyJob, jobJson } from '../../services/processing/records.js';
import type { PlatformMetrics } from '../../adapters/metrics/metrics.js';

export interface JobsRouteDeps {
  db: Db;
  store: FileStore;
  logger: Logger;
  secretBox: SecretBox;
  /** Null when the API runs without Temporal: job submission then answers 503. */
  workflows: WorkflowGateway | null;
  qpdf: QpdfOptions;
  /** OCR_LANGUAGES (the quote refuses others); default `eng`. */
  ocrLanguages?: readonly string[];
  /** The bound on a video tool's work (VIDEO_MAX_PIXEL_FRAMES); default the domain's. */
  video?: VideoWorkPolicy;
  bodyLimitJson: string;
  now?: () => Date;
  /** The API's metrics: a submission counts its jobs and the credits it reserved, once committed. */
  metrics?: PlatformMetrics;
}

/** What identifies a job or batch request for its Idempotency-Key: the body with each secret option replaced by a digest. */
function fingerprintWith(ctx: AppContext, digest: (secret: string) => string): unknown {
  const body = ctx.request.body as { options?: Record<string, unknown> } | null;
  if (!body || typeof body !== 'object' || !body.options || typeof body.options !== 'object') return { body };
  const options = { ...body.options };
  for (const k of SECRET_OPTIONS) if (typeof options[k] === 'string') options[k] = { digest: digest(options[k]) };
  return { body: { ...body, options } };
}

/**
 * The Idempotency-Key middleware of a /v1 submission (jobs, batches, retry-failed): `/v1` rules, keys scoped to the
 * company, the body fingerprinted with secret options as digests. A request sent before a SECRETS_KEY rotation was
 * fingerprinted with digests under the key of that time (`earlierFingerprints`). `withParams` adds the path
 * parameters (retry-failed names its batch in the path); jobs are fingerprinted by their body alone, as they always were.
 */
export function v1Idempotent(
  deps: Pick<JobsRouteDeps, 'db' | 'logger' | 'secretBox' | 'now'>,
  operation: string,
  opts: { withParams?: boolean; beforeReplay?: IdempotentOptions['beforeReplay'] },
  handler: IdempotentHandler,
): Middleware<AppState> {
  const fingerprint = (ctx: AppContext, digest: (secret: string) => string) => {
    const body = fingerprintWith(ctx, digest);
    return opts.withParams ? { params: ctx.params ?? {}, ...(body as object) } : body;
  };
  return idempotent(
    {
      db: deps.db,
      logger: deps.logger,
      dialect: 'v1',
      operation,
      tenantOf: (ctx) => keyOf(ctx).tenantId,
      fingerprint: (ctx) => fingerprint(ctx, (secret) => deps.secretBox.digest(secret)),
      earlierFingerprints: (ctx) =>
        deps.secretBox.previousKeyIds.map((_, i) =>
          fingerprint(ctx, (secret) => deps.secretBox.digests(secret)[i + 1]!),
        ),
      ...(opts.beforeReplay ? { beforeReplay: opts.beforeReplay } : {}),
      ...(deps.now ? { now: deps.now } : {}),
    },
    handler,
  );
}

export function mountJobs(router: Router<AppState>, deps: JobsRouteDeps): void {
  const now = deps.now ?? (() => new Date());
  const companyOf = (ctx: AppContext) => keyOf(ctx).tenantId;
  const findJob = (ctx: AppContext): Promise<Job> => companyJob(deps.db, companyOf(ctx), ctx.params['id'] ?? '');

  /**
   * POST /v1/jobs: validates and quotes the body exactly as /v1/estimate, then, in one transaction, records the job
   * and its answer, and under the company lock checks the sources and the queue limit and reserves the quote
   * (services/processing/submission.ts); the 202 is sent at the commit and `job:<id>` starts meanwhile. The Idempotency-Key replays the same job (no second reservation); another body → 409
   * `idempotency_conflict`; the key of a job deleted since → 409 `idempotency_key_target_deleted`.
   */
  router.post(
    '/jobs',
    async (ctx, next) => {
      if (!deps.workflows)
        throw new DomainError('service_unavailable', 'Job processing is not available right now; retry later');
      await next();
    },
    acceptedLocation(RESOURCE_PATHS.job),
    jsonBody(deps.bodyLimitJson),
    v1Idempotent(
      deps,
      'jobs.create',
      {
        // The stored 202 names a job; once that job is deleted its id is 404, so replaying it would mislead.
        beforeReplay: async (ctx, jobId) => {
          if (await isJobDeleted(deps.db, companyOf(ctx), jobId)) {
            throw new DomainError(
              'idempotency_key_target_deleted',
              `This Idempotency-Key created job ${jobId}, which has since been deleted; to run the job again, send the request with a new Idempotency-Key`,
              { fields: { job_id: jobId } },
            );
          }
        },
      },
      async (ctx, { transaction, afterCommit, claim }) => {
        const req = parseJobRequest(ctx.request.body);
        const { jobs } = await submitJobs(
          {
            db: deps.db,
            store: deps.store,
            qpdf: deps.qpdf,
            ...(deps.ocrLanguages ? { ocrLanguages: deps.ocrLanguages } : {}),
            ...(deps.video ? { video: deps.video } : {}),
            secretBox: deps.secretBox,
            workflows: deps.workflows!,
            now,
            ...(deps.metrics ? { metrics: deps.metrics } : {}),
          },
          transaction,
          afterCommit,
          {
            companyId: companyOf(ctx),
            submitter: { apiKeyId: keyOf(ctx).id },
            children: [{ request: req, sourcePath: (i) => `upload_ids.${i}` }],
            maxCredits: req.maxCredits,
            // The answer is the job as written; stored with the key before the company lock (a refusal under the
            // lock rolls it back with everything else).
            beforeLock: async ({ jobs: [job] }) => void (await claim(202, jobJson(job!), job!.id)),
          },
        );
        const job = jobs[0]!;
        ctx.state.resourceId = job.id;
        ctx.status = 202;
        ctx.body = jobJson(job);
      },
    ),
  );

  /**
   * GET /v1/jobs: the company's jobs, newest first, filtered by status, operation, batch and creation time; paged
   * with `limit` and the `before` cursor of the previous page's `next_cursor`.
   */
  router.get('/jobs', async (ctx) => {
    const filter = parseJobListQuery(ctx.query);
    const limit = parseLimit(ctx.query['limit']);
    const before = decodeCursor('jobs', ctx.query['before']);
    ctx.body = page('jobs', await listJobs(deps.db, companyOf(ctx), filter, limit, before), limit, jobJson);
  });

  /**
   * POST /v1/jobs/{id}/cancel: a queued job → cancelled, its reservation released once, its workflow woken (cancelCompanyJob). Processing or
   * ended → 409 `job_not_cancellable`. Repeating a cancel that succeeded is that 409 too (the job is cancelled).
   */
  router.post('/jobs/:id/cancel', jsonBody(deps.bodyLimitJson), async (ctx) => {
    assertNoFields(ctx.request.body);
    ctx.body = jobJson(await cancelCompanyJob(deps, companyOf(ctx), ctx.params['id'] ?? '', now()));
  });

  /** GET /v1/jobs/{id}: the job of the caller's company (another company's id is 404). */
  router.get('/jobs/:id', async (ctx) => {
    ctx.body = jobJson(await findJob(ctx));
  });

  /**
   * GET /v1/jobs/{id}/results/{index}: the bytes of one result file (index from 0, as in `download_path`).
   * Not completed → 409; unknown index → 404; past retention → 410.
   */
  router.get('/jobs/:id/results/:index', async (ctx) => {
    await sendResultFile(ctx, deps.store, await findJob(ctx), ctx.params['index'] ?? '', now());
  });

  /** DELETE /v1/jobs/{id}: removes a completed, failed or cancelled job and its result files (409 while unfinished). */
  router.delete('/jobs/:id', async (ctx) => {
    await deleteJob(deps, companyOf(ctx), ctx.params['id'] ?? '', now());
    ctx.status = 204;
  });
}
