import { z } from 'zod';
import { MAX_CORRECTIONS_PER_REQUEST } from '../extraction-review.js';
import { parser } from './integrations.js';

/**
 * The body of `POST /api/company/jobs/{id}/extraction/corrections` (docs/processing.md "Review corrections"), strict:
 * `revision` is the review revision the reviewer saw (0 before any correction), so a correction made on a stale view
 * is refused instead of silently overwriting another reviewer's; `corrections` names each document (0-based, input
 * order) and scalar field with its new value (a string, or null to clear it). The value's form is checked against
 * the field's kind once the job's fields are known (domain/extraction-review.ts).
 */
const correction = z.strictObject({
  document: z
    .number()
    .int()
    .min(0, 'document is the 0-based index of the input document')
    .max(10_000)
    .meta({ description: 'The 0-based index of the input document.' }),
  field: z.string().min(1).max(200).meta({ description: "One of the job's fields (line items are not corrected)." }),
  value: z.union([z.string().max(10_000), z.null()], { message: 'value is a string, or null to clear the field' }),
});

export const correctionsSchema = z.strictObject({
  revision: z.number().int().min(0, 'revision is the review revision you corrected (0 before any correction)'),
  corrections: z
    .array(correction)
    .min(1, 'send at least one correction')
    .max(MAX_CORRECTIONS_PER_REQUEST, `at most ${MAX_CORRECTIONS_PER_REQUEST} corrections per request`),
});

export type CorrectionsBody = z.output<typeof correctionsSchema>;
export const parseCorrections = parser(correctionsSchema);
