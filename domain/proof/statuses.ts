/**
 * The states of `/proof` payment requests and invoices, and what each means to an integrator: one list for the
 * code (repositories, matching, the payment page), the OpenAPI enums and the developers page, so none can drift.
 */
export const REQUEST_STATUSES = ['AWAITING', 'REVIEW', 'PAID', 'EXPIRED', 'VOIDED'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const REQUEST_STATUS_MEANINGS: Readonly<Record<RequestStatus, string>> = {
  AWAITING: 'Open: waiting for a transfer of exactly `amount_atomic`.',
  REVIEW: 'A transfer was seen and is being reviewed (e.g. from an unexpected payer, or after expiry). Not paid.',
  PAID: "Confirmed from verified transfer evidence by the service's own matching; final. Reported by `payment.confirmed`.",
  EXPIRED: '`AWAITING` past `expires_at` without a payment; its amount is free again.',
  VOIDED:
    'Its invoice was voided: it can no longer be paid, and a later transfer of its amount goes to `REVIEW`, never to `PAID`.',
};

export const INVOICE_STATUSES = ['issued', 'paid', 'voided'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const INVOICE_STATUS_MEANINGS: Readonly<Record<InvoiceStatus, string>> = {
  issued: 'Issued, with its one payment request open (or expired).',
  paid: 'Its payment request is `PAID`; `invoice.paid` is emitted.',
  voided:
    'Voided by the service operator on your request: its payment request becomes `VOIDED`, `invoice.voided` is emitted, and the creation allowance is not restored.',
};
