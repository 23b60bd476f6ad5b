import { z } from 'zod';
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
