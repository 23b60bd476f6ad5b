import type Router from '@koa/router';
import { DomainError } from '../../domain/errors.js';
import { PROOF_API_VERSION } from '../../domain/proof/events.js';
import { entitlementAt, type PlanLimits } from '../../domain/proof/plans.js';
import { parseContactCreate } from '../../domain/validation/proof-invoice.js';
import type { ContactJson, MeJson } from '../../domain/validation/proof-responses.js';
import { getContact, insertContact, listContacts, type Contact } from '../../db/repositories/contacts.repo.js';
import { listVerifiedWallets } from '../../db/repositories/merchants.repo.js';
import { listProofEvents } from '../../db/repositories/proof-events.repo.js';
import type { MerchantIdempotent } from '../http/merchant-idempotency.js';
import type { AppState } from '../http/context.js';
import { merchantOf } from '../http/context.js';
import { decodeCursor, page, parseAfter, parseLimit } from '../http/pagination.js';
import type { MountAt, ProofDeps } from './requests.handlers.js';
import { usageOf } from '../../services/proof/quota.js';

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

/** `/v1/me`, contacts and the event log. */
export function mountAccount(router: Router<AppState>, deps: ProofDeps, idempotent: MerchantIdempotent): void {
  mountMe(router, deps);
  mountContacts(router, deps, idempotent);
  mountEvents(router, deps);
}

/** A plan's (or trial's) limits as /v1/me and the dashboard show them; `null` means no cap. */
export function limitsJson(limits: PlanLimits, proPerHour: number) {
  return {
    requests_per_period: limits.requestsPerPeriod,
    invoices_per_period: limits.invoicesPerPeriod,
    keys: limits.keys,
    destinations: limits.destinations,
    max_valid_hours: limits.maxValidHours,
    requests_per_hour: limits.requestsPerHour === null ? null : proPerHour,
  };
}

function mountMe(router: Router<AppState>, deps: ProofDeps): void {
  router.get('/v1/me', async (ctx) => {
    const merchant = merchantOf(ctx);
    const now = deps.now();
    const ent = entitlementAt(merchant, now);
    const usage = await usageOf(deps.db, merchant, ent);
    const limits = ent.kind === 'none' ? null : ent.limits;
    const body: MeJson = {
      api_version: PROOF_API_VERSION,
      id: merchant.id,
      name: merchant.name,
      plan: ent.kind === 'plan' ? ent.plan : ent.kind === 'trial' ? 'trial' : null,
      plan_ends_at: ent.kind === 'none' ? null : ent.endsAt.toISOString(),
      limits: limits && limitsJson(limits, deps.proPerHour),
      usage: {
        requests: usage.requests,
        invoices: usage.invoices,
        window_start: usage.windowStart?.toISOString() ?? null,
      },
      wallets: (await listVerifiedWallets(deps.db, merchant.id)).map((w) => ({
        id: w.id,
        network: w.network,
        address: w.address,
        label: w.label,
      })),
    };
    ctx.body = body;
  });
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
      const body = parseContactCreate(ctx.request.body);
      const contact = await insertContact(
        trx,
        {
          merchantId: merchantOf(ctx).id,
          legalName: body.legal_name,
          email: body.email,
          address: body.address ?? null,
          reference: body.reference ?? null,
        },
        deps.now(),
      );
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
    const contact = await getContact(deps.db, merchantOf(ctx).id, ctx.params['id'] ?? '');
    if (!contact) throw new DomainError('not_found', 'Contact not found');
    ctx.body = contactJson(contact);
  });
}

/** The event log, at `/v1/events` (API keys) or `/events` (the dashboard session). */
export function mountEvents(router: Router<AppState>, deps: ProofDeps, at: MountAt = { base: '/v1' }): void {
  /**
   * GET /v1/events?after=&limit=: `{data: [{cursor, event}], next_cursor}`. The event is the stored bytes,
   * spliced in unchanged, so it is byte-identical to the webhook body.
   */
  router.get(`${at.base}/events`, async (ctx) => {
    const after = parseAfter(ctx.query['after']);
    const limit = parseLimit(ctx.query['limit']);
    const rows = await listProofEvents(deps.db, merchantOf(ctx).id, after, limit);
    const items = rows.map((r) => `{"cursor":${r.cursor},"event":${r.body.toString('utf8')}}`).join(',');
    // Always a cursor to poll from: the last one returned, or `after` itself when nothing is new.
    const next = rows.length ? rows[rows.length - 1]!.cursor : after;
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = `{"data":[${items}],"next_cursor":${next}}`;
  });
}
