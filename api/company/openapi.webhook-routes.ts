import { LIMITS } from '../../domain/accounts.js';
import {
  deletedV1WebhookSchema,
  newV1WebhookSchema,
  rotatedV1WebhookSchema,
  v1WebhookCreateSchema,
  v1WebhookListSchema,
  v1WebhookSchema,
} from '../../domain/validation/company.js';
import { locationHeader } from '../http/openapi-kit.js';
import { deliveryPageSchema } from './responses.js';
import { idParam, limitParam, beforeParam, companyRoutes } from './openapi.contract.js';
import { EX, webhookEx, secret, deliveryEx } from './openapi.examples.js';
import { v1DeliveryDetailSchema } from '../../domain/validation/company-responses.js';

const webhookIdParam = idParam('webhook_id', 'whe', 'Webhook');

/** The company's /v1 webhooks (billing administrators); registering one is `POST /v1/webhooks`. */
export const WEBHOOK_ROUTES = companyRoutes(
  'Webhooks',
  [
    {
      method: 'post',
      path: '/v1/webhooks',
      operationId: 'createWebhook',
      summary: 'Register a webhook',
      description: `A public HTTPS URL (port 443, a public host name, no credentials; the same destination policy as \`/proof\`; DNS is checked again on every delivery). The signing secret is in this response only. At most ${LIMITS.webhooksPerCompany} per company. A job or batch names it with \`webhook_id\`; which events it receives is decided there. An API key gets 403 \`api_key_not_accepted\`.`,
      body: { schema: v1WebhookCreateSchema, examples: { create: { url: 'https://hooks.example.com/paycore' } } },
      response: {
        status: '201',
        description: 'Registered; the secret is shown once.',
        schema: newV1WebhookSchema,
        examples: { created: { ...webhookEx, secret } },
        headers: {
          Location: locationHeader('The webhook under `/api/company/webhooks`.', '/api/company/webhooks', 'whe'),
        },
      },
      errors: { v1: true, codes409: ['limit_reached'] },
    },
    {
      method: 'get',
      path: '/api/company/webhooks',
      operationId: 'listWebhooks',
      summary: 'Webhooks',
      response: {
        description: 'Enabled and disabled webhooks (deleted ones are gone).',
        schema: v1WebhookListSchema,
        examples: { webhooks: { data: [webhookEx] } },
      },
    },
    {
      method: 'get',
      path: '/api/company/webhooks/{webhook_id}',
      operationId: 'getWebhook',
      summary: 'A webhook',
      parameters: [webhookIdParam],
      response: {
        description: 'The webhook (never its secret).',
        schema: v1WebhookSchema,
        examples: { webhook: webhookEx },
      },
      errors: { ids: true },
    },
    {
      method: 'post',
      path: '/api/company/webhooks/{webhook_id}/disable',
      operationId: 'disableWebhook',
      summary: 'Disable a webhook',
      description: 'No more deliveries, retries included. There is no way back: register a new one.',
      parameters: [webhookIdParam],
      body: 'empty',
      response: {
        description: 'Disabled.',
        schema: v1WebhookSchema,
        examples: { disabled: { ...webhookEx, status: 'disabled' } },
      },
      errors: { ids: true },
    },
    {
      method: 'post',
      path: '/api/company/webhooks/{webhook_id}/delete',
      operationId: 'deleteWebhook',
      summary: 'Delete a webhook',
      description: 'No more deliveries; it is no longer listed nor counted. Its delivery history stays.',
      parameters: [webhookIdParam],
      body: 'empty',
      response: {
        description: 'Deleted.',
        schema: deletedV1WebhookSchema,
        examples: { deleted: { id: EX.webhook, status: 'deleted', deleted_at: EX.at } },
      },
      errors: { ids: true },
    },
    {
      method: 'post',
      path: '/api/company/webhooks/{webhook_id}/rotate',
      operationId: 'rotateWebhookSecret',
      summary: 'Rotate the signing secret',
      description:
        'A new secret, in this response only; every later attempt (pending retries included) is signed with it.',
      parameters: [webhookIdParam],
      body: 'empty',
      response: {
        description: 'Rotated.',
        schema: rotatedV1WebhookSchema,
        examples: { rotated: { id: EX.webhook, key_version: 2, secret } },
      },
      errors: { ids: true },
    },
  ],
  { admin: true },
);

/** The /v1 webhooks' delivery history (billing administrators). */
export const DELIVERY_ROUTES = companyRoutes(
  'Webhooks',
  [
    {
      method: 'get',
      path: '/api/company/deliveries',
      operationId: 'listDeliveries',
      summary: 'Delivery history',
      parameters: [limitParam, beforeParam('deliveries')],
      response: {
        description: 'A page of deliveries (never a body).',
        schema: deliveryPageSchema,
        examples: { page: { data: [deliveryEx], next_cursor: null } },
      },
      errors: { query: true },
    },
    {
      method: 'get',
      path: '/api/company/deliveries/{delivery_id}',
      operationId: 'getDelivery',
      summary: 'A delivery with its attempts',
      parameters: [idParam('delivery_id', 'dlv', 'Delivery')],
      response: {
        description: 'The delivery and every attempt.',
        schema: v1DeliveryDetailSchema,
        examples: {
          delivery: {
            ...deliveryEx,
            attempts_detail: [
              {
                attempt: 1,
                outcome: 'retry',
                status_code: 503,
                error: null,
                duration_ms: 120,
                key_version: 1,
                started_at: EX.at,
              },
              {
                attempt: 2,
                outcome: 'delivered',
                status_code: 200,
                error: null,
                duration_ms: 85,
                key_version: 1,
                started_at: '2025-03-04T09:16:05.000Z',
              },
            ],
          },
        },
      },
      errors: { ids: true },
    },
  ],
  { admin: true },
);
