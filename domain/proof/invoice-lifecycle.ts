/**
 * The invoice lifecycle (spec section 3): issued → paid (the payment watcher, from verified evidence) or
 * issued → voided (an operator, until the dashboard exists). Voiding emits `invoice.voided` and does not
 * restore the creation quota. The API can never change an invoice's status.
 */
export type SettledInvoiceStatus = 'paid' | 'voided';

/**
 * The answer of the `void` update of `invoice:<id>` (what `invoices:void` prints); times are ISO 8601. Only
 * `voided` changed anything; `previousRequestStatus` is the state its payment request left for `VOIDED`.
 */
export type VoidOutcome =
  | {
      outcome: 'voided';
      invoiceId: string;
      requestId: string;
      voidedAt: string;
      previousRequestStatus: 'AWAITING' | 'REVIEW' | 'EXPIRED';
      events: number;
    }
  | { outcome: 'already_voided'; invoiceId: string; voidedAt: string | null }
  | { outcome: 'already_paid'; invoiceId: string; paidAt: string | null }
  | { outcome: 'not_found'; invoiceId: string };

/** An operator's reason for voiding: stored with the invoice (never in an event or a public object). */
export const VOID_REASON_MAX_LENGTH = 500;

/** The reason trimmed (empty → null), or the problem with it. */
export function parseVoidReason(raw: unknown): { ok: true; reason: string | null } | { ok: false; message: string } {
  if (raw === undefined || raw === null) return { ok: true, reason: null };
  if (typeof raw !== 'string') return { ok: false, message: 'the reason must be text' };
  const reason = raw.trim();
  if (reason.length > VOID_REASON_MAX_LENGTH)
    return { ok: false, message: `the reason must be at most ${VOID_REASON_MAX_LENGTH} characters` };
  return { ok: true, reason: reason === '' ? null : reason };
}
