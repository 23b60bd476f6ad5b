import { WALLET_CHALLENGE_TTL_MS } from '../../domain/self-service.js';
import {
  walletChallengeSchema,
  walletListSchema,
  walletSchema,
} from '../../domain/validation/integrations-responses.js';
import { invoiceVoidSchema } from '../../domain/validation/integrations.js';
import { contactCreateSchema, invoiceCreateSchema } from '../../domain/validation/proof-invoice.js';
import { requestCreateSchema } from '../../domain/validation/proof-request.js';
import { contactSchema, invoiceSchema, paymentRequestSchema } from '../../domain/validation/proof-responses.js';
import { eventListSchema } from '../../domain/validation/proof-event-schemas.js';
import { walletChallengeCreateSchema, walletVerifySchema } from '../../domain/validation/self-service.js';
import { z } from 'zod';
import { binaryContent, header, htmlContent, type Schema } from '../http/openapi-kit.js';
import {
  contactCreateExample,
  contactExample,
  EVENT_EXAMPLES,
  EXAMPLES,
  invoiceCreateExample,
  invoiceExample,
  requestCreateExample,
  requestExample,
} from '../shared/proof/openapi.examples.js';
import { contactListSchema, invoiceListSchema, paymentRequestListSchema } from '../shared/proof/openapi.schemas.js';
import { reviewPageSchema } from './openapi.contract.js';
import { AT, challengeMessage, evidenceEx, EX, walletEx } from './openapi.examples.js';
import { afterParam, beforeParam, idParam, limitParam, requestsListParams } from './openapi.parameters.js';
import { integrationsRoutes, type IntegrationsRoute } from './openapi.routes.js';
import type { ErrorsOf } from './openapi.errors.js';
import type { RouteRow } from '../http/session-document.js';

/** The operations of /api/integrations on wallets and the merchant's /proof records (see openapi.routes.ts). */

export const WALLET_ROUTES = integrationsRoutes(
  'Wallets',
  [
    {
      method: 'get',
      path: '/wallets',
      operationId: 'listWallets',
      summary: 'Verified receiving wallets',
      response: {
        description: 'The verified wallets, oldest first.',
        schema: walletListSchema,
        examples: { wallets: { data: [walletEx] } },
      },
    },
    {
      method: 'post',
      path: '/wallets/challenges',
      operationId: 'createWalletChallenge',
      summary: 'Ask for a wallet challenge',
      description: `A one-time message bound to your account, the network and the address, with a random nonce; sign it in the wallet within ${WALLET_CHALLENGE_TTL_MS / 60_000} minutes and send the signature to \`POST /wallets/verify\`. No private key is ever sent. A wallet verified by another account is refused (409).`,
      body: {
        schema: walletChallengeCreateSchema,
        examples: { base: { network: 'base', address: EX.payer, label: 'Main' } },
      },
      response: {
        status: '201',
        description: 'The challenge.',
        schema: walletChallengeSchema,
        examples: {
          challenge: {
            id: EX.challenge,
            network: 'base',
            address: EX.payer,
            label: 'Main',
            message: challengeMessage,
            expires_at: '2025-11-22T09:15:00.000Z',
          },
        },
      },
      errors: { extra409: ['conflict'] },
    },
    {
      method: 'post',
      path: '/wallets/verify',
      operationId: 'verifyWallet',
      summary: 'Verify a wallet by its signature of the challenge',
      description:
        'EVM networks: the 65-byte EIP-191 `personal_sign` signature as 0x hex. Solana: the 64-byte ed25519 signature in base58. The challenge must be yours, unexpired and unused (422 `challenge_invalid`); a wrong or malformed signature is 422 `signature_invalid` and leaves the challenge usable until it expires. Verified: the challenge is used and the wallet can receive payment requests.',
      body: {
        schema: walletVerifySchema,
        examples: { evm: { challenge_id: EX.challenge, signature: `0x${'ab'.repeat(65)}` } },
      },
      response: {
        status: '201',
        description: 'The verified wallet.',
        schema: walletSchema,
        examples: { verified: walletEx },
      },
      errors: {
        extra409: ['conflict'],
        extra422: ['challenge_invalid', 'signature_invalid'],
      },
    },
  ],
  { errors: { plan: true } },
);

/** A /proof record's creation: the /proof/v1 handler's body, rules, quota and answer. */
const create = (
  path: string,
  operationId: string,
  tag: string,
  summary: string,
  body: NonNullable<IntegrationsRoute['body']>,
  response: IntegrationsRoute['response'],
  description?: string,
): RouteRow<ErrorsOf> => ({
  method: 'post',
  path: `/${path}`,
  operationId,
  tag,
  summary,
  ...(description === undefined ? {} : { description }),
  body,
  response: { status: '201', ...response },
  errors: path === 'contacts' ? {} : { notFound: true },
});

/** A /proof record read by id, or a page of a list. */
const read = (
  path: string,
  operationId: string,
  tag: string,
  summary: string,
  parameters: Schema[],
  response: IntegrationsRoute['response'],
  description?: string,
): RouteRow<ErrorsOf> => ({
  method: 'get',
  path: `/${path}`,
  operationId,
  tag,
  summary,
  ...(description === undefined ? {} : { description }),
  parameters,
  response,
  errors: path.includes('{id}') ? { ids: true } : { query: true },
});

const requestId = idParam('req', 'Payment request', EXAMPLES.request);
const contactId = idParam('con', 'Contact', EXAMPLES.contact);
const invoiceId = idParam('inv', 'Invoice', EXAMPLES.invoice);
const pageOf = (item: unknown) => ({ page: { data: [item], next_cursor: null } });

export const RECORD_ROUTES = integrationsRoutes(
  'Payment requests',
  [
    create(
      'requests',
      'createPaymentRequest',
      'Payment requests',
      'Create a payment request',
      { schema: requestCreateSchema, examples: { direct: requestCreateExample } },
      { description: 'Created.', schema: paymentRequestSchema, examples: { awaiting: requestExample() } },
      'The `POST /proof/v1/requests` handler: same body, rules, quota and answer.',
    ),
    read('requests', 'listPaymentRequests', 'Payment requests', 'List payment requests', requestsListParams, {
      description: 'A page, by id descending.',
      schema: paymentRequestListSchema,
      examples: pageOf(requestExample()),
    }),
    read('requests/{id}', 'getPaymentRequest', 'Payment requests', 'A payment request', [requestId], {
      description: 'The request.',
      schema: paymentRequestSchema,
      examples: { awaiting: requestExample() },
    }),
    read(
      'reviews',
      'listReviews',
      'Payment requests',
      'Requests in REVIEW, with reason and evidence',
      [limitParam, beforeParam('requests')],
      {
        description: 'A page.',
        schema: reviewPageSchema,
        examples: pageOf({
          ...requestExample({ status: 'REVIEW', tx_hash: EXAMPLES.txHash }),
          review_reason: 'unexpected_payer',
          evidence: [evidenceEx],
        }),
      },
      'Your requests in `REVIEW` (in descending id order; ids are random, so not by date), each with `review_reason` (`unexpected_payer`, `after_expiry`, `invoice_voided`) and every transfer the payment watcher attributed to it.',
    ),
    create(
      'contacts',
      'createContact',
      'Contacts',
      'Create a contact',
      { schema: contactCreateSchema, examples: { buyer: contactCreateExample } },
      { description: 'Created.', schema: contactSchema, examples: { buyer: contactExample } },
    ),
    read('contacts', 'listContacts', 'Contacts', 'List contacts', [limitParam, beforeParam('contacts')], {
      description: 'A page.',
      schema: contactListSchema,
      examples: pageOf(contactExample),
    }),
    read('contacts/{id}', 'getContact', 'Contacts', 'A contact', [contactId], {
      description: 'The contact.',
      schema: contactSchema,
      examples: { buyer: contactExample },
    }),
    create(
      'invoices',
      'createInvoice',
      'Invoices',
      'Issue an invoice',
      { schema: invoiceCreateSchema, examples: { exclusive_tax: invoiceCreateExample } },
      { description: 'Issued.', schema: invoiceSchema, examples: { issued: invoiceExample() } },
      'The `POST /proof/v1/invoices` handler: one payment request for the total, the document rendered once, no e-mail.',
    ),
    read('invoices', 'listInvoices', 'Invoices', 'List invoices', [limitParam, beforeParam('invoices')], {
      description: 'A page.',
      schema: invoiceListSchema,
      examples: pageOf(invoiceExample()),
    }),
    read('invoices/{id}', 'getInvoice', 'Invoices', 'An invoice', [invoiceId], {
      description: 'The invoice.',
      schema: invoiceSchema,
      examples: { issued: invoiceExample() },
    }),
    read(
      'invoices/{id}/document',
      'getInvoiceDocument',
      'Invoices',
      'Download the issued invoice PDF',
      [invoiceId],
      {
        description: 'The PDF.',
        headers: {
          'Content-Disposition': header(
            '`attachment; filename="INV-000001.pdf"`.',
            z.string().regex(/^attachment; filename="INV-[0-9]+\.pdf"$/),
            true,
          ),
          'X-Content-SHA256': header(
            "The document's SHA-256 (`document_sha256`).",
            z.string().regex(/^[0-9a-f]{64}$/),
            true,
          ),
          'Cache-Control': header('Never cached by shared caches.', z.literal('private, no-store'), true),
        },
        content: binaryContent('application/pdf'),
      },
      'The document as rendered once at issue, checked against `document_sha256` before it is sent (never rendered again). A dashboard download: `/proof/v1` has no PDF route.',
    ),
    {
      method: 'post',
      path: '/invoices/{id}/void',
      operationId: 'voidInvoice',
      tag: 'Invoices',
      summary: 'Void an invoice, with a reason',
      description:
        'Its payment request becomes `VOIDED` (its amount is free again), `invoice.voided` is emitted, the quota is not restored. The reason (at most 500 characters) is stored for you and operators, never in an event. Voiding a voided invoice answers it unchanged; a paid invoice is 409.',
      parameters: [invoiceId],
      body: {
        schema: invoiceVoidSchema,
        examples: { reason: { reason: 'Issued to the wrong buyer' } },
        required: false,
      },
      response: {
        description: 'Voided.',
        schema: invoiceSchema,
        examples: { voided: invoiceExample({ status: 'voided', voided_at: AT }) },
      },
      errors: { ids: true, extra409: ['conflict'] },
    },
    read(
      'events',
      'listEvents',
      'Events',
      'Events after a cursor',
      [afterParam, limitParam],
      {
        description: 'Events.',
        schema: eventListSchema,
        examples: {
          events: { data: [{ cursor: 41, event: EVENT_EXAMPLES['payment_request.created'] }], next_cursor: 41 },
        },
      },
      'The `GET /proof/v1/events` handler: the stored event bytes, oldest first.',
    ),
  ],
  { errors: { plan: true } },
);

/** The document and its page (public, answered before every guard). */
export const docRoutes = (documentPath: string, docsPath: string): IntegrationsRoute[] => [
  {
    method: 'get',
    path: documentPath,
    operationId: 'getOpenApi',
    tag: 'Documentation',
    summary: 'This OpenAPI document',
    security: 'public',
    response: {
      description: 'The document.',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['openapi', 'paths'],
            properties: { openapi: { type: 'string' }, paths: { type: 'object' } },
          },
        },
      },
    },
    errors: { docs: true },
  },
  {
    method: 'get',
    path: docsPath,
    operationId: 'getDocs',
    tag: 'Documentation',
    summary: 'This document as a page',
    security: 'public',
    response: { description: 'The page.', content: htmlContent() },
    errors: { docs: true },
  },
];
