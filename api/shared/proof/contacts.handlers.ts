import type Router from '@koa/router';
import { parseContactCreate } from '../../../domain/validation/proof-invoice.js';
import type { ContactJson } from '../../../domain/validation/proof-responses.js';
import { listContacts, type Contact } from '../../../db/repositories/contacts.repo.js';
import { createContact, getMerchantContact } from '../../../services/proof/contacts.js';
import type { MerchantIdempotent } from '../../http/merchant-idempotency.js';
import type { AppState } from '../../http/context.js';
import { merchantOf } from '../../http/context.js';
import { decodeCursor, page, parseLimit } from '../../http/pagination.js';
import type { MountAt, ProofDeps } from './requests.handlers.js';

export function contactJson(c: Contact): ContactJson {
  return {
    id: c.id,
    legal_name: c.legalName,
    email: c.email,
    address: c.address,
    reference: c.reference,
    created_at: c.createdAt.toISOString(),
  };
}

/** Contacts, at `/v1/contacts` (API keys) or `/contacts` (the dashboard session). */
export function mountContacts(
  router: Router<AppState>,
  deps: ProofDeps,
  idempotent: MerchantIdempotent,
  at: MountAt = { base: '/v1' },
): void {
  router.post(
    `${at.base}/contacts`,
    idempotent('contacts.create', async (ctx, { transaction: trx }) => {
      const contact = await createContact(trx, merchantOf(ctx).id, parseContactCreate(ctx.request.body), deps.now());
      ctx.state.resourceId = contact.id;
      ctx.status = 201;
      ctx.body = contactJson(contact);
    }),
  );

  router.get(`${at.base}/contacts`, async (ctx) => {
    const limit = parseLimit(ctx.query['limit']);
    ctx.body = page(
      'contacts',
      await listContacts(deps.db, merchantOf(ctx).id, limit, decodeCursor('contacts', ctx.query['before'])),
      limit,
      contactJson,
    );
  });

  router.get(`${at.base}/contacts/:id`, async (ctx) => {
    const contact = await getMerchantContact(deps.db, merchantOf(ctx).id, ctx.params['id'] ?? '');
    ctx.body = contactJson(contact);
  });
}
