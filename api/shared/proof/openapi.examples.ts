import { PROOF_API_VERSION, type ProofEventType } from '../../../domain/proof/events.js';
import type { Schema } from '../../http/openapi-kit.js';
import { encodeCursor } from '../../http/pagination.js';

/**
 * Example values of the /proof/v1 document and developers page. They are one consistent story (an invoice
 * of 442.084988 USDC, its payment request, its events); the conformance test validates every example
 * against its schema.
 */
export const EXAMPLES = {
  merchant: 'mer_u8jzPde0IgxLd6GncfBA',
  wallet: 'wal_epfJBd0Kh8oOOL8dKLzd',
  solanaWallet: 'wal_ocJ2isAjIhKtJ0RlgLKO',
  request: 'req_mxgJTeKdNnFRIBXuDL7D',
  invoiceRequest: 'req_xtpYlSXpfKtHF4vUCsMe',
  contact: 'con_hGAkWvj7FAc9QeWJKY40',
  invoice: 'inv_uvSwMFLZDe1f8rESQedU',
  delivery: 'dlv_gEOzdmenCkhvMdgaKjIg',
  requestId: '5f0c6c1e-3a51-4f7e-9b8e-2d1f7c0a9e44',
  idempotencyKey: 'order-4711-payment-request',
  payTo: '0x52908400098527886E0F7030069857D2E4169EE7',
  txHash: '0x8f3c2b1a9d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a',
  /** A `next_cursor` of the payment-request list. */
  cursor: encodeCursor('requests', 'req_mxgJTeKdNnFRIBXuDL7D'),
} as const;

export const EVENT_IDS: Readonly<Record<ProofEventType, string>> = {
  'payment_request.created': 'evt_StPKR0CsTy4Qwb8DwkNh',
  'invoice.issued': 'evt_FdnXsiVpzz63FfkCzJr4',
  'invoice.voided': 'evt_i0B3JrTAwR4y9ojfljoQ',
  'payment.confirmed': 'evt_oaF1LlqsajAIxNKu8iS2',
  'invoice.paid': 'evt_G8NPRVdD53X83RZJzzzz',
};

const ISSUED_AT = '2025-11-22T09:05:00.000Z';
const VERIFIED_AT = '2025-11-23T10:15:42.000Z';
const unix = (iso: string) => Math.floor(Date.parse(iso) / 1000);

export const requestCreateExample: Schema = {
  wallet_id: EXAMPLES.wallet,
  amount_usdc: '12.5',
  description: 'Consulting, November',
  customer_label: 'ACME GmbH',
  valid_hours: 48,
};

export const requestExample = (over: Schema = {}): Schema => ({
  id: EXAMPLES.request,
  url: `https://pay.example.com/proof/pay/${EXAMPLES.request}`,
  status: 'AWAITING',
  network: 'base',
  wallet_id: EXAMPLES.wallet,
  pay_to: EXAMPLES.payTo,
  amount_atomic: '12500001',
  quoted_amount_atomic: '12500000',
  amount_usdc: '12.500001',
  description: 'Consulting, November',
  customer_label: 'ACME GmbH',
  expected_payer: null,
  valid_hours: 48,
  expires_at: '2025-11-24T09:00:00.000Z',
  created_at: '2025-11-22T09:00:00.000Z',
  invoice_id: null,
  tx_hash: null,
  verified_at: null,
  ...over,
});

export const contactCreateExample: Schema = {
  legal_name: 'Buyer GmbH',
  email: 'ap@buyer.example',
  address: 'Hauptstr. 1, 10115 Berlin',
  reference: 'C-77',
};
export const contactExample: Schema = {
  id: EXAMPLES.contact,
  ...contactCreateExample,
  created_at: '2025-11-20T16:30:12.004Z',
};

export const invoiceCreateExample: Schema = {
  customer_id: EXAMPLES.contact,
  wallet_id: EXAMPLES.wallet,
  due_date: '2025-12-06',
  items: [
    { description: 'Design work', quantity: '3', unit_usdc: '120.50' },
    { description: 'Hosting (pro-rated)', quantity: '0.333333', unit_usdc: '30' },
  ],
  tax_mode: 'exclusive',
  tax_rate: '19',
  accounting: { reference: 'PO-9' },
  memo: 'Thank you',
};

export const invoiceExample = (over: Schema = {}): Schema => ({
  id: EXAMPLES.invoice,
  number: 'INV-000001',
  status: 'issued',
  customer_id: EXAMPLES.contact,
  wallet_id: EXAMPLES.wallet,
  request_id: EXAMPLES.invoiceRequest,
  network: 'base',
  due_date: '2025-12-06',
  issued_at: ISSUED_AT,
  items: [
    { description: 'Design work', quantity: '3', unit_usdc: '120.500000', amount_usdc: '361.500000' },
    { description: 'Hosting (pro-rated)', quantity: '0.333333', unit_usdc: '30.000000', amount_usdc: '9.999990' },
  ],
  subtotal_usdc: '371.499990',
  tax_mode: 'exclusive',
  tax_rate: '19',
  tax_usdc: '70.584998',
  tax_notes: null,
  total_usdc: '442.084988',
  total_atomic: '442084988',
  amount_atomic: '442084989',
  accounting: { reference: 'PO-9' },
  memo: 'Thank you',
  document_sha256: '3b0c5c1e7d1f2a9e8b4c6d0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d',
  tx_hash: null,
  paid_at: null,
  voided_at: null,
  ...over,
});

export const meExample: Schema = {
  api_version: PROOF_API_VERSION,
  id: EXAMPLES.merchant,
  name: 'Acme Studio',
  plan: 'business',
  plan_ends_at: '2025-12-15T08:00:00.000Z',
  limits: {
    requests_per_period: 200,
    invoices_per_period: 200,
    keys: 3,
    destinations: 3,
    max_valid_hours: 720,
    requests_per_hour: null,
  },
  usage: { requests: 17, invoices: 5, window_start: '2025-10-23T09:05:00.000Z' },
  wallets: [
    { id: EXAMPLES.wallet, network: 'base', address: EXAMPLES.payTo, label: 'Main' },
    {
      id: EXAMPLES.solanaWallet,
      network: 'solana',
      address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
      label: null,
    },
  ],
};

const invoiceData = (status: string, txHash: string | null): Schema => ({
  invoice_id: EXAMPLES.invoice,
  request_id: EXAMPLES.invoiceRequest,
  number: 'INV-000001',
  status,
  network: 'base',
  amount_atomic: '442084989',
  tx_hash: txHash,
});

/** One example event of each type, as the event list and webhooks carry it. */
export const EVENT_EXAMPLES: Readonly<Record<ProofEventType, Schema>> = (() => {
  const event = (type: ProofEventType, at: string, data: Schema): Schema => ({
    id: EVENT_IDS[type],
    api_version: PROOF_API_VERSION,
    type,
    occurred_at: unix(at),
    data,
  });
  return {
    'payment_request.created': event('payment_request.created', ISSUED_AT, {
      request_id: EXAMPLES.invoiceRequest,
      network: 'base',
      amount_atomic: '442084989',
      quoted_amount_atomic: '442084988',
      status: 'AWAITING',
    }),
    'invoice.issued': event('invoice.issued', ISSUED_AT, invoiceData('issued', null)),
    'invoice.voided': event('invoice.voided', '2025-11-22T11:40:00.000Z', invoiceData('voided', null)),
    'payment.confirmed': event('payment.confirmed', VERIFIED_AT, {
      request_id: EXAMPLES.invoiceRequest,
      network: 'base',
      amount_atomic: '442084989',
      quoted_amount_atomic: '442084988',
      status: 'PAID',
      tx_hash: EXAMPLES.txHash,
      verified_at: VERIFIED_AT,
    }),
    'invoice.paid': event('invoice.paid', VERIFIED_AT, invoiceData('paid', EXAMPLES.txHash)),
  };
})();
