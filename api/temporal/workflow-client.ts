import { Client, Connection, WorkflowIdConflictPolicy } from '@temporalio/client';
import { workflowIds } from '../../workflows/task-queues.js';
import type { DeliveryWorkflowInput } from '../../workflows/webhooks/delivery.workflow.js';

/** The one module through which the API (and operator commands) start and query workflows. */
export interface WorkflowGateway {
  client: Client;
  taskQueue: string;
  close(): Promise<void>;
}

export async function connectWorkflowGateway(opts: { address: string; namespace: string; taskQueue: string }): Promise<WorkflowGateway> {
  const connection = await Connection.connect({ address: opts.address });
  const client = new Client({ connection, namespace: opts.namespace });
  return { client, taskQueue: opts.taskQueue, close: () => connection.close() };
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
    memo: { interface: input.interface },
  });
  return workflowId;
}
