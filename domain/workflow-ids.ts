/** Business workflow ids: an operator finds a workflow in the Temporal UI by these. */
export const workflowIds = {
  delivery: (deliveryId: string) => `delivery:${deliveryId}`,
  job: (jobId: string) => `job:${jobId}`,
  batch: (batchId: string) => `batch:${batchId}`,
  request: (requestId: string) => `request:${requestId}`,
  watcher: (network: string) => `watch:${network}`,
  mail: (mailId: string) => `mail:${mailId}`,
  invoice: (invoiceId: string) => `invoice:${invoiceId}`,
};
