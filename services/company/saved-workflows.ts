import { LIMITS } from '../../domain/accounts.js';
import { DomainError } from '../../domain/errors.js';
import type { SavedWorkflowCreate, SavedWorkflowUpdate } from '../../domain/validation/saved-workflows.js';
import type { Db } from '../../db/connection.js';
import { lockCompany } from './company-lock.js';
import {
  countSavedWorkflows,
  insertSavedWorkflow,
  updateSavedWorkflowRow,
  type SavedWorkflow,
} from '../../db/repositories/saved-workflows.repo.js';

/* A company's saved workflows: at most LIMITS.savedWorkflowsPerCompany, names unique among the live ones. */

const nameTaken = (name: string) =>
  new DomainError('conflict', `A saved workflow named "${name}" exists already; choose another name or edit that one`);

export async function createSavedWorkflow(
  db: Db,
  companyId: string,
  memberId: string,
  body: SavedWorkflowCreate,
  now: Date,
): Promise<SavedWorkflow> {
  return db.transaction(async (trx) => {
    await lockCompany(trx, companyId); // serialises creations: the limit cannot be overrun
    if ((await countSavedWorkflows(trx, companyId)) >= LIMITS.savedWorkflowsPerCompany) {
      throw new DomainError(
        'limit_reached',
        `A company has at most ${LIMITS.savedWorkflowsPerCompany} saved workflows; delete one first`,
      );
    }
    const created = await insertSavedWorkflow(trx, companyId, memberId, body, now);
    if (created === 'name_taken') throw nameTaken(body.name);
    return created;
  });
}

/** Changes what the body names and bumps the revision; null when there is no such workflow. */
export async function updateSavedWorkflow(
  db: Db,
  companyId: string,
  id: string,
  memberId: string,
  body: SavedWorkflowUpdate,
  now: Date,
): Promise<SavedWorkflow | null> {
  const updated = await updateSavedWorkflowRow(db, companyId, id, memberId, body, now);
  if (updated === 'name_taken') throw nameTaken(body.name!);
  return updated;
}
