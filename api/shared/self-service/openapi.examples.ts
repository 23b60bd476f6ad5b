import { EXAMPLES } from '../proof/openapi.examples.js';

/**
 * A self-service purchase as both session documents show it: a plan in the merchant session (/api/integrations), a
 * credit pack in the company session (`packPurchaseEx` of api/company/openapi.examples.ts spreads it).
 */

/** The moment the session documents' examples happen at. */
export const AT = '2025-11-22T09:05:00.000Z';
export const PURCHASE_EX = {
  purchase: 'pur_Qm4Zr8Tv1Yx5Cb9Nd2Fh',
  platform: '0x52908400098527886E0F7030069857D2E4169EE7',
  payer: '0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF',
};
export const purchaseEx = {
  id: PURCHASE_EX.purchase,
  kind: 'plan',
  plan: 'business',
  pack: null,
  credits: null,
  status: 'awaiting_payment',
  network: 'base',
  pay_to: PURCHASE_EX.platform,
  payer: PURCHASE_EX.payer,
  price_usdc: '19.000000',
  amount_atomic: '19000001',
  amount_usdc: '19.000001',
  received_atomic: '0',
  payment_url: `https://pay.example.com/proof/pay/${EXAMPLES.request}`,
  request_id: EXAMPLES.request,
  review_reason: null,
  tx_hash: null,
  paid_at: null,
  period_start: null,
  period_end: null,
  expires_at: '2025-11-23T09:05:00.000Z',
  created_at: AT,
};
export const paidPurchaseEx = {
  ...purchaseEx,
  status: 'paid',
  received_atomic: '19000001',
  tx_hash: EXAMPLES.txHash,
  paid_at: '2025-11-22T09:07:12.000Z',
  period_start: '2025-11-22T09:07:12.000Z',
  period_end: '2025-12-22T09:07:12.000Z',
};
