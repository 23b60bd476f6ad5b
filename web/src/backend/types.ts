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

export type NewInvitation = Invitation & { token: string };

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
