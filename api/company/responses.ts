import { batchSummarySchema, jobSchema } from '../../domain/validation/job-records.js';
import { v1DeliverySchema } from '../../domain/validation/company-responses.js';
import { purchaseSchema } from '../../domain/validation/integrations-responses.js';
import { pageSchema } from '../http/pagination.js';

/**
 * The cursor pages the company session answers (`page()` of api/http/pagination.ts), as zod schemas: the handlers'
 * answers are typed by them (`answer`) and the document (openapi.document.ts) names them as components.
 */
export const jobPageSchema = pageSchema(jobSchema, 'jobs');
export const batchPageSchema = pageSchema(batchSummarySchema, 'batches');
export const deliveryPageSchema = pageSchema(v1DeliverySchema, 'deliveries');
export const purchasePageSchema = pageSchema(purchaseSchema, 'purchases');
