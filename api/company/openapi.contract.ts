import { z } from 'zod';
import { idRegex } from '../../domain/ids.js';
import {
  companyKeyListSchema,
  companyKeySchema,
  deletedV1WebhookSchema,
  invitationAcceptSchema,
  invitationCreateSchema,
  invitationListSchema,
  invitationSchema,
  memberListSchema,
  newCompanyKeySchema,
  newV1WebhookSchema,
  removedMemberSchema,
  revokedInvitationSchema,
  rotatedV1WebhookSchema,
  v1WebhookCreateSchema,
  v1WebhookListSchema,
  v1WebhookSchema,
} from '../../domain/validation/company.js';
import {
  companySessionSchema,
  companySignedInSchema,
  extractionReviewSchema,
  joinedSchema,
  v1DeliveryDetailSchema,
  v1DeliverySchema,
} from '../../domain/validation/company-responses.js';
import { correctionsSchema } from '../../domain/validation/extraction-corrections.js';
import {
  deletedSavedWorkflowSchema,
  savedWorkflowCreateSchema,
  savedWorkflowListSchema,
  savedWorkflowSchema,
  savedWorkflowUpdateSchema,
} from '../../domain/validation/saved-workflows.js';
import { creditPacksSchema, packPurchaseSchema } from '../../domain/validation/self-service.js';
import { keyCreateSchema, signInSchema } from '../../domain/validation/integrations.js';
import { purchaseSchema } from '../../domain/validation/integrations-responses.js';
import { pathParam, type Schema } from '../http/openapi-kit.js';
import { beforeSchema, CURSOR_LISTS, encodeCursor, limitSchema } from '../http/pagination.js';
import { Contract, type Components } from '../http/contract.js';
import { V1_ONLY, V1_REQUESTS, V1_RESPONSES } from '../shared/processing/openapi.contract.js';
import { batchPageSchema, deliveryPageSchema, jobPageSchema, purchasePageSchema } from './responses.js';
import { errorSchema, type ErrorsOf } from './openapi.errors.js';
import { routeTable, type RouteRow, type SessionRoute } from '../http/session-document.js';

/**
 * The OpenAPI 3.1 document of the company administrators' session (`/api/company` and `POST /v1/webhooks`): what a
 * browser page of the processing interface calls. Security is the session cookie and, on every mutation, the
 * `X-CSRF-Token` of the session (and an `Origin` the server allows, which browsers send by themselves).
 */
export const COMPANY_OPENAPI_PATH = '/api/company/openapi.json';
export const COMPANY_DOCS_PATH = '/api/company/docs';
/**
 * The document's own version: no specification has a release of the company session. processing-api.md section 5 says
 * only that keys are managed in an interactive same-origin web session and that the format of its requests is not
 * shown; its 1.2.0 is the release of `/v1` (PROCESSING_API_VERSION), which this document does not describe apart from
 * `POST /v1/webhooks`. So it stays 1.0.0 until these routes change incompatibly.
 */
export const COMPANY_API_VERSION = '1.0.0';

/** The answer of `GET /api/company/openapi.json`: an OpenAPI document (its own parts are not restated). */
export const openApiDocumentSchema = z.looseObject({ openapi: z.string(), paths: z.looseObject({}) });

/** The /v1 components this document shows too (the /v1-only ones, e.g. the webhook bodies, left out). */
const v1Only = <T extends Components>(set: T): Components =>
  Object.fromEntries(Object.entries(set).filter(([name]) => !V1_ONLY.has(name)));

/**
 * The company session's contract: every request body and answer of its routes as the zod schemas the handlers parse
 * with and the serializers are typed by, named as the document's components; the /v1 resources (jobs, batches,
 * uploads, credits) are the /v1 contract's own.
 */
export const companyContract = new Contract({
  requests: {
    ...v1Only(V1_REQUESTS),
    WebhookCreate: v1WebhookCreateSchema,
    SignIn: signInSchema,
    InvitationAccept: invitationAcceptSchema,
    KeyCreate: keyCreateSchema,
    InvitationCreate: invitationCreateSchema,
    PackPurchaseCreate: packPurchaseSchema,
    SavedWorkflowCreate: savedWorkflowCreateSchema,
    SavedWorkflowUpdate: savedWorkflowUpdateSchema,
    ExtractionCorrections: correctionsSchema,
  },
  responses: {
    ...v1Only(V1_RESPONSES),
    SignedIn: companySignedInSchema,
    Session: companySessionSchema,
    Joined: joinedSchema,
    JobPage: jobPageSchema,
    BatchPage: batchPageSchema,
    ExtractionReview: extractionReviewSchema,
    Webhook: v1WebhookSchema,
    NewWebhook: newV1WebhookSchema,
    RotatedWebhook: rotatedV1WebhookSchema,
    DeletedWebhook: deletedV1WebhookSchema,
    WebhookList: v1WebhookListSchema,
    Key: companyKeySchema,
    NewKey: newCompanyKeySchema,
    KeyList: companyKeyListSchema,
    Invitation: invitationSchema,
    RevokedInvitation: revokedInvitationSchema,
    InvitationList: invitationListSchema,
    MemberList: memberListSchema,
    Removed: removedMemberSchema,
    CreditPacks: creditPacksSchema,
    Purchase: purchaseSchema,
    PurchasePage: purchasePageSchema,
    SavedWorkflow: savedWorkflowSchema,
    SavedWorkflowList: savedWorkflowListSchema,
    DeletedSavedWorkflow: deletedSavedWorkflowSchema,
    Delivery: v1DeliverySchema,
    DeliveryPage: deliveryPageSchema,
    DeliveryDetail: v1DeliveryDetailSchema,
    Error: errorSchema,
    OpenApiDocument: openApiDocumentSchema,
  },
});
export const parameter = companyContract.parameterSchema.bind(companyContract);

export const idParam = (name: string, prefix: string, what: string) =>
  pathParam(
    name,
    parameter(z.string().regex(idRegex(prefix))),
    `${what} id (\`${prefix}_…\`).`,
    `${prefix}_${'Ab3'.repeat(6)}Cd`,
  );
export const jobIdParam = idParam('job_id', 'job', 'Job');
export const limitParam: Schema = {
  name: 'limit',
  in: 'query',
  required: false,
  schema: parameter(limitSchema),
  description: 'Page size, 1 to 100 (default 50).',
};
export const beforeParam = (list: 'jobs' | 'deliveries' | 'batches' | 'purchases' | 'uploads'): Schema => ({
  name: 'before',
  in: 'query',
  required: false,
  schema: parameter(beforeSchema(list)),
  description:
    'The `next_cursor` of the previous page of this list, passed back unchanged. Opaque: the pattern is only its shape; any other value is 422.',
  examples: {
    next_page: {
      summary: 'A next_cursor of this list',
      value: encodeCursor(list, `${CURSOR_LISTS[list]}_${'Vb7Nm2Xc4Lk9Jh3Gf6Ds'}`),
    },
  },
});
export const emptyPage = { data: [], next_cursor: null };

/** One operation of the company document's route tables (openapi.*-routes.ts, one file per area). */
export type CompanyRoute = SessionRoute<ErrorsOf>;

/**
 * A route table of the company document: each row says only what differs from `tag`, from the `errors` every row of
 * the table has, and from what every mutation has (the CSRF token and the Origin check: `mutation`).
 */
export const companyRoutes = (tag: string, rows: ReadonlyArray<RouteRow<ErrorsOf>>, errors: ErrorsOf = {}) =>
  routeTable<ErrorsOf>({ tag, errors, mutations: { errors: { mutation: true } } }, rows);
