/** Business workflow ids: an operator finds a workflow in the Temporal UI by these. */
export const workflowIds = {
  delivery: (deliveryId: string) => `delivery:${deliveryId}`,
  job: (jobId: string) => `job:${jobId}`,
  /** The speech operation of a job, run `n` (a new run after each provider outage): a child of `job:<id>`. */
  speech: (jobId: string, n: number) => `job:${jobId}/speech-${n}`,
  batch: (batchId: string) => `batch:${batchId}`,
  request: (requestId: string) => `request:${requestId}`,
  watcher: (network: string) => `watch:${network}`,
  mail: (mailId: string) => `mail:${mailId}`,
  invoice: (invoiceId: string) => `invoice:${invoiceId}`,
};
