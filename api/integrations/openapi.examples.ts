import { PROOF_EVENT_TYPES } from '../../domain/proof/events.js';
import { EXAMPLES } from '../shared/proof/openapi.examples.js';
import { AT, paidPurchaseEx, PURCHASE_EX, purchaseEx } from '../shared/self-service/openapi.examples.js';

export { AT, paidPurchaseEx, purchaseEx };

/**
 * The examples of the /api/integrations document (metadata beside its zod schemas): one account's session, key,
 * destination, delivery, purchase, wallet and review evidence. The purchase examples are the company session's too
 * (a credit pack there), so they are in api/shared/self-service/.
 */

export const EX = {
  user: 'usr_Xb7Nm2Xc4Lk9Jh3Gf6Ds',
  key: 'key_Rt2Wv8Yz1Ab43kQ9xLm7',
  webhook: 'whe_Hc5Tn0Pq8Ws2Ke6Uy4Gd',
  purchase: PURCHASE_EX.purchase,
  challenge: 'wch_Nc7Xd2HmWq3Lk8Zt5Rb1',
  platform: PURCHASE_EX.platform,
  payer: PURCHASE_EX.payer,
};
export const merchantEx = { id: EXAMPLES.merchant, name: 'Example Shop GmbH' };
export const userEx = { id: EX.user, email: 'owner@example.com' };
export const keyEx = {
  id: EX.key,
  name: 'billing server',
  prefix: 'skp_Ab3x',
  last4: 'Qz9K',
  scopes: ['read', 'write'],
  status: 'active',
  usable: true,
  expires_at: null,
  created_at: AT,
  last_used_at: null,
  revoked_at: null,
};
export const webhookEx = {
  id: EX.webhook,
  url: 'https://hooks.example.com/paycore',
  events: [...PROOF_EVENT_TYPES],
  status: 'enabled',
  key_version: 1,
  usable: true,
  created_at: AT,
};
export const deliveryEx = {
  id: EXAMPLES.delivery,
  endpoint_id: EX.webhook,
  event_id: 'evt_StPKR0CsTy4Qwb8DwkNh',
  event_type: 'payment_request.created',
  status: 'failed',
  attempts: 1,
  max_attempts: 5,
  next_attempt_at: null,
  last_status_code: 302,
  last_error: null,
  created_at: AT,
  delivered_at: null,
  failed_at: AT,
  retryable: true,
};
export const attemptEx = {
  attempt: 1,
  outcome: 'terminal',
  status_code: 302,
  error: null,
  duration_ms: 41,
  key_version: 1,
  started_at: AT,
};
export const walletEx = {
  id: EXAMPLES.wallet,
  network: 'base',
  address: EX.payer,
  label: 'Main',
  verified_at: AT,
  created_at: AT,
};
export const challengeMessage = [
  'paycore wallet verification',
  '',
  'Sign this message to prove that you control this receiving wallet. Signing it moves no funds and authorises no payment or transaction.',
  '',
  `Account: ${EXAMPLES.merchant}`,
  'Network: base',
  `Wallet: ${EX.payer}`,
  'Nonce: x6ZbQm1vR0c2Yd8Kp3LwT5hN9sUe7Gf4',
  'Expires: 2025-11-22T09:15:00.000Z',
].join('\n');
export const evidenceEx = {
  tx_hash: EXAMPLES.txHash,
  log_index: 3,
  from: '0x9aF3bB3f2f1C1B7a6F0b2dC8a1e3F4C5d6E7a8B9',
  to: EXAMPLES.payTo,
  amount_atomic: '12500001',
  block_number: 23845102,
  block_time: '2025-11-22T10:01:55.000Z',
  decision: 'review',
  reason: 'unexpected_payer',
  recorded_at: '2025-11-22T10:02:13.000Z',
};
