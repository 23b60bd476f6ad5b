import type Router from '@koa/router';
import type { Db } from '../../../db/connection.js';
import { listUploads } from '../../../db/repositories/uploads.repo.js';
import { assertUploadListQuery } from '../../../domain/validation/job-list-query.js';
import { listedUploadJson } from '../../../services/processing/records.js';
import type { AppContext, AppState } from '../../http/context.js';
import { decodeCursor, page, parseLimit } from '../../http/pagination.js';

/**
 * GET /v1/uploads and GET /api/company/uploads: the company's uploads that still hold storage, newest first, each as
 * GET /v1/uploads/{id} shows it plus its use by jobs (`in_use`, `job_count`, `batch_count`); paged with `limit` and
 * the `before` cursor of the previous page's `next_cursor`. Unknown or repeated parameters are 422.
 */
export function mountUploadList(
  router: Router<AppState>,
  deps: { db: Db; companyOf: (ctx: AppContext) => string },
): void {
  router.get('/uploads', async (ctx) => {
    assertUploadListQuery(ctx.query);
    const limit = parseLimit(ctx.query['limit']);
    const before = decodeCursor('uploads', ctx.query['before']);
    ctx.body = page('uploads', await listUploads(deps.db, deps.companyOf(ctx), limit, before), limit, listedUploadJson);
  });
}
