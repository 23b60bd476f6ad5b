// Everything the worker bundles. Workflows import only @temporalio/workflow, domain/ and types of activities.
export { webhookDeliveryWorkflow } from './webhooks/delivery.workflow.js';
export { maintenanceWorkflow } from './maintenance/maintenance.workflow.js';
export { processingJobWorkflow } from './processing/job.workflow.js';
export { speechJobWorkflow } from './processing/speech.workflow.js';
export { processingBatchWorkflow } from './processing/batch.workflow.js';
export { retentionWorkflow } from './maintenance/retention.workflow.js';
export { invoiceMailWorkflow } from './proof/invoice-mail.workflow.js';
export { paymentWatcherWorkflow } from './proof/payment-watcher.workflow.js';
export { invoiceLifecycleWorkflow } from './proof/invoice-lifecycle.workflow.js';
