/**
 * The shapes the dashboard uses, named: every one is a component (or a part of one) of the types openapi-typescript
 * generates from the session routes' OpenAPI documents (web/src/backend/generated/, from docs/openapi/company.json and
 * docs/openapi/integrations.json; `npm run openapi:generate`). Nothing here is written by hand beside the documents:
 * a changed response shape changes these types and breaks the pages' typecheck.
 */
import type { ApiClient } from './client';
import type { components as CompanyComponents, paths as CompanyPaths } from './generated/company';
import type { components as MerchantComponents, paths as MerchantPaths } from './generated/integrations';

export type { CompanyPaths, MerchantPaths };
/** The client of the company session (`/api/company`, `POST /v1/webhooks`). */
export type CompanyApi = ApiClient<CompanyPaths>;
/** The client of a merchant user's session (`/api/integrations`). */
export type MerchantApi = ApiClient<MerchantPaths>;

type C = CompanyComponents['schemas'];
type M = MerchantComponents['schemas'];
type Item<T> = T extends ReadonlyArray<infer I> ? I : never;

/** A cursor page of a list. */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

// Sessions
export type CompanySession = C['Session'];
export type MerchantSession = M['Session'];
export type Role = CompanySession['member']['role'];

// Keys and webhooks (both sessions; the panels take either)
export type ApiKey = C['Key'] | M['Key'];
export type NewApiKey = C['NewKey'] | M['NewKey'];
export type Scope = Item<ApiKey['scopes']>;
export type KeyCreate = NonNullable<
  CompanyPaths['/api/company/keys']['post']['requestBody']
>['content']['application/json'];
export type Webhook = C['Webhook'] | M['Destination'];
export type NewWebhook = C['NewWebhook'] | M['NewDestination'];
export type Rotated = C['RotatedWebhook'] | M['RotatedDestination'];
export type Delivery = C['Delivery'] | M['Delivery'];
export type DeliveryDetail = C['DeliveryDetail'] | M['DeliveryDetail'];

// Company
export type Member = Item<C['MemberList']['data']>;
export type Invitation = C['Invitation'];
export type SavedWorkflow = C['SavedWorkflow'];
export type SavedWorkflowInput = NonNullable<
  CompanyPaths['/api/company/workflows']['post']['requestBody']
>['content']['application/json'];
export type Job = C['Job'];
export type ResultFile = C['ResultFile'];
export type BatchSummary = C['BatchSummary'];
export type Batch = C['Batch'];
export type Credits = C['Credits'];
export type LedgerEntry = C['LedgerEntry'];
export type ExtractionReview = C['ExtractionReview'];
type ReviewDocument = Item<ExtractionReview['documents']>;
export type ReviewValue = ReviewDocument['fields'][string];
export type ReviewEvidence = NonNullable<ReviewValue['evidence']>;
export type ReviewFile = Item<ExtractionReview['files']['original']>;
export type CreditPackOffer = C['CreditPacks'];
export type Purchase = C['Purchase'] | M['Purchase'];

// Merchant
export type MerchantOverview = M['Overview'];
export type PlanInfo = M['Plan'];
export type PaidPlan = NonNullable<PlanInfo['paid_plan']>;
export type Network = M['Network'];
export type Wallet = M['Wallet'];
export type WalletChallenge = M['WalletChallenge'];
export type RequestStatus = M['RequestStatus'];
export type PaymentRequest = M['PaymentRequest'];
export type ReviewRequest = Item<M['ReviewPage']['data']>;
export type Contact = M['Contact'];
export type Invoice = M['Invoice'];
export type EventsPage = M['EventList'];
export type ProofEventType = Item<MerchantOverview['event_types']>;
export type ProofEvent = Item<EventsPage['data']>;

/** Every network, in the order the pages offer them (checked against the documents' enum both ways). */
export const NETWORKS = [
  'base',
  'polygon',
  'arbitrum',
  'optimism',
  'ethereum',
  'avalanche',
  'solana',
] as const satisfies readonly Network[];
/** Every payment request status, in the order the filters show them. */
export const REQUEST_STATUSES = [
  'AWAITING',
  'REVIEW',
  'PAID',
  'EXPIRED',
  'VOIDED',
] as const satisfies readonly RequestStatus[];
/** Every /proof event type a destination may subscribe to. */
export const PROOF_EVENT_TYPES = [
  'payment_request.created',
  'invoice.issued',
  'invoice.voided',
  'payment.confirmed',
  'invoice.paid',
] as const satisfies readonly ProofEventType[];
export const isProofEventType = (t: string): t is ProofEventType =>
  (PROOF_EVENT_TYPES as readonly string[]).includes(t);
type Exhaustive<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : never;
const networksComplete: Exhaustive<Network, (typeof NETWORKS)[number]> = true;
const statusesComplete: Exhaustive<RequestStatus, (typeof REQUEST_STATUSES)[number]> = true;
void networksComplete;
void statusesComplete;
const eventTypesComplete: Exhaustive<ProofEventType, (typeof PROOF_EVENT_TYPES)[number]> = true;
void eventTypesComplete;
