import type {
  SAVED_WORKFLOW_OPERATIONS,
  SavedWorkflowCreate,
  SavedWorkflowUpdate,
} from '../../domain/validation/saved-workflows.js';
import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../connection.js';

/** Saved workflows of a company (migration 20261124010000): ids `wfl_…`, soft-deleted, names unique per company. */
export const SAVED_WORKFLOW_ID_PREFIX = 'wfl';

export interface SavedWorkflow {
  id: string;
  companyId: string;
  name: string;
  operation: (typeof SAVED_WORKFLOW_OPERATIONS)[number];
  fields: string[];
  instructions: string | null;
  options: Record<string, unknown>;
  revision: number;
  createdBy: string;
  updatedBy: string;
  createdAt: Date;
  updatedAt: Date;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
const toWorkflow = (r: any): SavedWorkflow => ({
  id: r.id,
  companyId: r.company_id,
  name: r.name,
  operation: r.operation,
  fields: r.fields,
  instructions: r.instructions,
  options: r.options,
  revision: r.revision,
  createdBy: r.created_by,
  updatedBy: r.updated_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
/* eslint-enable @typescript-eslint/no-explicit-any */

const live = (db: Db, companyId: string) =>
  db('saved_workflows').where({ company_id: companyId }).whereNull('deleted_at');

/** The unique index on (company, lower(name)) of the workflows not deleted. */
const isNameTaken = (e: unknown) =>
  (e as { code?: string; constraint?: string }).code === '23505' &&
  (e as { constraint?: string }).constraint === 'saved_workflows_name_unique';

/** The company's saved workflows that are not deleted. */
export async function countSavedWorkflows(trx: Db, companyId: string): Promise<number> {
  const [count] = await live(trx, companyId).count<{ n: string }[]>({ n: '*' });
  return Number(count?.n ?? 0);
}

/** Inserts a saved workflow (revision 1); `name_taken` when a live workflow of the company has its name. */
export async function insertSavedWorkflow(
  trx: Db,
  companyId: string,
  memberId: string,
  body: SavedWorkflowCreate,
  now: Date,
): Promise<SavedWorkflow | 'name_taken'> {
  try {
    const [row] = await trx('saved_workflows')
      .insert({
        id: newId(SAVED_WORKFLOW_ID_PREFIX),
        company_id: companyId,
        name: body.name,
        operation: body.operation,
        fields: JSON.stringify(body.fields),
        instructions: body.instructions,
        options: JSON.stringify(body.options),
        revision: 1,
        created_by: memberId,
        updated_by: memberId,
        created_at: now,
        updated_at: now,
      })
      .returning('*');
    return toWorkflow(row);
  } catch (e) {
    if (isNameTaken(e)) return 'name_taken';
    throw e;
  }
}

/** The company's saved workflows, oldest first (at most LIMITS.savedWorkflowsPerCompany). */
export async function listSavedWorkflows(db: Db, companyId: string): Promise<SavedWorkflow[]> {
  return (await live(db, companyId).orderBy([{ column: 'created_at' }, { column: 'id' }])).map(toWorkflow);
}

/** One saved workflow of the company, not deleted; null for another company's id, a deleted one or an unknown id. */
export async function getSavedWorkflow(db: Db, companyId: string, id: string): Promise<SavedWorkflow | null> {
  const row = await live(db, companyId).where({ id }).first();
  return row ? toWorkflow(row) : null;
}

/**
 * Changes what the body names and bumps the revision; null when there is no such workflow, `name_taken` when another
 * live workflow of the company has the new name.
 */
export async function updateSavedWorkflowRow(
  db: Db,
  companyId: string,
  id: string,
  memberId: string,
  body: SavedWorkflowUpdate,
  now: Date,
): Promise<SavedWorkflow | null | 'name_taken'> {
  const change: Record<string, unknown> = { updated_by: memberId, updated_at: now, revision: db.raw('revision + 1') };
  if (body.name !== undefined) change['name'] = body.name;
  if (body.fields !== undefined) change['fields'] = JSON.stringify(body.fields);
  if (body.instructions !== undefined) change['instructions'] = body.instructions;
  if (body.options !== undefined) change['options'] = JSON.stringify(body.options);
  try {
    const [row] = await live(db, companyId).where({ id }).update(change).returning('*');
    return row ? toWorkflow(row) : null;
  } catch (e) {
    if (isNameTaken(e)) return 'name_taken';
    throw e;
  }
}

/** Soft deletion: the workflow leaves the list and cannot be referenced; its name is free again. False when not found. */
export async function deleteSavedWorkflow(db: Db, companyId: string, id: string, now: Date): Promise<boolean> {
  return (await live(db, companyId).where({ id }).update({ deleted_at: now, updated_at: now })) > 0;
}
