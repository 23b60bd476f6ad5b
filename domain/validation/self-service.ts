import { z } from 'zod';
import { NETWORKS, walletAddressIssue, type Network } from '../networks.js';
import { PAID_PLANS, type PaidPlan } from '../proof/plans.js';
import { parser } from './integrations.js';
import { trimmedLength } from './patterns.js';

/**
 * Bodies of the self-service routes (docs/proof.md "Plans paid in USDC", "Wallet verification"): strict objects,
 * each issue naming its field. Addresses are checked for their network's shape here; the handlers add the rules
 * that need an adapter (EIP-55 checksums, the zero address).
 */

const network = z.enum(NETWORKS as unknown as [Network, ...Network[]], `network must be one of ${NETWORKS.join(', ')}`);
const address = z.string().min(1, 'an address is required').max(64, 'an address has at most 64 characters');

/** Refines an object with `network` and an address field: the address must be a wallet address of that network. */
const addressOnNetwork =
  <T extends { network: Network }>(field: keyof T & string) =>
  (v: T, ctx: z.RefinementCtx) => {
    const issue = walletAddressIssue(v.network, String(v[field]));
    if (issue) ctx.addIssue({ code: 'custom', path: [field], message: issue });
  };

/** What every purchase body has: the network paid on and the wallet the buyer pays from (only its transfers count). */
const purchaseBase = z.strictObject({
  network,
  payer: address.meta({
    description:
      'The wallet you will pay from (EVM: 0x and 40 hex, EIP-55 if mixed case; Solana: base58 owner address).',
  }),
});

export const planPurchaseSchema = purchaseBase
  .extend({
    plan: z.enum(PAID_PLANS as unknown as [PaidPlan, ...PaidPlan[]], `plan must be one of ${PAID_PLANS.join(', ')}`),
  })
  .superRefine(addressOnNetwork('payer'));
export type PlanPurchase = z.output<typeof planPurchaseSchema>;
export const parsePlanPurchase = parser(planPurchaseSchema);

export const packPurchaseSchema = purchaseBase
  .extend({
    pack: z
      .string()
      .regex(/^credits_[1-9][0-9]{0,11}$/, 'pack must be the id of a credit pack (see GET /api/company/credit-packs)'),
  })
  .superRefine(addressOnNetwork('payer'));
export type PackPurchase = z.output<typeof packPurchaseSchema>;
export const parsePackPurchase = parser(packPurchaseSchema);

export const walletChallengeCreateSchema = z
  .strictObject({
    network,
    address,
    label: z
      .string()
      .regex(trimmedLength(1, 80), 'label must be 1 to 80 characters')
      .trim()
      .nullable()
      .optional()
      .meta({ description: 'An optional label, 1 to 80 characters after trimming; null for none.' }),
  })
  .superRefine(addressOnNetwork('address'));
export type WalletChallengeCreate = z.output<typeof walletChallengeCreateSchema>;
export const parseWalletChallenge = parser(walletChallengeCreateSchema);

export const walletVerifySchema = z.strictObject({
  challenge_id: z.string().regex(/^wch_[A-Za-z0-9]{20}$/, 'challenge_id must be the id of a challenge (wch_…)'),
  /** EVM: the 65-byte personal_sign signature as 0x hex; Solana: the 64-byte ed25519 signature in base58. */
  signature: z.string().min(1, 'signature is required').max(200, 'signature has at most 200 characters'),
});
export type WalletVerify = z.output<typeof walletVerifySchema>;
export const parseWalletVerify = parser(walletVerifySchema);

/** The credit packs for sale and the networks they are paid on (`GET /api/company/credit-packs`). */
export const creditPacksSchema = z.strictObject({
  packs: z.array(
    z.strictObject({
      id: z.string().regex(/^credits_[0-9]+$/),
      credits: z.string().regex(/^[0-9]+$/),
      price_usdc: z.string().regex(/^[0-9]{1,17}\.[0-9]{6}$/),
    }),
  ),
  purchase_networks: z.array(z.enum(NETWORKS as unknown as [Network, ...Network[]])),
  card_checkout: z
    .literal(false)
    .meta({ description: 'Card checkout is an operator grant until a card processor is configured.' }),
});
