import type { Db } from '../db/connection.js';
import type { InvoiceStatus } from '../db/repositories/invoices.repo.js';
import type { VoidOutcome } from '../domain/proof/invoice-lifecycle.js';
import { beginInvoiceLifecycle, voidInvoice } from '../db/repositories/invoice-lifecycle.repo.js';

export interface InvoiceLifecycleActivityDeps {
  db: Db;
  now?: () => Date;
}

export function createInvoiceLifecycleActivities(deps: InvoiceLifecycleActivityDeps) {
  const now = deps.now ?? (() => new Date());
  return {
    /** Marks the invoice's lifecycle workflow as running and answers its status (null: no such invoice). */
    async beginInvoiceLifecycle(input: { invoiceId: string }): Promise<InvoiceStatus | null> {
      return beginInvoiceLifecycle(deps.db, input.invoiceId, now());
    },

    /**
     * Voids the invoice in one transaction (db/repositories/invoice-lifecycle.repo.ts) and returns the outcome
     * with the webhook deliveries recorded with `invoice.voided`, whose workflows the caller starts. A retry after
     * a lost answer finds the invoice voided (`already_voided`); its deliveries are then started by the
     * maintenance run. The reason is stored with the invoice, never returned or emitted.
     */
    async voidInvoice(input: {
      invoiceId: string;
      reason: string | null;
    }): Promise<{ outcome: VoidOutcome; deliveryIds: string[] }> {
      const r = await voidInvoice(deps.db, { invoiceId: input.invoiceId, reason: input.reason, now: now() });
      switch (r.outcome) {
        case 'voided':
          return {
            outcome: {
              outcome: 'voided',
              invoiceId: r.invoiceId,
              requestId: r.requestId,
              voidedAt: r.voidedAt.toISOString(),
              previousRequestStatus: r.previousRequestStatus,
              events: r.events,
            },
            deliveryIds: r.deliveryIds,
          };
        case 'already_voided':
          return {
            outcome: { outcome: 'already_voided', invoiceId: r.invoiceId, voidedAt: r.voidedAt?.toISOString() ?? null },
            deliveryIds: [],
          };
        case 'already_paid':
          return {
            outcome: { outcome: 'already_paid', invoiceId: r.invoiceId, paidAt: r.paidAt?.toISOString() ?? null },
            deliveryIds: [],
          };
        case 'not_found':
          return { outcome: r, deliveryIds: [] };
      }
    },
  };
}

export type InvoiceLifecycleActivities = ReturnType<typeof createInvoiceLifecycleActivities>;
