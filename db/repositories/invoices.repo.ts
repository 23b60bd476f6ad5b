import type { InvoiceTotals, TaxMode } from '../../domain/proof/invoice-math.js';
import type { Db } from '../connection.js';
import { merchantPageById } from './paging.js';

export type { InvoiceStatus } from '../../domain/proof/statuses.js';
import type { InvoiceStatus } from '../../domain/proof/statuses.js';

export interface StoredLine {
  description: string;
  quantity: string;
  unit_atomic: string;
  line_total_atomic: string;
}

export interface Invoice {
  id: string;
  merchantId: string;
  contactId: string;
  walletId: string;
  requestId: string;
  number: string;
  status: InvoiceStatus;
  dueDate: string;
  lines: StoredLine[];
  subtotalAtomic: bigint;
  taxAtomic: bigint;
  totalAtomic: bigint;
  taxMode: TaxMode;
  taxRate: string | null;
  taxNotes: string | null;
  accounting: Record<string, string> | null;
  memo: string | null;
  documentSha256: string;
  issuedAt: Date;
  paidAt: Date | null;
  voidedAt: Date | null;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
const toInvoice = (r: any): Invoice => ({
  id: r.id,
  merchantId: r.merchant_id,
  contactId: r.contact_id,
  walletId: r.wallet_id,
  requestId: r.request_id,
  number: r.number,
  status: r.status,
  dueDate: r.due_date,
  lines: r.lines,
  subtotalAtomic: BigInt(r.subtotal_atomic),
  taxAtomic: BigInt(r.tax_atomic),
  totalAtomic: BigInt(r.total_atomic),
  taxMode: r.tax_mode,
  taxRate: r.tax_rate,
  taxNotes: r.tax_notes,
  accounting: r.accounting,
  memo: r.memo,
  documentSha256: r.document_sha256,
  issuedAt: r.issued_at,
  paidAt: r.paid_at,
  voidedAt: r.voided_at,
});
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The next invoice number of a merchant (`INV-000001`, …); call with the merchant row locked. */
export async function nextInvoiceNumber(trx: Db, merchantId: string): Promise<string> {
  const [row] = await trx('merchants').where({ id: merchantId }).increment('invoice_seq', 1).returning('invoice_seq');
  return `INV-${String(row.invoice_seq).padStart(6, '0')}`;
}

export async function insertInvoice(
  trx: Db,
  input: Pick<
    Invoice,
    | 'id'
    | 'merchantId'
    | 'contactId'
    | 'walletId'
    | 'requestId'
    | 'number'
    | 'dueDate'
    | 'taxNotes'
    | 'accounting'
    | 'memo'
    | 'documentSha256'
    | 'issuedAt'
  > & {
    /** Derived from the creating request's Idempotency-Key. */
    creationKey: string;
    totals: InvoiceTotals;
    buyerSnapshot: Record<string, unknown>;
    issuerSnapshot: Record<string, unknown>;
    documentStorageId: string;
  },
): Promise<Invoice> {
  const t = input.totals;
  const [row] = await trx('invoices')
    .insert({
      id: input.id,
      merchant_id: input.merchantId,
      contact_id: input.contactId,
      wallet_id: input.walletId,
      request_id: input.requestId,
      number: input.number,
      creation_key: input.creationKey,
      due_date: input.dueDate,
      lines: JSON.stringify(
        t.lines.map((l) => ({
          description: l.description,
          quantity: l.quantity,
          unit_atomic: l.unit_atomic.toString(),
          line_total_atomic: l.line_total_atomic.toString(),
        })),
      ),
      subtotal_atomic: t.subtotal_atomic.toString(),
      tax_atomic: t.tax_atomic.toString(),
      total_atomic: t.total_atomic.toString(),
      tax_mode: t.tax_mode,
      tax_rate: t.tax_rate,
      tax_notes: input.taxNotes,
      accounting: input.accounting ? JSON.stringify(input.accounting) : null,
      memo: input.memo,
      buyer_snapshot: JSON.stringify(input.buyerSnapshot),
      issuer_snapshot: JSON.stringify(input.issuerSnapshot),
      document_storage_id: input.documentStorageId,
      document_sha256: input.documentSha256,
      issued_at: input.issuedAt,
    })
    .returning('*');
  return toInvoice(row);
}

/** An invoice with what only the platform reads: its document's storage id and the identity snapshots. */
export async function getInvoiceForMail(
  db: Db,
  merchantId: string,
  id: string,
): Promise<{ invoice: Invoice; documentStorageId: string; issuerName: string; buyerName: string | null } | null> {
  const row = await db('invoices').where({ id, merchant_id: merchantId }).first();
  if (!row) return null;
  return {
    invoice: toInvoice(row),
    documentStorageId: row.document_storage_id,
    issuerName: (row.issuer_snapshot as { name?: string } | null)?.name ?? '',
    buyerName: (row.buyer_snapshot as { legal_name?: string } | null)?.legal_name ?? null,
  };
}

/** Locks the invoice row for the caller's transaction (sends of one invoice are serialized on it). */
export async function lockInvoice(trx: Db, merchantId: string, id: string): Promise<void> {
  await trx('invoices').where({ id, merchant_id: merchantId }).forUpdate().first('id');
}

export async function getInvoice(db: Db, merchantId: string, id: string): Promise<Invoice | null> {
  const row = await db('invoices').where({ id, merchant_id: merchantId }).first();
  return row ? toInvoice(row) : null;
}

/** A page of the merchant's invoices ordered by id, descending, strictly before `before`. */
export async function listInvoices(
  db: Db,
  merchantId: string,
  limit: number,
  before: string | null,
): Promise<Invoice[]> {
  return merchantPageById(db, 'invoices', merchantId, limit, before, toInvoice);
}
