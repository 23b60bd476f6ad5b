import {
  deletedDestinationSchema,
  deliveryDetailSchema,
  deliverySchema,
  destinationSchema,
  merchantKeySchema,
  newDestinationSchema,
  newMerchantKeySchema,
  overviewSchema,
  planSchema,
  purchaseSchema,
  reviewSchema,
  rotatedDestinationSchema,
  sessionSchema,
  signedInSchema,
  walletChallengeSchema,
  walletListSchema,
  walletSchema,
} from '../../domain/validation/integrations-responses.js';
import {
  invoiceVoidSchema,
  keyCreateSchema,
  signInSchema,
  webhookCreateSchema,
} from '../../domain/validation/integrations.js';
import {
  planPurchaseSchema,
  walletChallengeCreateSchema,
  walletVerifySchema,
} from '../../domain/validation/self-service.js';
import { Contract } from '../http/contract.js';
import { pageSchema } from '../http/pagination.js';
import { PROOF_COMPONENTS } from '../shared/proof/openapi.schemas.js';
import { integrationsErrorSchema } from './openapi.errors.js';

/**
 * The contract of `/api/integrations`: the zod schemas its handlers parse bodies with and its serializers return
 * (domain/validation/integrations*.ts, self-service.ts), named as the components of its generated OpenAPI document,
 * beside the /proof ones its record routes share (api/shared/proof/openapi.schemas.ts). Its `Error` is its own.
 */

export const deliveryPageSchema = pageSchema(deliverySchema, 'deliveries');
export const purchasePageSchema = pageSchema(purchaseSchema, 'purchases');
export const reviewPageSchema = pageSchema(reviewSchema, 'requests');

export const integrationsContract = new Contract({
  requests: {
    ...PROOF_COMPONENTS.requests,
    SignIn: signInSchema,
    PlanPurchaseCreate: planPurchaseSchema,
    KeyCreate: keyCreateSchema,
    DestinationCreate: webhookCreateSchema,
    WalletChallengeCreate: walletChallengeCreateSchema,
    WalletVerify: walletVerifySchema,
    InvoiceVoid: invoiceVoidSchema,
  },
  responses: {
    ...PROOF_COMPONENTS.responses,
    SignedIn: signedInSchema,
    Session: sessionSchema,
    Overview: overviewSchema,
    Key: merchantKeySchema,
    NewKey: newMerchantKeySchema,
    Destination: destinationSchema,
    NewDestination: newDestinationSchema,
    RotatedDestination: rotatedDestinationSchema,
    DeletedDestination: deletedDestinationSchema,
    Delivery: deliverySchema,
    DeliveryPage: deliveryPageSchema,
    DeliveryDetail: deliveryDetailSchema,
    Plan: planSchema,
    Purchase: purchaseSchema,
    PurchasePage: purchasePageSchema,
    Wallet: walletSchema,
    WalletList: walletListSchema,
    WalletChallenge: walletChallengeSchema,
    ReviewPage: reviewPageSchema,
    Error: integrationsErrorSchema,
  },
});
