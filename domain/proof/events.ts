import type { Network } from '../networks.js';

/**
 * Events of the payment-request interface (spec section 6): an envelope `{id, api_version, type,
 * occurred_at, data}` serialized once; the stored bytes are what the event list and webhooks serve. Amounts
 * are integer atomic USDC as strings. No buyer e-mail, description, secret, evidence or share token.
 */
export const PROOF_API_VERSION = '1.0';

export type ProofEventType =
  'payment_request.created' | 'invoice.issued' | 'invoice.voided' | 'payment.confirmed' | 'invoice.paid';
export const PROOF_EVENT_TYPES: readonly ProofEventType[] = [
  'payment_request.created',
  'invoice.issued',
  'invoice.voided',
  'payment.confirmed',
  'invoice.paid',
];

export interface RequestFacts {
  id: string;
  network: Network;
  amountAtomic: bigint;
  quotedAmountAtomic: bigint;
  status: string;
  txHash: string | null;
  verifiedAt: Date | null;
}

export interface InvoiceFacts {
  id: string;
  requestId: string;
  number: string;
  status: string;
  network: Network;
  amountAtomic: bigint;
  txHash: string | null;
}

export function paymentRequestCreatedData(r: RequestFacts) {
  return {
    request_id: r.id,
    network: r.network,
    amount_atomic: r.amountAtomic.toString(),
    quoted_amount_atomic: r.quotedAmountAtomic.toString(),
    status: r.status,
  };
}

export function invoiceData(i: InvoiceFacts) {
  return {
    invoice_id: i.id,
    request_id: i.requestId,
    number: i.number,
    status: i.status,
    network: i.network,
    amount_atomic: i.amountAtomic.toString(),
    tx_hash: i.txHash,
  };
}

export function envelope(id: string, type: ProofEventType, occurredAt: Date, data: Record<string, unknown>): Buffer {
  return Buffer.from(
    JSON.stringify({
      id,
      api_version: PROOF_API_VERSION,
      type,
      occurred_at: Math.floor(occurredAt.getTime() / 1000),
      data,
    }),
    'utf8',
  );
}

/** `payment.confirmed` (spec section 6): `verified_at` as an ISO 8601 time, like the request object. */
export function paymentConfirmedData(r: RequestFacts) {
  return {
    request_id: r.id,
    network: r.network,
    amount_atomic: r.amountAtomic.toString(),
    quoted_amount_atomic: r.quotedAmountAtomic.toString(),
    status: r.status,
    tx_hash: r.txHash,
    verified_at: r.verifiedAt?.toISOString() ?? null,
  };
}
