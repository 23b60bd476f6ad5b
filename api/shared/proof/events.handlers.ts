import type Router from '@koa/router';
import { listProofEvents } from '../../../db/repositories/proof-events.repo.js';
import type { AppState } from '../../http/context.js';
import { merchantOf } from '../../http/context.js';
import { parseAfter, parseLimit } from '../../http/pagination.js';
import type { MountAt, ProofDeps } from './requests.handlers.js';

/** The event log, at `/v1/events` (API keys) or `/events` (the dashboard session). */
export function mountEvents(router: Router<AppState>, deps: ProofDeps, at: MountAt = { base: '/v1' }): void {
  /**
   * GET /v1/events?after=&limit=: `{data: [{cursor, event}], next_cursor}`. The event is the stored bytes,
   * spliced in unchanged, so it is byte-identical to the webhook body.
   */
  router.get(`${at.base}/events`, async (ctx) => {
    const after = parseAfter(ctx.query['after']);
    const limit = parseLimit(ctx.query['limit']);
    const rows = await listProofEvents(deps.db, merchantOf(ctx).id, after, limit);
    const items = rows.map((r) => `{"cursor":${r.cursor},"event":${r.body.toString('utf8')}}`).join(',');
    // Always a cursor to poll from: the last one returned, or `after` itself when nothing is new.
    const next = rows.length ? rows[rows.length - 1]!.cursor : after;
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = `{"data":[${items}],"next_cursor":${next}}`;
  });
}
