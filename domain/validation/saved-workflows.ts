import { z } from 'zod';
import { idRegex } from '../ids.js';
import { parser } from './integrations.js';
import { extractionFields, extractionInstructions } from './processing-request.js';

/**
 * Saved workflows (spec section 2: `workflow_id`; "saved workflows support document extraction only"): the bodies of
 * `POST /api/company/workflows` and `PATCH /api/company/workflows/{id}`, strict (unknown fields refused, each issue
 * names its field). A workflow is an extraction's `fields` (at least one), `instructions` and `options` under a name.
 */

/** The one operation a saved workflow can hold. */
export const SAVED_WORKFLOW_OPERATIONS = ['flow-extract'] as const;

const name = z
  .string()
  .max(100, 'name has at most 100 characters')
  .trim()
  .min(1, 'name is required')
  .refine((n) => !/\p{Cc}/u.test(n), 'name cannot contain control characters');
const fields = extractionFields.min(1, 'a saved workflow needs at least one field');
/** `flow-extract` takes no options in this release; the object is kept for the options a later release adds. */
const options = z.strictObject({});

const createSchema = z.strictObject({
  name,
  operation: z
    .enum(SAVED_WORKFLOW_OPERATIONS, { message: 'saved workflows support document extraction only (flow-extract)' })
    .default('flow-extract'),
  fields,
  instructions: extractionInstructions.nullable().default(null),
  options: options.default({}),
});

const updateSchema = z
  .strictObject({
    name: name.optional(),
    fields: fields.optional(),
    instructions: extractionInstructions.nullable().optional(),
    options: options.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'send at least one of name, fields, instructions, options');

export type SavedWorkflowCreate = z.output<typeof createSchema>;
export type SavedWorkflowUpdate = z.output<typeof updateSchema>;
export const parseSavedWorkflowCreate = parser(createSchema);
export const parseSavedWorkflowUpdate = parser(updateSchema);

const dateTime = z.iso.datetime();
const memberId = z.string().regex(idRegex('mem')).meta({ description: 'Member id: `mem_` and 20 letters or digits.' });
const workflowId = z
  .string()
  .regex(idRegex('wfl'))
  .meta({ description: 'Saved workflow id: `wfl_` and 20 letters or digits.' });

/** A saved workflow as the session routes answer it. */
export const savedWorkflowSchema = z.strictObject({
  id: workflowId,
  name: z.string().meta({ description: 'Unique in the company (whatever the case).' }),
  operation: z.enum(SAVED_WORKFLOW_OPERATIONS),
  fields: z.array(z.string()).meta({ description: 'The fields to extract.' }),
  instructions: z.string().nullable().meta({ description: 'Free text for the extraction; null for none.' }),
  options: z
    .record(z.string(), z.unknown())
    .meta({ description: '`flow-extract` takes no options in this release: `{}`.' }),
  revision: z.int().min(1),
  created_by: memberId,
  updated_by: memberId,
  created_at: dateTime,
  updated_at: dateTime,
});

export const savedWorkflowListSchema = z.strictObject({ data: z.array(savedWorkflowSchema) });

export const deletedSavedWorkflowSchema = z.strictObject({
  id: workflowId,
  status: z.literal('deleted'),
  deleted_at: dateTime,
});
