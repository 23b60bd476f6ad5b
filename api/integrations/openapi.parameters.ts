import { idPattern } from '../../domain/ids.js';
import { requestStatusSchema } from '../../domain/validation/proof-responses.js';
import { afterSchema, beforeSchema, encodeCursor, limitSchema, type CursorList } from '../http/pagination.js';
import { headerRef, pathParam, replayedHeader, type Schema } from '../http/openapi-kit.js';
import { sessionHeaders } from '../http/session-document.js';
import { EXAMPLES } from '../shared/proof/openapi.examples.js';
import { idempotencyKeySchema } from '../shared/proof/openapi.schemas.js';
import { integrationsContract } from './openapi.contract.js';

/** The parameters and headers of the /api/integrations routes, their schemas generated from the zod rules. */

const parameter = integrationsContract.parameterSchema.bind(integrationsContract);

export const HEADERS: Record<string, Schema> = {
  ...sessionHeaders(),
  'Idempotent-Replayed': replayedHeader(
    '`true` when this is the stored answer of an earlier request with the same `Idempotency-Key`.',
  ),
};
export const replayed = { 'Idempotent-Replayed': headerRef('Idempotent-Replayed') };

export const idParam = (prefix: string, what: string, value: string) =>
  pathParam('id', { type: 'string', pattern: idPattern(prefix) }, `${what} id (\`${prefix}_…\`).`, value);

export const idempotencyKey: Schema = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  schema: parameter(idempotencyKeySchema),
  example: EXAMPLES.idempotencyKey,
  description:
    'Required on every mutation: 16 to 80 letters, digits, `_` or `-`; account-wide (shared with `/proof/v1`), kept forever. The same operation and body replay the first answer.',
};

export const limitParam: Schema = {
  name: 'limit',
  in: 'query',
  required: false,
  schema: parameter(limitSchema),
  description: 'Page size, 1 to 100 (default 50).',
};

/** The last id of an example page of each list this interface pages (its cursor is a `before` example). */
const SAMPLE_IDS: Partial<Record<CursorList, string>> = {
  requests: EXAMPLES.request,
  contacts: EXAMPLES.contact,
  invoices: EXAMPLES.invoice,
  deliveries: EXAMPLES.delivery,
  purchases: 'pur_Vb7Nm2Xc4Lk9Jh3Gf6Ds',
};

export const beforeParam = (list: CursorList): Schema => ({
  name: 'before',
  in: 'query',
  required: false,
  schema: parameter(beforeSchema(list)),
  description:
    'The `next_cursor` of the previous page of this list, passed back unchanged. Opaque: the pattern is only its shape; any other value is 422.',
  examples: { next_page: { summary: 'A next_cursor of this list', value: encodeCursor(list, SAMPLE_IDS[list]!) } },
});

export const requestsListParams: Schema[] = [
  limitParam,
  beforeParam('requests'),
  {
    name: 'status',
    in: 'query',
    required: false,
    schema: integrationsContract.ref(requestStatusSchema),
    description: 'Only requests that read as this status now (an `AWAITING` request past its expiry reads `EXPIRED`).',
  },
];

export const afterParam: Schema = {
  name: 'after',
  in: 'query',
  required: false,
  description: 'An integer from 0 to 2^53−1 (default 0).',
  schema: parameter(afterSchema),
};
