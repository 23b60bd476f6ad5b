import { z } from 'zod';
import { LINE_ITEM_COLUMNS } from '../extraction.js';
import { idRegex } from '../ids.js';
import { attemptSchema, csrfTokenSchema } from './integrations-responses.js';

/**
 * The response bodies of the company session's routes (`/api/company`) that domain/validation/company.ts and
 * saved-workflows.ts do not hold: the session, the /v1 webhook deliveries and the extraction review. Written once:
 * the handlers' serializers are typed by them (`answer`, api/http/contract.ts) and the document
 * (api/company/openapi.document.ts) is generated from them.
 */

const prefixedId = (prefix: string, what: string) =>
  z
    .string()
    .regex(idRegex(prefix))
    .meta({ description: `${what} id: \`${prefix}_\` and 20 letters or digits.` });
const dateTime = z.iso.datetime();

const memberSchema = z.strictObject({
  id: prefixedId('mem', 'Member'),
  email: z.string(),
  role: z.enum(['member', 'billing_admin']),
});
const companySchema = z.strictObject({ id: prefixedId('co', 'Company'), name: z.string() });
const sessionFields = {
  csrf_token: csrfTokenSchema,
  member: memberSchema,
  company: companySchema,
};

/** The answer of `POST /api/company/session`. */
export const companySignedInSchema = z.strictObject({ ...sessionFields, expires_at: dateTime });
/** The answer of `GET /api/company/session`. */
export const companySessionSchema = z.strictObject(sessionFields);
/** The answer of `POST /api/company/invitations/accept`. */
export const joinedSchema = z.strictObject({ member: memberSchema, company: companySchema });

const v1DeliveryFields = {
  id: prefixedId('dlv', 'Delivery'),
  webhook_id: prefixedId('whe', 'Webhook'),
  event_id: z.string(),
  event_type: z.string(),
  status: z.enum(['pending', 'retrying', 'delivered', 'failed']),
  attempts: z.int().min(0),
  max_attempts: z.int().min(1),
  next_attempt_at: dateTime.nullable(),
  last_status_code: z.int().nullable(),
  last_error: z.string().nullable(),
  created_at: dateTime,
  delivered_at: dateTime.nullable(),
  failed_at: dateTime.nullable(),
};
/** A delivery of a /v1 webhook: ids, type, state and attempt counts; never the body (no manual retry on /v1). */
export const v1DeliverySchema = z.strictObject(v1DeliveryFields);
/** A delivery with every attempt. */
export const v1DeliveryDetailSchema = z.strictObject({
  ...v1DeliveryFields,
  attempts_detail: z.array(attemptSchema),
});

const boxSchema = z.strictObject({ x0: z.number(), y0: z.number(), x1: z.number(), y1: z.number() });
const evidenceSchema = z
  .strictObject({
    page: z
      .int()
      .min(1)
      .nullable()
      .meta({ description: "Null for a value read from an e-invoice's XML (`source` `xml`)." }),
    snippet: z.string(),
    box: boxSchema.nullable().meta({
      description: "In PDF points from the page's top-left corner; null on a plain-text page and for XML evidence.",
    }),
    source: z.enum(['page', 'xml']).meta({
      description: 'The text of `page`, or an element of the e-invoice XML (docs/processing.md "E-invoices").',
    }),
    path: z.string().nullable().meta({
      description:
        "`source` `xml`: the XML element's path; a sum of several elements (a FatturaPA subtotal or tax) names their paths joined by ` + `.",
    }),
    file: z
      .string()
      .nullable()
      .meta({ description: "`source` `xml`: the XML's file name in the PDF; null for an uploaded XML." }),
  })
  .nullable();
const flagFields = {
  flagged: z
    .boolean()
    .meta({ description: 'The evidence check or a document check (the totals, the dates…) failed: look at it.' }),
  reason: z.string().nullable().meta({ description: 'Why, each reason once, separated by "; ".' }),
};
const reviewFileSchema = z.strictObject({
  index: z.int().min(0),
  name: z.string(),
  download_path: z.string(),
  bytes: z.int().min(0),
  content_type: z.string(),
});
const cellSchema = z.strictObject({ value: z.string().nullable(), evidence: evidenceSchema, ...flagFields });
const lineItemSchema = z.strictObject(
  Object.fromEntries(LINE_ITEM_COLUMNS.map((c) => [c, cellSchema])) as Record<
    (typeof LINE_ITEM_COLUMNS)[number],
    typeof cellSchema
  >,
);
const reviewDocumentSchema = z.strictObject({
  index: z.int().min(0),
  document: z.string(),
  upload_id: z.string().nullable(),
  pages: z.int().min(0),
  review_required: z.boolean(),
  review_reasons: z.array(z.string()),
  warnings: z.array(z.string()),
  fields: z.record(
    z.string(),
    z.strictObject({
      value: z.string().nullable(),
      extracted_value: z.string().nullable().meta({ description: 'What the engine read.' }),
      evidence: evidenceSchema,
      ...flagFields,
      corrected: z.boolean(),
    }),
  ),
  items: z.array(lineItemSchema),
  lines: z.array(evidenceSchema).meta({
    description:
      "For each line item (same order as `items`), where the whole line is: the page of its description, the union of its cells' boxes on that page and their snippets in reading order; null when no cell has evidence.",
  }),
});

/** A `flow-extract` job's review: values beside their evidence, the corrections so far and the result files. */
export const extractionReviewSchema = z.strictObject({
  job_id: prefixedId('job', 'Job'),
  revision: z.int().min(0).meta({
    description: 'How many revisions of corrections were made (0: none); send it back with the next corrections.',
  }),
  fields: z.array(z.string()),
  forms: z.record(z.string(), z.string()).meta({
    description:
      'For each field, the form a correction takes (e.g. `a date as YYYY-MM-DD, e.g. "2026-03-31"`), as a 422 words it.',
  }),
  review_required: z.boolean().meta({ description: 'Some document still has a flagged value that was not corrected.' }),
  documents: z.array(reviewDocumentSchema),
  corrections: z.array(
    z.strictObject({
      id: prefixedId('exc', 'Correction'),
      revision: z.int().min(1),
      document: z.int().min(0),
      field: z.string(),
      previous_value: z.string().nullable(),
      value: z.string().nullable(),
      corrected_by: z.string().meta({ description: "The member's e-mail address." }),
      corrected_at: dateTime,
    }),
  ),
  files: z.strictObject({
    original: z.array(reviewFileSchema),
    reviewed: z.array(reviewFileSchema).meta({ description: 'Empty before the first correction.' }),
  }),
  expires_at: dateTime.nullable(),
});
