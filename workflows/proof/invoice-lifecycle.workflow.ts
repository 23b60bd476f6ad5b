import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  defineSignal,
  defineUpdate,
  getExternalWorkflowHandle,
  patched,
  proxyActivities,
  setHandler,
  TemporalFailure,
} from '@temporalio/workflow';
import type { InvoiceLifecycleActivities } from '../../activities/invoice-lifecycle.activities.js';
import { parseVoidReason, type SettledInvoiceStatus, type VoidOutcome } from '../../domain/proof/invoice-lifecycle.js';
import { startIfAbsent } from '../start-if-absent.js';
import { INVOICE_LIFECYCLE, workflowIds } from '../task-queues.js';
import { webhookDeliveryWorkflow } from '../webhooks/delivery.workflow.js';

export interface InvoiceLifecycleInput {
  invoiceId: string;
}

/** The `void` update's argument: the operator's optional reason (at most 500 characters; stored, never emitted). */
export interface VoidInvoiceRequest {
  reason?: string | null;
}

export interface InvoiceLifecycleResult {
  /** `not_found` only when the workflow was started for an id that is no invoice. */
  status: SettledInvoiceStatus | 'not_found';
}

/** Operator voiding: runs `voidInvoice` and answers its outcome (voided, already_voided, already_paid, not_found). */
export const voidInvoiceUpdate = defineUpdate<VoidOutcome, [VoidInvoiceRequest]>(INVOICE_LIFECYCLE.voidUpdate);
/** Sent by the payment watcher after it committed the invoice `paid`; the workflow checks the database before settling. */
export const invoicePaidSignal = defineSignal(INVOICE_LIFECYCLE.paidSignal);

/** Reading and marking the invoice: retried until the database answers. */
const { beginInvoiceLifecycle } = proxyActivities<InvoiceLifecycleActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/** Voiding: a few attempts, then the update fails and the operator sees it (the invoice stays as it was). */
const { voidInvoice } = proxyActivities<InvoiceLifecycleActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 5 },
});

/**
 * The lifecycle of one invoice (workflow id `invoice:<id>`, input the id only), started by the API after the
 * invoice commits, by the maintenance run when that start was lost, or by `invoices:void` (update-with-start).
 * It waits, with a history of a handful of events, until the invoice is settled:
 * - the `void` update (operator) voids it through `voidInvoice` and starts the recorded webhook deliveries;
 * - the `paid` signal (payment watcher) makes it re-read the invoice, which the watcher marked paid;
 * - an invoice already paid or voided when the workflow starts (a lost signal, a late start) settles at once.
 * It completes with `{status: 'paid' | 'voided'}` once every update in progress has answered.
 */
export async function invoiceLifecycleWorkflow(input: InvoiceLifecycleInput): Promise<InvoiceLifecycleResult> {
  // Changed by the handlers: an object, so the compiler does not narrow it to its initial value.
  const state: { settled: InvoiceLifecycleResult['status'] | null; paidSignalled: boolean } = {
    settled: null,
    paidSignalled: false,
  };
  const settle = (status: InvoiceLifecycleResult['status']) => {
    state.settled ??= status;
  };

  setHandler(invoicePaidSignal, () => {
    state.paidSignalled = true;
  });
  setHandler(
    voidInvoiceUpdate,
    async (request) => {
      const reason = parseVoidReason(request?.reason);
      const { outcome, deliveryIds } = await voidInvoice({
        invoiceId: input.invoiceId,
        reason: reason.ok ? reason.reason : null,
      });
      // The worker's dispatcher sends deliveries recorded since patch `webhook-dispatcher`; runs from before start
      // their workflows here (a start lost to a crash right here is made by the maintenance run).
      if (!patched('webhook-dispatcher')) {
        for (const deliveryId of deliveryIds)
          await startIfAbsent(webhookDeliveryWorkflow, workflowIds.delivery(deliveryId), {
            deliveryId,
            interface: 'proof' as const,
          });
      }
      if (outcome.outcome === 'voided' || outcome.outcome === 'already_voided') settle('voided');
      else if (outcome.outcome === 'already_paid') settle('paid');
      else settle('not_found');
      return outcome;
    },
    {
      // Rejected before anything is recorded in the history.
      validator: (request) => {
        const reason = parseVoidReason(request?.reason);
        if (!reason.ok) throw ApplicationFailure.nonRetryable(reason.message, 'validation_failed');
      },
    },
  );

  const read = async () => {
    const status = await beginInvoiceLifecycle({ invoiceId: input.invoiceId });
    if (status === null) settle('not_found');
    else if (status !== 'issued') settle(status);
  };
  await read();
  while (state.settled === null) {
    await condition(() => state.settled !== null || state.paidSignalled);
    if (state.settled === null) {
      state.paidSignalled = false;
      await read();
    }
  }
  await condition(allHandlersFinished);
  return { status: state.settled };
}

/**
 * Tells `invoice:<id>` that the watcher marked the invoice paid (from the watcher's workflow, after the commit).
 * A missing or closed workflow is fine: a later start reads the invoice paid, and voiding answers `already_paid`.
 */
export async function signalInvoicePaid(invoiceId: string): Promise<boolean> {
  try {
    await getExternalWorkflowHandle(workflowIds.invoice(invoiceId)).signal(invoicePaidSignal);
    return true;
  } catch (e) {
    if (!(e instanceof TemporalFailure)) throw e;
    return false;
  }
}
