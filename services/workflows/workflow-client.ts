import {
  Client,
  Connection,
  isGrpcServiceError,
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdConflictPolicy,
  WorkflowIdReusePolicy,
  WorkflowNotFoundError,
} from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import { activeTracing, currentTraceId } from '../../adapters/tracing/tracing.js';
import { INVOICE_LIFECYCLE, workflowIds } from '../../workflows/task-queues.js';
import type { DeliveryWorkflowInput } from '../../workflows/webhooks/delivery.workflow.js';
import type { JobWorkflowInput } from '../../workflows/processing/job.workflow.js';
import type { BatchWorkflowInput } from '../../workflows/processing/batch.workflow.js';
import { searchAttributesOf } from '../../domain/search-attributes.js';
import { SLOT_WAIT } from '../../domain/jobs.js';
import type { InvoiceMailWorkflowInput } from '../../workflows/proof/invoice-mail.workflow.js';
import type { InvoiceLifecycleInput, VoidInvoiceRequest } from '../../workflows/proof/invoice-lifecycle.workflow.js';
import type { VoidOutcome } from '../../domain/proof/invoice-lifecycle.js';

/** The one module through which the API (and operator commands) start and query workflows. */
export interface WorkflowGateway {
  client: Client;
  taskQueue: string;
  close(): Promise<void>;
}

/**
 * With `lazy`, the connection is made on first use: the API starts (and keeps answering) while Temporal is down;
 * starts decided meanwhile wait in the start outbox for the workers' starters (services/workflows/workflow-starts.ts).
 */
export async function connectWorkflowGateway(opts: {
  address: string;
  namespace: string;
  taskQueue: string;
  lazy?: boolean;
}): Promise<WorkflowGateway> {
  const connection = opts.lazy
    ? Connection.lazy({ address: opts.address })
    : await Connection.connect({ address: opts.address });
  const client = new Client({ connection, namespace: opts.namespace, ...clientTracing() });
  return { client, taskQueue: opts.taskQueue, close: () => connection.close() };
}

/**
 * The client interceptor that starts a span around each workflow start (and signal, query, update) and passes the trace
 * context to the workflow in its headers, when this process traces (adapters/tracing); nothing otherwise.
 */
export function clientTracing(): { interceptors?: { workflow: OpenTelemetryWorkflowClientInterceptor[] } } {
  return activeTracing() ? { interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } } : {};
}

/** The memo a traced start carries: the trace id operators paste into their tracing UI (seen in the Temporal UI). */
function traceMemo(): { memo?: { traceId: string } } {
  const traceId = currentTraceId();
  return traceId ? { memo: { traceId } } : {};
}

/**
 * Starts `delivery:<id>`. Starting it again while it runs is harmless (the running one is kept); after it
 * closed, a new run may start (a manual retry continues from `startAttempt`).
 */
export async function startDeliveryWorkflow(gw: WorkflowGateway, input: DeliveryWorkflowInput): Promise<string> {
  const workflowId = workflowIds.delivery(input.deliveryId);
  await gw.client.workflow.start('webhookDeliveryWorkflow', {
    workflowId,
    taskQueue: gw.taskQueue,
    args: [input],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    memo: { interface: input.interface, ...traceMemo().memo },
  });
  return workflowId;
}

/**
 * Starts a workflow under its business id at most once: while it runs, or after it closed, a repeated start keeps
 * the existing one (nothing is started again).
 */
async function startOnce(
  gw: WorkflowGateway,
  workflowType: string,
  workflowId: string,
  input: unknown,
  searchAttributes?: Record<string, string[]>,
): Promise<string> {
  try {
    await gw.client.workflow.start(workflowType, {
      workflowId,
      taskQueue: gw.taskQueue,
      args: [input],
      ...(searchAttributes ? { searchAttributes } : {}),
      ...traceMemo(),
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    });
  } catch (e) {
    if (!(e instanceof WorkflowExecutionAlreadyStartedError)) throw e;
  }
  return workflowId;
}

/**
 * Starts `job:<id>` for a committed job. A repeated start while it runs or after it completed is harmless:
 * the existing workflow is kept. Input is the id only; the job (and any sealed password) stays in PostgreSQL.
 */
export async function startJobWorkflow(
  gw: WorkflowGateway,
  input: JobWorkflowInput,
  about?: { companyId: string; operation: string },
): Promise<string> {
  return startOnce(
    gw,
    'processingJobWorkflow',
    workflowIds.job(input.jobId),
    input,
    about ? searchAttributesOf({ ...about, status: 'queued' }) : undefined,
  );
}

/**
 * Wakes the workflows `job:<id>` of queued jobs (the `slotFreed` signal, domain/jobs.ts SLOT_WAIT): a cancelled job's
 * workflow then ends at once instead of at its fallback timer. Best effort: a workflow that has ended, or Temporal
 * not answering, is skipped (the timer still ends the wait).
 */
export async function wakeJobWorkflows(gw: WorkflowGateway, jobIds: readonly string[]): Promise<void> {
  await Promise.all(
    jobIds.map((id) =>
      gw.client.workflow
        .getHandle(workflowIds.job(id))
        .signal(SLOT_WAIT.signal)
        .catch(() => undefined),
    ),
  );
}

/**
 * Starts `batch:<id>` for a committed batch; it starts the children (`job:<id>`) as its child workflows. A repeated
 * start is harmless: the existing workflow, running or closed, is kept. The input is the id only.
 */
export async function startBatchWorkflow(
  gw: WorkflowGateway,
  input: BatchWorkflowInput,
  about?: { companyId: string; operation: string },
): Promise<string> {
  return startOnce(
    gw,
    'processingBatchWorkflow',
    workflowIds.batch(input.batchId),
    input,
    about ? searchAttributesOf({ ...about, status: 'queued', batchId: input.batchId }) : undefined,
  );
}

/**
 * Starts `mail:<id>` for a committed outbox row (only when mail is configured). The input is the id only: the
 * address and the document stay in PostgreSQL and the file store. A repeated start is harmless: the existing
 * workflow, running or closed, is kept (one e-mail per outbox row).
 */
export async function startInvoiceMailWorkflow(
  gw: WorkflowGateway,
  input: Pick<InvoiceMailWorkflowInput, 'mailId'>,
): Promise<string> {
  return startOnce(gw, 'invoiceMailWorkflow', workflowIds.mail(input.mailId), { mailId: input.mailId });
}

/**
 * Starts `invoice:<id>` for a committed invoice. A repeated start is harmless: the existing workflow, running
 * or closed, is kept. The input is the id only.
 */
export async function startInvoiceLifecycleWorkflow(
  gw: WorkflowGateway,
  input: InvoiceLifecycleInput,
): Promise<string> {
  return startOnce(gw, 'invoiceLifecycleWorkflow', workflowIds.invoice(input.invoiceId), {
    invoiceId: input.invoiceId,
  });
}

/**
 * Voids an invoice through its `invoice:<id>` workflow (operator command) and waits for the outcome: the `void`
 * update, with update-with-start, so it works whether the workflow runs, was never started (a lost start) or
 * already closed (a new run then reads the invoice and answers `already_voided` or `already_paid`).
 */
export async function voidInvoiceThroughWorkflow(
  gw: WorkflowGateway,
  input: { invoiceId: string } & VoidInvoiceRequest,
): Promise<VoidOutcome> {
  const startWorkflowOperation = new WithStartWorkflowOperation('invoiceLifecycleWorkflow', {
    workflowId: workflowIds.invoice(input.invoiceId),
    taskQueue: gw.taskQueue,
    args: [{ invoiceId: input.invoiceId }],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
  });
  return gw.client.workflow.executeUpdateWithStart<() => Promise<unknown>, VoidOutcome, [VoidInvoiceRequest]>(
    INVOICE_LIFECYCLE.voidUpdate,
    {
      args: [{ reason: input.reason ?? null }],
      startWorkflowOperation,
    },
  );
}

/**
 * Asks `invoice:<id>` to re-read its invoice (the `paid` signal, which makes the workflow read the invoice and settle
 * on what it finds, paid or voided), after a change committed outside the workflow: the dashboard's voiding. A
 * missing or closed workflow is fine: a later start reads the invoice as it is.
 */
export async function nudgeInvoiceLifecycle(gw: WorkflowGateway, invoiceId: string): Promise<void> {
  try {
    await gw.client.workflow.getHandle(workflowIds.invoice(invoiceId)).signal(INVOICE_LIFECYCLE.paidSignal);
  } catch (e) {
    if (!(e instanceof WorkflowNotFoundError)) throw e;
  }
}

/**
 * A workflow start (or signal) decided in a transaction and written to the start outbox with it
 * (services/workflows/workflow-starts.ts): what to start and its input, the id-only inputs of the functions above plus what
 * the search attributes of jobs and batches need.
 */
export type WorkflowStart =
  | { kind: 'job'; input: { jobId: string; companyId: string; operation: string } }
  | { kind: 'batch'; input: { batchId: string; companyId: string; operation: string } }
  | { kind: 'invoice-lifecycle'; input: { invoiceId: string } }
  | { kind: 'invoice-mail'; input: { mailId: string } }
  | { kind: 'delivery'; input: DeliveryWorkflowInput }
  | { kind: 'invoice-nudge'; input: { invoiceId: string } };

/** The business id a start concerns (`job:<id>`, …), for operators and logs. */
export function workflowIdOf(start: WorkflowStart): string {
  switch (start.kind) {
    case 'job':
      return workflowIds.job(start.input.jobId);
    case 'batch':
      return workflowIds.batch(start.input.batchId);
    case 'invoice-lifecycle':
    case 'invoice-nudge':
      return workflowIds.invoice(start.input.invoiceId);
    case 'invoice-mail':
      return workflowIds.mail(start.input.mailId);
    case 'delivery':
      return workflowIds.delivery(start.input.deliveryId);
  }
}

/** Makes a queued start through the functions above: each is harmless when repeated (the existing workflow is kept). */
export async function performStart(gw: WorkflowGateway, start: WorkflowStart): Promise<void> {
  switch (start.kind) {
    case 'job':
      await startJobWorkflow(
        gw,
        { jobId: start.input.jobId },
        { companyId: start.input.companyId, operation: start.input.operation },
      );
      return;
    case 'batch':
      await startBatchWorkflow(
        gw,
        { batchId: start.input.batchId },
        { companyId: start.input.companyId, operation: start.input.operation },
      );
      return;
    case 'invoice-lifecycle':
      await startInvoiceLifecycleWorkflow(gw, start.input);
      return;
    case 'invoice-mail':
      await startInvoiceMailWorkflow(gw, start.input);
      return;
    case 'delivery':
      await startDeliveryWorkflow(gw, start.input);
      return;
    case 'invoice-nudge':
      await nudgeInvoiceLifecycle(gw, start.input.invoiceId);
      return;
  }
}

/** gRPC codes that mean the Temporal server could not be reached (or answer in time), not that it refused. */
const UNREACHABLE = new Set([
  4, // DEADLINE_EXCEEDED
  8, // RESOURCE_EXHAUSTED
  14, // UNAVAILABLE
]);

/**
 * True when `err` (or an error it wraps) says the Temporal server is unreachable: try again as soon as it answers.
 * Anything else (a refused start, a bug) is worth a wait and a log line.
 */
export function isTemporalUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (isGrpcServiceError(e) && UNREACHABLE.has(e.code)) return true;
    if (e.name === 'TransportError') return true;
  }
  return false;
}

/** Runs `fn` with every Temporal call in it bounded by `ms` (the client retries an unreachable server until then). */
export function withinDeadline<T>(gw: WorkflowGateway, ms: number, fn: () => Promise<T>): Promise<T> {
  return gw.client.connection.withDeadline(Date.now() + ms, fn);
}
