import { z } from 'zod';
import { idRegex } from '../ids.js';
import { parser } from './integrations.js';
import { extractionFields, extractionInstructions, RESERVED_FIELD_NAMES } from './processing-request.js';
import { NOT_BLANK } from './patterns.js';

// eslint-disable-next-line no-control-regex -- the rule is exactly "no NUL"
const NO_NUL = /^[^\x00]*$/;

/**
 * Saved workflows (spec section 2: `workflow_id`; "saved workflows support document extraction only"): the bodies of
 * `POST /api/company/workflows` and `PATCH /api/company/workflows/{id}`, strict (unknown fields refused, each issue
 * names its field). A workflow is an extraction's `fields` (at least one), `instructions` and `options` under a name.
 */

/** The one operation a saved workflow can hold. */
export const SAVED_WORKFLOW_OPERATIONS = ['flow-extract'] as const;

/**
 * The trimmed text holds no control character (Unicode Cc: U+0000–U+001F, U+007F–U+009F), as a pattern on the text as
 * sent: whitespace (`\s`, the tab and line breaks among it) around a core that starts and ends with neither and holds
 * no control character. Linear: the core starts with a non-space, and the trailing whitespace belongs to it.
 */
// eslint-disable-next-line no-control-regex -- the rule is exactly "no control character"
const NO_CONTROL_AFTER_TRIM = /^\s*(?:[^\x00-\x1f\x7f-\x9f\s](?:[^\x00-\x1f\x7f-\x9f]*[^\x00-\x1f\x7f-\x9f\s])?\s*)?$/;

const name = z
  .string()
  .max(100, 'name has at most 100 characters')
  .regex(NOT_BLANK, 'name is required')
  .regex(NO_CONTROL_AFTER_TRIM, 'name cannot contain control characters')
  .trim()
  .meta({ description: 'Unique in the company (whatever the case); surrounding whitespace is ignored.' });
const fields = extractionFields.min(1, 'a saved workflow needs at least one field').meta({
  description: `The fields to extract: unique whatever their case; ${RESERVED_FIELD_NAMES.join(', ')} are reserved.`,
  uniqueItems: true,
});
const instructions = extractionInstructions
  .regex(NO_NUL, 'instructions must not contain the NUL character')
  .nullable()
  .meta({ description: 'Free text for the extraction; null for none.' });
/** `flow-extract` takes no options in this release; the object is kept for the options a later release adds. */
const options = z.strictObject({}).meta({ description: '`flow-extract` takes no options in this release: `{}`.' });

/** The body of `POST /api/company/workflows`. */
export const savedWorkflowCreateSchema = z.strictObject({
  name,
  operation: z
    .enum(SAVED_WORKFLOW_OPERATIONS, { message: 'saved workflows support document extraction only (flow-extract)' })
    .default('flow-extract')
    .meta({ description: 'Document extraction only (the default).' }),
  fields,
  instructions: instructions.default(null),
  options: options.default({}),
});

/** The body of `PATCH /api/company/workflows/{id}`: at least one member (the refinement, stated as `minProperties`). */
export const savedWorkflowUpdateSchema = z
  .strictObject({
    name: name.optional(),
    fields: fields.optional(),
    instructions: instructions.optional(),
    options: options.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'send at least one of name, fields, instructions, options')
  .meta({ minProperties: 1 });

export type SavedWorkflowCreate = z.output<typeof savedWorkflowCreateSchema>;
export type SavedWorkflowUpdate = z.output<typeof savedWorkflowUpdateSchema>;
export const parseSavedWorkflowCreate = parser(savedWorkflowCreateSchema);
export const parseSavedWorkflowUpdate = parser(savedWorkflowUpdateSchema);

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
