import { creditPacksSchema, packPurchaseSchema } from '../../domain/validation/self-service.js';
import { PURCHASE_VALID_HOURS } from '../../domain/self-service.js';
import { purchaseSchema } from '../../domain/validation/integrations-responses.js';
import { purchasePageSchema } from './responses.js';
import { idParam, limitParam, beforeParam, companyRoutes } from './openapi.contract.js';
import { packPurchaseEx } from './openapi.examples.js';

/**
 * Credit packs paid in USDC. `Purchase` is the zod schema the /api/integrations document shares
 * (domain/validation/integrations-responses.ts).
 */
export const CREDIT_PACK_ROUTES = companyRoutes('Credits', [
  {
    method: 'get',
    path: '/api/company/credit-packs',
    operationId: 'listCreditPacks',
    summary: 'Credit packs for sale',
    description:
      'The packs sold for USDC, and the networks the platform accepts payment on (empty: an operator grants credits). Card checkout is not offered (`card_checkout: false`) until a card processor is configured.',
    response: {
      description: 'The packs.',
      schema: creditPacksSchema,
      examples: {
        packs: {
          packs: [{ id: 'credits_30000', credits: '30000', price_usdc: '29.000000' }],
          purchase_networks: ['base'],
          card_checkout: false,
        },
      },
    },
  },
  {
    method: 'post',
    path: '/api/company/credit-packs/purchases',
    operationId: 'buyCreditPack',
    summary: 'Buy a credit pack (paid in USDC)',
    description: `A payment request to the platform's receiving wallet, payable for ${PURCHASE_VALID_HOURS} hours from \`payer\` only. When the payment watcher confirms the exact amount, the pack's credits are added to the wallet once (a \`grant\` ledger entry with reason \`pack:<purchase id>\`). Less from \`payer\` shows as \`underpaid\`; a payment from another address or after expiry as \`review\`; neither grants anything.`,
    body: {
      schema: packPurchaseSchema,
      examples: {
        buy: { pack: 'credits_30000', network: 'base', payer: '0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF' },
      },
    },
    response: {
      status: '201',
      description: 'Awaiting payment.',
      schema: purchaseSchema,
      examples: { awaiting: packPurchaseEx },
    },
    errors: {
      admin: true,
      notFound: ['not_found'],
      codes409: ['purchase_unavailable', 'too_many_open_purchases'],
    },
  },
  {
    method: 'get',
    path: '/api/company/credit-packs/purchases',
    operationId: 'listCreditPackPurchases',
    summary: 'Credit pack purchases',
    parameters: [limitParam, beforeParam('purchases')],
    response: {
      description: 'A page, by id descending.',
      schema: purchasePageSchema,
      examples: { page: { data: [packPurchaseEx], next_cursor: null } },
    },
    errors: { query: true },
  },
  {
    method: 'get',
    path: '/api/company/credit-packs/purchases/{purchase_id}',
    operationId: 'getCreditPackPurchase',
    summary: 'A credit pack purchase',
    parameters: [idParam('purchase_id', 'pur', 'Purchase')],
    response: { description: 'The purchase.', schema: purchaseSchema, examples: { awaiting: packPurchaseEx } },
    errors: { ids: true },
  },
]);
