import type Router from '@koa/router';
import type { z } from 'zod';
import { answer } from '../http/contract.js';
import type { walletSchema } from '../../domain/validation/integrations-responses.js';
import { walletChallengeSchema, walletListSchema } from '../../domain/validation/integrations-responses.js';
import { parseWalletChallenge, parseWalletVerify } from '../../domain/validation/self-service.js';
import type { Db } from '../../db/connection.js';
import { listVerifiedWallets, type MerchantWallet } from '../../db/repositories/merchants.repo.js';
import { verifyWalletByChallenge } from '../../services/proof/account.js';
import { requestWalletChallenge } from '../../services/proof/wallets.js';
import type { AppState } from '../http/context.js';
import { merchantOf } from '../http/context.js';
import type { MerchantIdempotent } from '../http/merchant-idempotency.js';

export interface WalletRouteDeps {
  db: Db;
  /** The name the challenge message opens with. */
  service: string;
  now: () => Date;
}

export function walletJson(w: MerchantWallet): z.input<typeof walletSchema> {
  return {
    id: w.id,
    network: w.network,
    address: w.address,
    label: w.label,
    verified_at: w.verifiedAt?.toISOString() ?? null,
    created_at: w.createdAt.toISOString(),
  };
}

/**
 * Receiving wallets, verified by signature (docs/proof.md "Wallet verification"): the merchant asks for a one-time
 * challenge for a network and address, signs its message in the wallet, and sends back the signature; the server
 * checks it with the address's public key only. The operator command `wallets:add` stays for support.
 */
export function mountWallets(router: Router<AppState>, deps: WalletRouteDeps, idempotent: MerchantIdempotent): void {
  router.get('/wallets', async (ctx) => {
    ctx.body = answer(walletListSchema, {
      data: (await listVerifiedWallets(deps.db, merchantOf(ctx).id)).map(walletJson),
    });
  });

  /** POST /wallets/challenges `{network, address, label?}` → 201 `{id, network, address, label, message, expires_at}`. */
  router.post(
    '/wallets/challenges',
    idempotent('integrations.wallets.challenge', async (ctx, { transaction: trx }) => {
      const body = parseWalletChallenge(ctx.request.body);
      const challenge = await requestWalletChallenge(
        deps,
        trx,
        merchantOf(ctx).id,
        { network: body.network, address: body.address, label: body.label ?? null },
        deps.now(),
      );
      ctx.state.resourceId = challenge.id;
      ctx.status = 201;
      ctx.body = answer(walletChallengeSchema, {
        id: challenge.id,
        network: challenge.network,
        address: challenge.address,
        label: challenge.label,
        message: challenge.message,
        expires_at: challenge.expiresAt.toISOString(),
      });
    }),
  );

  /**
   * POST /wallets/verify `{challenge_id, signature}` → 201 the verified wallet. The challenge must be this merchant's,
   * unexpired and unused (`challenge_invalid`), the signature the wallet's over the challenge's message
   * (`signature_invalid`); then, in one transaction, the challenge is used and the wallet verified.
   */
  router.post(
    '/wallets/verify',
    idempotent('integrations.wallets.verify', async (ctx, { transaction: trx }) => {
      const body = parseWalletVerify(ctx.request.body);
      const now = deps.now();
      const merchant = merchantOf(ctx);
      const wallet = await verifyWalletByChallenge(
        trx,
        merchant.id,
        { challengeId: body.challenge_id, signature: body.signature },
        now,
      );
      ctx.state.resourceId = wallet.id;
      ctx.status = 201;
      ctx.body = walletJson(wallet);
    }),
  );
}
