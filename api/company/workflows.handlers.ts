import type Router from '@koa/router';
import { DomainError } from '../../domain/errors.js';
import { parseEmptyBody } from '../../domain/validation/integrations.js';
import type { z } from 'zod';
import {
  parseSavedWorkflowCreate,
  parseSavedWorkflowUpdate,
  type deletedSavedWorkflowSchema,
  type savedWorkflowListSchema,
  type savedWorkflowSchema,
} from '../../domain/validation/saved-workflows.js';
import type { Db } from '../../db/connection.js';
import {
  deleteSavedWorkflow,
  getSavedWorkflow,
  listSavedWorkflows,
  type SavedWorkflow,
} from '../../db/repositories/saved-workflows.repo.js';
import { createSavedWorkflow, updateSavedWorkflow } from '../../services/company/saved-workflows.js';
import type { AppState } from '../http/context.js';
import { memberOf } from '../http/context.js';

export interface SavedWorkflowDeps {
  db: Db;
  now: () => Date;
}

/** A saved workflow as the session routes show it. */
export const savedWorkflowJson = (w: SavedWorkflow): z.input<typeof savedWorkflowSchema> => ({
  id: w.id,
  name: w.name,
  operation: w.operation,
  fields: w.fields,
  instructions: w.instructions,
  options: w.options,
  revision: w.revision,
  created_by: w.createdBy,
  updated_by: w.updatedBy,
  created_at: w.createdAt.toISOString(),
  updated_at: w.updatedAt.toISOString(),
});

const notFound = () => new DomainError('not_found', 'Saved workflow not found');

/** Reading saved workflows: every member (they pick one for their requests). */
export function mountSavedWorkflowReads(router: Router<AppState>, deps: SavedWorkflowDeps): void {
  router.get('/workflows', async (ctx) => {
    const list: z.input<typeof savedWorkflowListSchema> = {
      data: (await listSavedWorkflows(deps.db, memberOf(ctx).companyId)).map(savedWorkflowJson),
    };
    ctx.body = list;
  });
  router.get('/workflows/:id', async (ctx) => {
    const w = await getSavedWorkflow(deps.db, memberOf(ctx).companyId, ctx.params['id'] ?? '');
    if (!w) throw notFound();
    ctx.body = savedWorkflowJson(w);
  });
}

/** Creating, editing and deleting saved workflows: billing administrators. */
export function mountSavedWorkflowChanges(router: Router<AppState>, deps: SavedWorkflowDeps): void {
  router.post('/workflows', async (ctx) => {
    const body = parseSavedWorkflowCreate(ctx.request.body);
    const me = memberOf(ctx);
    ctx.status = 201;
    ctx.body = savedWorkflowJson(await createSavedWorkflow(deps.db, me.companyId, me.id, body, deps.now()));
  });
  router.patch('/workflows/:id', async (ctx) => {
    const body = parseSavedWorkflowUpdate(ctx.request.body);
    const me = memberOf(ctx);
    const w = await updateSavedWorkflow(deps.db, me.companyId, ctx.params['id'] ?? '', me.id, body, deps.now());
    if (!w) throw notFound();
    ctx.body = savedWorkflowJson(w);
  });
  router.post('/workflows/:id/delete', async (ctx) => {
    parseEmptyBody(ctx.request.body);
    const id = ctx.params['id'] ?? '';
    const at = deps.now();
    if (!(await deleteSavedWorkflow(deps.db, memberOf(ctx).companyId, id, at))) throw notFound();
    const deleted: z.input<typeof deletedSavedWorkflowSchema> = { id, status: 'deleted', deleted_at: at.toISOString() };
    ctx.body = deleted;
  });
}
