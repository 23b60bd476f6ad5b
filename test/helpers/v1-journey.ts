import type { Knex } from 'knex';
import { expect } from 'vitest';
import type { SecretBox } from '../../adapters/crypto/secret-box.js';
import { createEndpoint } from '../../db/repositories/webhooks.repo.js';
import { createCompany, issueCompanyKey } from '../../services/company/memberships.js';
import { startReceiver } from './receiver.js';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * A company with a read/write key and a /v1 webhook destination pointing at a local receiver that answers as
 * `respond` says: the start of the journeys that follow one job from POST /v1/jobs to its webhook (metrics, traces).
 */
export async function companyWithV1Webhook(
  db: Knex,
  secretBox: SecretBox,
  opts: { name: string; ownerEmail: string; secret: string; respond?: Parameters<typeof startReceiver>[0] },
): Promise<{ companyId: string; auth: { Authorization: string }; receiver: Receiver; hookId: string }> {
  const { company, owner } = await createCompany(db, { name: opts.name, ownerEmail: opts.ownerEmail });
  const key = (
    await issueCompanyKey(
      db,
      { companyId: company.id, memberId: owner.id, name: 'k', scopes: ['read', 'write'] },
      new Date(),
    )
  ).secret;
  const receiver = await startReceiver(opts.respond);
  const hook = await createEndpoint(db, {
    interface: 'v1',
    tenantId: company.id,
    url: receiver.url,
    events: [],
    secretSealed: secretBox.seal(opts.secret),
  });
  return { companyId: company.id, auth: { Authorization: `Bearer ${key}` }, receiver, hookId: hook.id };
}

/** Uploads one file through POST /v1/uploads and returns its id. */
export async function uploadOne(
  appUrl: string,
  auth: { Authorization: string },
  bytes: Uint8Array,
  filename: string,
): Promise<string> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(bytes)]), filename);
  const uploaded = await fetch(`${appUrl}/v1/uploads`, { method: 'POST', headers: auth, body: form });
  expect(uploaded.status).toBe(201);
  return ((await uploaded.json()) as { uploads: Array<{ id: string }> }).uploads[0]!.id;
}
