import { V1_WEBHOOK_EVENT_TYPES } from '../../domain/validation/company.js';
import { purchaseEx } from '../shared/self-service/openapi.examples.js';

/** The examples of the company session's document. */

export const packPurchaseEx = {
  ...purchaseEx,
  id: 'pur_Vb7Nm2Xc4Lk9Jh3Gf6Ds',
  kind: 'credits',
  plan: null,
  pack: 'credits_30000',
  credits: '30000',
  price_usdc: '29.000000',
  amount_atomic: '29000001',
  amount_usdc: '29.000001',
};

export const EX = {
  member: 'mem_Xb7Nm2Xc4Lk9Jh3Gf6Ds',
  company: 'co_Lk9Jh3Gf6DsXb7Nm2Xc4',
  key: 'key_Rt2Wv8Yz1Ab43kQ9xLm7',
  webhook: 'whe_Hc5Tn0Pq8Ws2Ke6Uy4Gd',
  invitation: 'cin_Qm4Zr8Tv1Yx5Cb9Nd2Fh',
  delivery: 'dlv_Wq3Lk8Zt5Rb1Nc7Xd2Hm',
  workflow: 'wfl_Nc7Xd2HmWq3Lk8Zt5Rb1',
  at: '2025-03-04T09:15:02.118Z',
};
export const memberEx = { id: EX.member, email: 'ops@example.com', role: 'billing_admin' };
export const companyEx = { id: EX.company, name: 'Example GmbH' };
export const keyEx = {
  id: EX.key,
  name: 'ci pipeline',
  prefix: 'sk_live_Ab3x',
  last4: 'Qz9K',
  scopes: ['read', 'write'],
  status: 'active',
  expires_at: null,
  created_at: EX.at,
  last_used_at: null,
  revoked_at: null,
  created_by: EX.member,
};
export const webhookEx = {
  id: EX.webhook,
  url: 'https://hooks.example.com/paycore',
  events: [...V1_WEBHOOK_EVENT_TYPES],
  status: 'enabled',
  key_version: 1,
  created_at: EX.at,
};
export const invitationEx = {
  id: EX.invitation,
  email: 'new.colleague@example.com',
  role: 'member',
  invited_by: EX.member,
  created_at: EX.at,
  expires_at: '2025-03-07T09:15:02.118Z',
};
export const deliveryEx = {
  id: EX.delivery,
  webhook_id: EX.webhook,
  event_id: 'evt_Wq3Lk8Zt5Rb1Nc7Xd2Hm',
  event_type: 'job.completed',
  status: 'delivered',
  attempts: 2,
  max_attempts: 6,
  next_attempt_at: null,
  last_status_code: 200,
  last_error: null,
  created_at: EX.at,
  delivered_at: '2025-03-04T09:16:05.000Z',
  failed_at: null,
};
export const secret = 'whsec_Q2xhc3NpYy1leGFtcGxlLXNlY3JldC1zaG93bi1vbmNl';
export const workflowEx = {
  id: EX.workflow,
  name: 'Supplier invoices',
  operation: 'flow-extract',
  fields: ['invoice_number', 'invoice_date', 'total', 'currency'],
  instructions: 'Dates as printed; totals include tax.',
  options: {},
  revision: 1,
  created_by: EX.member,
  updated_by: EX.member,
  created_at: EX.at,
  updated_at: EX.at,
};
export const sessionEx = { csrf_token: 'f'.repeat(64), member: memberEx, company: companyEx };
