import type { z } from 'zod';
import type { estimateSchema } from '../../domain/validation/processing-responses.js';
import type Router from '@koa/router';
import { createRouter } from '../http/router.js';
import type { Middleware } from 'koa';
import { DomainError } from '../../domain/errors.js';
import type { FileStore } from '../../adapters/storage/file-store.js';
import type { Db } from '../../db/connection.js';
import { getCompany, verifyCompanyKey } from '../../db/repositories/companies.repo.js';
import type { AppState } from '../http/context.js';
import { keyOf } from '../http/context.js';
import { refuseKeyInQuery, requireApiKey } from '../http/auth.js';
import { authFailureThrottle, perIp, perKey, rateLimit } from '../http/rate-limit.js';
import { mountUploads, type UploadLimits } from './uploads.routes.js';
import { jsonBody } from '../http/body.js';
import { parseJobRequest } from '../../domain/validation/processing-request.js';
import { qpdfOptions, quoteRequest, videoWorkPolicy } from '../../services/processing/estimate.js';
import { mountJobs } from './jobs.routes.js';
import { mountBatches } from './batches.routes.js';
import { mountDocs } from './docs.routes.js';
import { mountCredits } from '../shared/processing/credits.routes.js';
import { mountCapabilities } from './capabilities.js';
import type { Logger } from '../../adapters/logging/logger.js';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';
import type { PlatformMetrics } from '../../adapters/metrics/metrics.js';

export interface ProcessingRouterDeps {
  db: Db;
  store: FileStore;
  logger: Logger;
  secretBox: SecretBox;
  /** Starts `job:<id>` workflows; null when Temporal is not configured (job submission answers 503). */
  workflows: WorkflowGateway | null;
  limits: UploadLimits;
  rateLimits: { perKeyPerMinute: number; perIpPerMinute: number; authFailuresPerIpPerMinute: number };
  bodyLimitJson: string;
  /** Paths of the media engines and qpdf's time limit. */
  media: {
    qpdfPath: string;
    qpdfTimeoutMs: number;
    ffprobePath: string;
    ffmpegPath?: string;
    ocr?: { languages: readonly string[] };
    videoMaxPixelFrames?: number;
  };
  now?: () => Date;
  /** The API's metrics: submissions count jobs submitted and credits reserved there. */
  metrics?: PlatformMetrics;
}

/**
 * A suspended company's keys answer 403 (spec section 7: scope, role or suspension). The status is the one read with
 * the key (verifyCompanyKey); a request authenticated otherwise reads it here.
 */
function activeCompany(db: Db): Middleware<AppState> {
  return async (ctx, next) => {
    const read = ctx.state.keyCompany;
    const status = read ? read.status : ((await getCompany(db, keyOf(ctx).tenantId))?.status ?? null);
    if (status === null) throw new DomainError('unauthorized', 'Missing or invalid API key');
    if (status !== 'active') throw new DomainError('forbidden', 'This company is suspended');
    await next();
  };
}

/**
 * `/v1`: bearer `sk_live_` keys (never in the URL), 120 requests per minute per key (plus a per-IP bound),
 * suspension, then the resources. Bodies are parsed per route (multipart for uploads, JSON elsewhere).
 */
export function processingRouter(deps: ProcessingRouterDeps): Router<AppState> {
  const router = createRouter({ prefix: '/v1' });
  mountDocs(router, deps); // public: defined before the guards below, so they never run for these two paths
  router.use(
    refuseKeyInQuery(),
    authFailureThrottle(deps.db, deps.rateLimits.authFailuresPerIpPerMinute, deps.now),
    requireApiKey(deps.db, 'v1', deps.now, async (ctx, token, at) => {
      const { outcome, companyStatus } = await verifyCompanyKey(deps.db, token, at);
      if (outcome.ok) ctx.state.keyCompany = { status: companyStatus };
      return outcome;
    }),
    rateLimit(
      deps.db,
      [
        perKey('v1:key:min', deps.rateLimits.perKeyPerMinute, 60),
        perIp('v1:ip:min', deps.rateLimits.perIpPerMinute, 60),
      ],
      deps.now,
    ),
    activeCompany(deps.db),
  );
  mountUploads(router, {
    db: deps.db,
    store: deps.store,
    limits: deps.limits,
    media: {
      ffprobePath: deps.media.ffprobePath,
      ...(deps.media.ffmpegPath ? { ffmpegPath: deps.media.ffmpegPath } : {}),
    },
    ...(deps.now ? { now: deps.now } : {}),
  });

  /** POST /v1/estimate: the quote of a job body, measured on the server; starts no work. */
  // The bound on a video tool's work: VIDEO_MAX_PIXEL_FRAMES when configured, else the domain's default (QuoteDeps).
  const video =
    deps.media.videoMaxPixelFrames !== undefined
      ? {
          video: videoWorkPolicy({
            videoMaxPixelFrames: deps.media.videoMaxPixelFrames,
            ffprobePath: deps.media.ffprobePath,
          }),
        }
      : {};
  router.post('/estimate', jsonBody(deps.bodyLimitJson), async (ctx) => {
    const request = parseJobRequest(ctx.request.body);
    const quote = await quoteRequest(
      {
        db: deps.db,
        store: deps.store,
        qpdf: qpdfOptions(deps.media),
        ...(deps.media.ocr ? { ocrLanguages: deps.media.ocr.languages } : {}),
        ...video,
        ...(deps.now ? { now: deps.now } : {}),
      },
      keyOf(ctx).tenantId,
      request,
    );
    const estimate: z.input<typeof estimateSchema> = {
      operation: request.operation, // the quote's, as parsed
      estimated_credits: quote.credits,
      sources: quote.sources.map((s) => ({
        upload_id: s.upload.id,
        bytes: s.measure.bytes,
        pages: s.measure.pages,
        duration_seconds: s.measure.durationSeconds,
        credits: s.credits,
      })),
    };
    ctx.body = estimate;
  });
  mountCredits(router, { db: deps.db });
  mountCapabilities(router, {
    limits: deps.limits,
    rateLimits: deps.rateLimits,
    ...(deps.media.videoMaxPixelFrames !== undefined ? { videoMaxPixelFrames: deps.media.videoMaxPixelFrames } : {}),
    ...(deps.media.ocr ? { ocrLanguages: deps.media.ocr.languages } : {}),
  });
  const submission = {
    db: deps.db,
    store: deps.store,
    logger: deps.logger,
    secretBox: deps.secretBox,
    workflows: deps.workflows,
    qpdf: qpdfOptions(deps.media),
    ...(deps.media.ocr ? { ocrLanguages: deps.media.ocr.languages } : {}),
    ...video,
    bodyLimitJson: deps.bodyLimitJson,
    ...(deps.now ? { now: deps.now } : {}),
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
  };
  mountJobs(router, submission);
  mountBatches(router, submission);
  return router;
}
