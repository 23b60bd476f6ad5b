import { normalizeScopes, validateExpiry, type KeyInterface } from '../domain/api-keys.js';
import { DomainError } from '../domain/errors.js';
import { TEST_PING, testPingEvent, type WebhookInterface } from '../domain/webhooks.js';
import type { SecretBox } from '../adapters/crypto/secret-box.js';
import { newId, newWebhookSecret } from '../adapters/crypto/tokens.js';
import { checkDestinationUrl, type DestinationPolicy } from '../adapters/webhooks/url-policy.js';
import type { Db } from '../db/connection.js';
import { listApiKeys, revokeApiKey } from '../db/repositories/api-keys.repo.js';
import { issueMerchantKey } from '../services/proof/account.js';
import { createEndpoint, getDelivery } from '../db/repositories/webhooks.repo.js';
import { workflowIds } from '../domain/workflow-ids.js';
import { getCompany, listMembers } from '../db/repositories/companies.repo.js';
import { addMember, createCompany, issueCompanyKey, removeMember } from '../services/company/memberships.js';
import { listLedger } from '../db/repositories/credits.repo.js';
import { getCredits, grantCredits } from '../services/processing/credits.js';
import { companyName, normalizeEmail, parseRole } from '../domain/accounts.js';
import { enqueueDelivery } from '../services/workflows/deliveries.js';

/** Operator commands behind `npm run admin`; each returns a JSON-serialisable result. */

const asInterface = (v: string | undefined): KeyInterface => {
  if (v === 'v1' || v === 'proof') return v;
  throw new DomainError('validation_failed', '--interface must be v1 or proof');
};
export const required = (v: string | undefined, flag: string): string => {
  if (!v) throw new DomainError('validation_failed', `${flag} is required`);
  return v;
};

/**
 * `/v1` keys belong to a company and to the member who creates them (`--tenant <company id> --owner <member
 * id>`, at most 20 active per company); `/proof/v1` keys belong to a merchant (`--tenant`).
 */
export async function keysCreate(db: Db, flags: Record<string, string | undefined>, now: Date) {
  const iface = asInterface(flags['interface']);
  const expires = flags['expires-at'];
  if (expires !== undefined && !/^\d+$/.test(expires))
    throw new DomainError('validation_failed', '--expires-at must be a Unix UTC second');
  const tenantId = required(flags['tenant'], '--tenant');
  const name = required(flags['name'], '--name');
  const scopes = normalizeScopes(
    (flags['scopes'] ?? 'read').split(',').map((s) => s.trim()),
    iface,
  );
  const expiresAt = validateExpiry(iface, expires === undefined ? undefined : Number(expires), now);
  const { key, secret } =
    iface === 'v1'
      ? await issueCompanyKey(
          db,
          {
            companyId: tenantId,
            memberId: required(flags['owner'], '--owner (the member who creates the key)'),
            name,
            scopes,
            expiresAt,
          },
          now,
        )
      : await issueMerchantKey(db, { merchantId: tenantId, name, scopes, expiresAt }, now);
  return {
    key,
    secret,
    notice: 'The secret is shown once and stored only as a hash. Keep it out of URLs, logs and source control.',
  };
}

const credits = (b: { available: bigint; reserved: bigint }) => ({
  available: b.available.toString(),
  reserved: b.reserved.toString(),
});

export async function companiesCreate(db: Db, flags: Record<string, string | undefined>) {
  const { company, owner } = await createCompany(db, {
    name: companyName(flags['name']),
    ownerEmail: normalizeEmail(flags['owner-email']),
  });
  return { company, owner, credits: credits(await getCredits(db, company.id)) };
}

export async function companiesShow(db: Db, flags: Record<string, string | undefined>) {
  const id = required(flags['company'], '--company');
  const company = await getCompany(db, id);
  if (!company) throw new DomainError('not_found', 'Company not found');
  const ledger = await listLedger(db, id, 20);
  return {
    company,
    credits: credits(await getCredits(db, id)),
    members: await listMembers(db, id),
    recent_ledger: ledger.map((e) => ({ ...e, amount: e.amount.toString() })),
  };
}

export async function membersAdd(db: Db, flags: Record<string, string | undefined>) {
  return {
    member: await addMember(
      db,
      required(flags['company'], '--company'),
      normalizeEmail(flags['email']),
      parseRole(flags['role'] ?? 'member'),
    ),
  };
}

export async function membersRemove(db: Db, flags: Record<string, string | undefined>, now: Date) {
  return removeMember(db, required(flags['company'], '--company'), required(flags['member'], '--member'), now);
}

export async function creditsGrant(db: Db, flags: Record<string, string | undefined>) {
  const raw = required(flags['amount'], '--amount');
  if (!/^[1-9]\d{0,12}$/.test(raw))
    throw new DomainError('validation_failed', '--amount must be a positive whole number of credits');
  const balance = await grantCredits(
    db,
    required(flags['company'], '--company'),
    BigInt(raw),
    flags['reason'] ?? 'operator grant',
  );
  return { credits: credits(balance) };
}

export async function keysList(db: Db, flags: Record<string, string | undefined>) {
  return { keys: await listApiKeys(db, asInterface(flags['interface']), required(flags['tenant'], '--tenant')) };
}

export async function keysRevoke(db: Db, flags: Record<string, string | undefined>, now: Date) {
  const key = await revokeApiKey(
    db,
    asInterface(flags['interface']),
    required(flags['tenant'], '--tenant'),
    required(flags['id'], '--id'),
    now,
  );
  if (!key) throw new DomainError('not_found', 'no such key for that tenant');
  return { key };
}

/**
 * Registers a destination and queues one signed `test.ping` event for it, sent by the worker's dispatcher exactly as
 * real deliveries are (a retryable failure hands it to `delivery:<id>` in the Temporal UI). The body has the event
 * shape of `--interface` (`/v1` or `/proof/v1`, docs/webhooks.md) and is signed like that interface's deliveries.
 */
export async function webhooksSendTest(
  db: Db,
  secretBox: SecretBox,
  flags: Record<string, string | undefined>,
  now: Date,
  opts: DestinationPolicy,
) {
  const iface = (flags['interface'] ?? 'proof') as WebhookInterface;
  if (iface !== 'v1' && iface !== 'proof')
    throw new DomainError('validation_failed', '--interface must be v1 or proof');
  const url = required(flags['url'], '--url');
  const check = checkDestinationUrl(url, opts);
  if (!check.ok)
    throw new DomainError('validation_failed', `--url rejected by the destination policy: ${check.reason}`);
  const secret = newWebhookSecret();
  const endpoint = await createEndpoint(db, {
    interface: iface,
    tenantId: flags['tenant'] ?? 'operator',
    url: check.href,
    events: [TEST_PING],
    secretSealed: secretBox.seal(secret),
  });
  const eventId = newId('evt');
  const body = Buffer.from(JSON.stringify(testPingEvent(iface, eventId, now)));
  const { delivery } = await enqueueDelivery(db, { endpoint, eventId, eventType: TEST_PING, body });
  return {
    endpoint_id: endpoint.id,
    signing_secret: secret,
    delivery_id: delivery.id,
    event_id: eventId,
    retries_workflow_id: workflowIds.delivery(delivery.id),
  };
}

/**
 * `--wait`: the delivery once its first attempt is recorded (delivered, failed, or retrying under its workflow), polled
 * every 200 ms for at most `timeoutMs` (a worker must be running).
 */
export async function waitForFirstAttempt(db: Db, deliveryId: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const d = await getDelivery(db, deliveryId);
    if (d && d.status !== 'pending') {
      return {
        status: d.status,
        attempts: d.attempts,
        last_status_code: d.lastStatusCode,
        last_error_class: d.lastErrorClass,
        next_attempt_at: d.nextAttemptAt,
      };
    }
    if (Date.now() > deadline)
      throw new DomainError('service_unavailable', `no attempt within ${timeoutMs / 1000} s: is a worker running?`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
