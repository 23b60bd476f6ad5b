import { randomBytes } from 'node:crypto';
import { normalizeScopes, validateExpiry, type KeyInterface } from '../domain/api-keys.js';
import { DomainError } from '../domain/errors.js';
import type { WebhookInterface } from '../domain/webhooks.js';
import type { SecretBox } from '../adapters/crypto/secret-box.js';
import { newId } from '../adapters/crypto/tokens.js';
import { checkDestinationUrl } from '../adapters/webhooks/url-policy.js';
import type { Db } from '../db/connection.js';
import { issueApiKey, listApiKeys, revokeApiKey } from '../db/repositories/api-keys.repo.js';
import { createEndpoint } from '../db/repositories/webhooks.repo.js';
import { enqueueDelivery } from '../api/temporal/deliveries.js';
import type { WorkflowGateway } from '../api/temporal/workflow-client.js';

/** Operator commands behind `npm run admin`; each returns a JSON-serialisable result. */

const asInterface = (v: string | undefined): KeyInterface => {
  if (v === 'v1' || v === 'proof') return v;
  throw new DomainError('validation_failed', '--interface must be v1 or proof');
};
const required = (v: string | undefined, flag: string): string => {
  if (!v) throw new DomainError('validation_failed', `${flag} is required`);
  return v;
};

export async function keysCreate(db: Db, flags: Record<string, string | undefined>, now: Date) {
  const iface = asInterface(flags['interface']);
  const expires = flags['expires-at'];
  if (expires !== undefined && !/^\d+$/.test(expires)) throw new DomainError('validation_failed', '--expires-at must be a Unix UTC second');
  const { key, secret } = await issueApiKey(db, {
    interface: iface,
    tenantId: required(flags['tenant'], '--tenant'),
    ownerId: flags['owner'] ?? null,
    name: required(flags['name'], '--name'),
    scopes: normalizeScopes((flags['scopes'] ?? 'read').split(',').map((s) => s.trim())),
    expiresAt: validateExpiry(iface, expires === undefined ? undefined : Number(expires), now),
  });
  return { key, secret, notice: 'The secret is shown once and stored only as a hash. Keep it out of URLs, logs and source control.' };
}

export async function keysList(db: Db, flags: Record<string, string | undefined>) {
  return { keys: await listApiKeys(db, asInterface(flags['interface']), required(flags['tenant'], '--tenant')) };
}

export async function keysRevoke(db: Db, flags: Record<string, string | undefined>, now: Date) {
  const key = await revokeApiKey(db, asInterface(flags['interface']), required(flags['tenant'], '--tenant'), required(flags['id'], '--id'), now);
  if (!key) throw new DomainError('not_found', 'no such key for that tenant');
  return { key };
}

/**
 * Registers a destination and sends it one signed `test.ping` event through the delivery workflow, so an
 * operator can watch `delivery:<id>` in the Temporal UI.
 */
export async function webhooksSendTest(
  db: Db,
  gw: WorkflowGateway,
  secretBox: SecretBox,
  flags: Record<string, string | undefined>,
  now: Date,
  opts: { allowLoopbackForTests: boolean },
) {
  const iface = (flags['interface'] ?? 'proof') as WebhookInterface;
  if (iface !== 'v1' && iface !== 'proof') throw new DomainError('validation_failed', '--interface must be v1 or proof');
  const url = required(flags['url'], '--url');
  const check = checkDestinationUrl(url, { allowLoopbackForTests: opts.allowLoopbackForTests });
  if (!check.ok) throw new DomainError('validation_failed', `--url rejected by the destination policy: ${check.reason}`);
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const endpoint = await createEndpoint(db, {
    interface: iface,
    tenantId: flags['tenant'] ?? 'operator',
    url,
    events: ['test.ping'],
    secretSealed: secretBox.seal(secret),
  });
  const eventId = newId('evt');
  const body = Buffer.from(
    JSON.stringify({ id: eventId, api_version: '1.0', type: 'test.ping', occurred_at: Math.floor(now.getTime() / 1000), data: {} }),
  );
  const { delivery, workflowId } = await enqueueDelivery(db, gw, { endpoint, eventId, eventType: 'test.ping', body });
  return { endpoint_id: endpoint.id, signing_secret: secret, delivery_id: delivery.id, event_id: eventId, workflow_id: workflowId };
}
