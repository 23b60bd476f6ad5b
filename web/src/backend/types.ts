/**
 * What the session routes answer, as their OpenAPI documents describe it (docs/proof.md "Management routes",
 * /api/company/openapi.json). Only the members the pages use.
 */

export type Scope = 'read' | 'write';

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  last4: string;
  scopes: Scope[];
  status: 'active' | 'revoked' | 'expired';
  expires_at: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** /proof only: false past the plan's limit after a downgrade. */
  usable?: boolean;
  /** /v1 only: the member who created it. */
  created_by?: string;
}

export type NewApiKey = ApiKey & { secret: string | null };

export interface KeyCreate {
  name: string;
  scopes: Scope[];
  expires_at?: number;
}

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  status: 'enabled' | 'disabled' | 'deleted';
  key_version: number;
  created_at: string;
  usable?: boolean;
}

export type NewWebhook = Webhook & { secret: string | null };

export interface Rotated {
  id: string;
  key_version: number;
  secret: string | null;
}

export interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  max_attempts: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
  failed_at: string | null;
  /** /proof: the destination, and whether a manual retry is possible. */
  endpoint_id?: string;
  retryable?: boolean;
  /** /v1: the webhook. */
  webhook_id?: string;
}

export interface DeliveryAttempt {
  attempt: number;
  outcome: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number | null;
  key_version: number;
  started_at: string;
}

export type DeliveryDetail = Delivery & { attempts_detail: DeliveryAttempt[] };

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export interface MerchantOverview {
  merchant: { id: string; name: string };
  user: { id: string; email: string };
  entitlements: {
    plan: string | null;
    ends_at: string | null;
    keys: { limit: number; used: number };
    destinations: { limit: number; used: number };
    requests_per_period: number | null;
    invoices_per_period: number | null;
    usage: { requests: number; invoices: number; window_start: string | null };
  };
  keys: ApiKey[];
  webhooks: Webhook[];
  event_types: string[];
}

export interface MerchantSession {
  csrf_token: string;
  user: { id: string; email: string };
  merchant: { id: string; name: string };
}

export type Role = 'member' | 'billing_admin';

export interface CompanySession {
  csrf_token: string;
  member: { id: string; email: string; role: Role };
  company: { id: string; name: string };
}

export interface Member {
  id: string;
  email: string;
  role: Role;
  created_at: string;
}

export interface Invitation {
  id: string;
  email: string;
  role: Role;
  invited_by: string;
  created_at: string;
  expires_at: string;
}

export interface SavedWorkflow {
  id: string;
  name: string;
  operation: 'flow-extract';
  fields: string[];
  instructions: string | null;
  revision: number;
  created_at: string;
  updated_at: string;
}

export interface SavedWorkflowInput {
  name: string;
  fields: string[];
  instructions: string | null;
}

export type JobStatus = 'queued' | 'processing' | 'completed' | 'failed' | 'cancelled';

export interface ResultFile {
  name: string;
  download_path: string;
  bytes: number;
  content_type: string;
}

/** A job as `GET /api/company/jobs[/{id}]` shows it (the /v1 job record; its `download_path`s are the /v1 ones). */
export interface Job {
  id: string;
  status: JobStatus;
  operation: string;
  upload_ids: string[];
  options: Record<string, unknown>;
  extraction: { fields: string[]; instructions?: string | null; workflow_id?: string | null } | null;
  estimated_credits: number;
  charged_credits: number | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
  error_code: string | null;
  batch_id: string | null;
  webhook_id: string | null;
  result: { files: ResultFile[]; expires_at: string | null } | null;
}

export type BatchStatus = 'queued' | 'processing' | 'completed' | 'partial' | 'failed';

export interface BatchSummary {
  id: string;
  status: BatchStatus;
  operation: string;
  item_count: number;
  retry_of: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** `deleted`: ended children the client deleted since (counted in their state too). */
  progress: {
    total: number;
    queued: number;
    processing: number;
    completed: number;
    failed: number;
    cancelled: number;
    deleted: number;
  };
  credits: { estimated: number; reserved: number; charged: number; released: number };
}

/** A child the client deleted keeps its state and credits, has no result, and its own page is gone (`deleted_at`). */
export type Batch = BatchSummary & {
  jobs: Array<Job & { item_index: number; deleted_at: string | null }>;
  next_after: number | null;
};

export interface LedgerEntry {
  id: number;
  kind: 'grant' | 'reserve' | 'charge' | 'release';
  amount: number;
  job_id: string | null;
  reason: string | null;
  created_at: string;
}

export interface Credits {
  available: number;
  reserved: number;
  ledger: { data: LedgerEntry[]; next_cursor: number };
}

/**
 * Where a value or a line was read: a page's text (its page, snippet and box in PDF points from the page's top-left;
 * null on plain text), or an element of the e-invoice XML (`page` null, `path` the element).
 */
export interface ReviewEvidence {
  page: number | null;
  snippet: string;
  box: { x0: number; y0: number; x1: number; y1: number } | null;
  source: 'page' | 'xml';
  path: string | null;
  file: string | null;
}

export interface ReviewValue {
  value: string | null;
  extracted_value: string | null;
  evidence: ReviewEvidence | null;
  flagged: boolean;
  reason: string | null;
  corrected: boolean;
}

export interface ReviewFile {
  index: number;
  name: string;
  download_path: string;
  bytes: number;
  content_type: string;
}

export interface ExtractionReview {
  job_id: string;
  revision: number;
  fields: string[];
  /** The form a correction of each field takes. */
  forms: Record<string, string>;
  review_required: boolean;
  documents: Array<{
    index: number;
    document: string;
    upload_id: string;
    pages: number;
    review_required: boolean;
    review_reasons: string[];
    warnings: string[];
    fields: Record<string, ReviewValue>;
    items: Array<
      Record<string, { value: string | null; evidence: ReviewEvidence | null; flagged: boolean; reason: string | null }>
    >;
    /** Where each whole line item is (same order as `items`): the union of its cells' boxes; null without evidence. */
    lines: Array<ReviewEvidence | null>;
  }>;
  corrections: Array<{
    id: string;
    revision: number;
    document: number;
    field: string;
    previous_value: string | null;
    value: string | null;
    corrected_by: string;
    corrected_at: string;
  }>;
  files: { original: ReviewFile[]; reviewed: ReviewFile[] };
  expires_at: string | null;
}

/** The networks a /proof wallet, request or purchase is on. */
export const NETWORKS = ['base', 'polygon', 'arbitrum', 'optimism', 'ethereum', 'avalanche', 'solana'] as const;
export type Network = (typeof NETWORKS)[number];
export type PaidPlan = 'starter' | 'business' | 'pro';

/** `GET /api/integrations/plan`: usable without an active plan or trial (to buy one). */
export interface PlanInfo {
  plan: string | null;
  ends_at: string | null;
  paid_plan: PaidPlan | null;
  paid_until: string | null;
  limits: Record<string, number | null> | null;
  usage: { requests: number; invoices: number; window_start: string | null };
  prices: Array<{ plan: PaidPlan; price_usdc: string; period_days: number }>;
  trial_days: number;
  purchase_networks: Network[];
}

export type PurchaseStatus = 'awaiting_payment' | 'paid' | 'underpaid' | 'review' | 'expired';

/** A plan (or credit pack) bought with USDC paid to the platform's wallet (docs/proof.md "Plans paid in USDC"). */
export interface Purchase {
  id: string;
  kind: 'plan' | 'credits';
  plan: PaidPlan | null;
  /** A credit pack's id (`credits_<n>`) and its credits (a decimal string), for `kind: 'credits'`. */
  pack: string | null;
  credits: string | null;
  status: PurchaseStatus;
  network: Network;
  pay_to: string;
  payer: string;
  price_usdc: string;
  amount_atomic: string;
  amount_usdc: string;
  received_atomic: string;
  payment_url: string;
  request_id: string;
  review_reason: string | null;
  tx_hash: string | null;
  paid_at: string | null;
  period_start: string | null;
  period_end: string | null;
  expires_at: string;
  created_at: string;
}

/** `GET /api/company/credit-packs`: the packs on offer, the networks they can be paid on; no card checkout here. */
export interface CreditPackOffer {
  packs: { id: string; credits: string; price_usdc: string }[];
  purchase_networks: Network[];
  card_checkout: boolean;
}

export interface Wallet {
  id: string;
  network: Network;
  address: string;
  label: string | null;
  verified_at: string | null;
  created_at: string;
}

export interface WalletChallenge {
  id: string;
  network: Network;
  address: string;
  label: string | null;
  message: string;
  expires_at: string;
}

export const REQUEST_STATUSES = ['AWAITING', 'REVIEW', 'PAID', 'EXPIRED', 'VOIDED'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export interface PaymentRequest {
  id: string;
  url: string;
  status: RequestStatus;
  network: Network;
  wallet_id: string;
  pay_to: string;
  amount_atomic: string;
  quoted_amount_atomic: string;
  amount_usdc: string;
  description: string;
  customer_label: string | null;
  expected_payer: string | null;
  valid_hours: number;
  expires_at: string;
  created_at: string;
  invoice_id: string | null;
  tx_hash: string | null;
  verified_at: string | null;
}

export interface Evidence {
  tx_hash: string;
  log_index: number;
  from: string;
  to: string;
  amount_atomic: string;
  block_number: number;
  block_time: string;
  decision: string;
  reason: string | null;
  recorded_at: string;
}

export type ReviewRequest = PaymentRequest & { review_reason: string | null; evidence: Evidence[] };

export interface Contact {
  id: string;
  legal_name: string;
  email: string;
  address: string | null;
  reference: string | null;
  created_at: string;
}

export interface InvoiceLine {
  description: string;
  quantity: string;
  unit_usdc: string;
  amount_usdc?: string;
}

export interface Invoice {
  id: string;
  number: string;
  status: 'issued' | 'paid' | 'voided';
  customer_id: string;
  wallet_id: string;
  request_id: string;
  network: Network;
  due_date: string;
  issued_at: string;
  items: InvoiceLine[];
  subtotal_usdc: string;
  tax_mode: string;
  tax_rate: string | null;
  tax_usdc: string;
  total_usdc: string;
  total_atomic: string;
  amount_atomic: string;
  memo: string | null;
  document_sha256: string;
  tx_hash: string | null;
  paid_at: string | null;
  voided_at: string | null;
}

export interface ProofEvent {
  cursor: number;
  event: { id: string; api_version: string; type: string; occurred_at: number; data: Record<string, unknown> };
}

export interface EventsPage {
  data: ProofEvent[];
  next_cursor: number;
}
