import { z } from 'zod';
import { BATCH_LIMITS, DEFAULT_WEBHOOK_MODE, WEBHOOK_MODES } from '../batches.js';
import { OPERATION_RULES } from '../operations.js';
import {
  AVAILABLE_OPERATIONS,
  extractionFields,
  extractionInstructions,
  OPTION_SCHEMAS,
  RESERVED_FIELD_NAMES,
  workflowIdSchema,
  type AvailableOperation,
} from './processing-request.js';
import { uploadIdSchema, webhookIdSchema } from './processing-responses.js';

/**
 * The job and batch request bodies of `/v1` as the OpenAPI document states them: one strict variant per operation,
 * built from the parts `parseJobRequest` and `parseBatchRequest` validate with (OPTION_SCHEMAS, OPERATION_RULES'
 * source counts, the extraction field rules, the id patterns), so nothing here is a second copy of a rule. The parsers
 * keep their own walk for the wording of each issue; `test/integration/processing-openapi.test.ts` proves the
 * variants accept exactly the bodies the parsers accept. Rules JSON Schema cannot tie to a field are JSON Schema
 * keywords in `.meta` (the `anyOf` of an extraction, the `oneOf` of a batch's sources), as OPTION_SCHEMAS does.
 */

/** The options object must be present (some option is required: `{}` is refused). */
export const optionsRequired = (op: AvailableOperation): boolean => !OPTION_SCHEMAS[op].safeParse({}).success;

const optionsOf = (op: AvailableOperation) =>
  optionsRequired(op) ? OPTION_SCHEMAS[op] : OPTION_SCHEMAS[op].optional();

/** A flow-extract body names its fields, or a saved workflow that does. */
const EXTRACTION_NEEDS = [
  { properties: { fields: true }, required: ['fields'] },
  { properties: { workflow_id: true }, required: ['workflow_id'] },
];

/** `fields`, `instructions` and `workflow_id` of a flow-extract request, as `extractionSpec` parses them. */
const extractionShape = {
  fields: extractionFields
    .min(1)
    .optional()
    .meta({
      description: `The values to extract, as field names (unique whatever their case; ${RESERVED_FIELD_NAMES.join(', ')} are reserved). Required unless \`workflow_id\` is sent.`,
    }),
  instructions: extractionInstructions.optional().meta({
    description:
      'Free text for the engine (e.g. "dates are US month/day"); data, never a rule it must obey over its own.',
  }),
  workflow_id: workflowIdSchema.optional().meta({
    description:
      "A saved workflow of your company (`/api/company/workflows`): its fields, instructions and options are used instead of the body's. " +
      "Unknown, another company's or deleted: 404 naming `workflow_id`.",
  }),
};

const extractionOf = (op: AvailableOperation) => (op === 'flow-extract' ? extractionShape : {});
const needsOf = (op: AvailableOperation) => (op === 'flow-extract' ? { anyOf: EXTRACTION_NEEDS } : {});

const maxCredits = (description: string) => z.int().min(1).max(1_000_000_000).optional().meta({ description });

/** The body of `POST /v1/estimate` and `POST /v1/jobs` for one operation. */
function jobVariant(op: AvailableOperation) {
  const sources = OPERATION_RULES[op].sources;
  return z
    .strictObject({
      ...extractionOf(op),
      operation: z.literal(op),
      upload_ids: z.array(uploadIdSchema).min(sources.min).max(sources.max).meta({ uniqueItems: true }),
      options: optionsOf(op),
      max_credits: maxCredits('Refuse (409 `max_credits_exceeded`, with the quote) instead of quoting more than this.'),
      webhook_id: webhookIdSchema.optional().meta({
        description:
          "An enabled `/v1` webhook of your company: the job's `job.completed` or `job.failed` event is sent to it (see `webhooks`). " +
          "A webhook that is unknown, another company's, disabled or deleted answers 404 naming `webhook_id` (after the ids of `upload_ids`).",
      }),
    })
    .meta({ title: op, ...needsOf(op) });
}

/** The body of `POST /v1/batches/estimate` and `POST /v1/batches` for one operation. */
function batchVariant(op: AvailableOperation) {
  const sources = OPERATION_RULES[op].sources;
  return z
    .strictObject({
      ...extractionOf(op),
      operation: z.literal(op),
      upload_ids:
        sources.min === 1
          ? z
              .array(uploadIdSchema)
              .min(1)
              .max(BATCH_LIMITS.maxItems)
              .optional()
              .meta({ description: 'Shorthand: one child job per upload (an upload may repeat).' })
          : z
              .never()
              .optional()
              .meta({ description: `${op} takes at least ${sources.min} sources: send \`items\`.` }),
      items: z
        .array(
          z.strictObject({
            upload_ids: z.array(uploadIdSchema).min(sources.min).max(sources.max).meta({ uniqueItems: true }),
          }),
        )
        .min(1)
        .max(BATCH_LIMITS.maxItems)
        .optional()
        .meta({ description: 'One child job per item, in this order (`item_index` from 0).' }),
      options: optionsOf(op),
      max_credits: maxCredits(
        'Refuse (409 `max_credits_exceeded`, with the whole quote) instead of quoting the batch above this.',
      ),
      webhook_id: webhookIdSchema.optional().meta({
        description:
          'An enabled `/v1` webhook of your company: the batch sends its events to it, as `webhook_mode` says. Unknown, ' +
          "another company's, disabled or deleted: 404 naming `webhook_id`.",
      }),
      webhook_mode: z.enum(WEBHOOK_MODES).optional().meta({
        default: DEFAULT_WEBHOOK_MODE,
        description:
          "Which events the batch sends: `batch` (batch events), `items` (each child's job events) or `both`.",
      }),
    })
    .meta({
      title: op,
      oneOf: [
        { properties: { upload_ids: true }, required: ['upload_ids'] },
        { properties: { items: true }, required: ['items'] },
      ],
      ...needsOf(op),
    });
}

type Variant = ReturnType<typeof jobVariant> | ReturnType<typeof batchVariant>;
const variants = <V extends Variant>(make: (op: AvailableOperation) => V) =>
  Object.fromEntries(AVAILABLE_OPERATIONS.map((op) => [op, make(op)])) as Record<AvailableOperation, V>;

export const JOB_REQUEST_VARIANTS = variants(jobVariant);
export const BATCH_REQUEST_VARIANTS = variants(batchVariant);

const union = <V extends Variant>(all: Record<AvailableOperation, V>) =>
  z.discriminatedUnion('operation', AVAILABLE_OPERATIONS.map((op) => all[op]) as unknown as [V, ...V[]]);

/** Body of `POST /v1/estimate` and `POST /v1/jobs`: one variant per operation. */
export const jobRequestSchema = union(JOB_REQUEST_VARIANTS);
/** Body of `POST /v1/batches/estimate` and `POST /v1/batches`: one variant per operation. */
export const batchRequestSchema = union(BATCH_REQUEST_VARIANTS);
