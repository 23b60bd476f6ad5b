import { LIMITS } from '../../domain/accounts.js';
import {
  deletedSavedWorkflowSchema,
  savedWorkflowCreateSchema,
  savedWorkflowListSchema,
  savedWorkflowSchema,
  savedWorkflowUpdateSchema,
} from '../../domain/validation/saved-workflows.js';
import { idParam, companyRoutes } from './openapi.contract.js';
import { EX, workflowEx } from './openapi.examples.js';

const workflowIdParam = idParam('workflow_id', 'wfl', 'Saved workflow');

/** Saved workflows: every member reads them, billing administrators change them. */
export const WORKFLOW_ROUTES = companyRoutes('Saved workflows', [
  {
    method: 'get',
    path: '/api/company/workflows',
    operationId: 'listSavedWorkflows',
    summary: 'Saved workflows',
    description: "The company's saved workflows (every member), oldest first; deleted ones are gone.",
    response: {
      description: 'Saved workflows.',
      schema: savedWorkflowListSchema,
      examples: { workflows: { data: [workflowEx] } },
    },
  },
  {
    method: 'post',
    path: '/api/company/workflows',
    operationId: 'createSavedWorkflow',
    summary: 'Save a workflow',
    description: `An extraction's fields, instructions and options under a name (billing administrators). A job, estimate or batch names it with \`workflow_id\`; its settings take precedence over the request's. At most ${LIMITS.savedWorkflowsPerCompany} per company.`,
    body: {
      schema: savedWorkflowCreateSchema,
      examples: { create: { name: workflowEx.name, fields: workflowEx.fields, instructions: workflowEx.instructions } },
    },
    response: { status: '201', description: 'Saved.', schema: savedWorkflowSchema, examples: { created: workflowEx } },
    errors: { admin: true, codes409: ['conflict', 'limit_reached'] },
  },
  {
    method: 'get',
    path: '/api/company/workflows/{workflow_id}',
    operationId: 'getSavedWorkflow',
    summary: 'A saved workflow',
    parameters: [workflowIdParam],
    response: { description: 'The saved workflow.', schema: savedWorkflowSchema, examples: { workflow: workflowEx } },
    errors: { ids: true },
  },
  {
    method: 'patch',
    path: '/api/company/workflows/{workflow_id}',
    operationId: 'updateSavedWorkflow',
    summary: 'Edit a saved workflow',
    description:
      'Changes what the body names (billing administrators); `revision` goes up by one. Requests made before keep what they were quoted with.',
    parameters: [workflowIdParam],
    body: {
      schema: savedWorkflowUpdateSchema,
      examples: { rename: { name: 'Supplier invoices (EU)' } },
    },
    response: {
      description: 'Changed.',
      schema: savedWorkflowSchema,
      examples: { changed: { ...workflowEx, name: 'Supplier invoices (EU)', revision: 2 } },
    },
    errors: { admin: true, ids: true, codes409: ['conflict'] },
  },
  {
    method: 'post',
    path: '/api/company/workflows/{workflow_id}/delete',
    operationId: 'deleteSavedWorkflow',
    summary: 'Delete a saved workflow',
    description:
      'It is no longer listed nor usable in requests, and its name is free again; jobs that used it keep their results.',
    parameters: [workflowIdParam],
    body: 'empty',
    response: {
      description: 'Deleted.',
      schema: deletedSavedWorkflowSchema,
      examples: { deleted: { id: EX.workflow, status: 'deleted', deleted_at: EX.at } },
    },
    errors: { admin: true, ids: true },
  },
]);
