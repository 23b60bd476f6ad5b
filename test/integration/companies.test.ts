import { createRouter } from '../../api/http/router.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { listMembers } from '../../db/repositories/companies.repo.js';
import { addMember, createCompany, issueCompanyKey, removeMember } from '../../services/company/memberships.js';
import { revokeApiKey, verifyApiKey } from '../../db/repositories/api-keys.repo.js';
import { requireApiKey } from '../../api/http/auth.js';

let tdb: TestDatabase;
let app: Awaited<ReturnType<typeof startTestApp>>;
const now = () => new Date();
let seq = 0;
const email = () => `person${++seq}@example.com`;

beforeAll(async () => {
  tdb = await createTestDatabase();
  const router = createRouter({ prefix: '/v1' });
  router.use(requireApiKey(tdb.db, 'v1'));
  router.get('/test-whoami', (ctx) => {
    ctx.body = { company: ctx.state.apiKey!.tenantId, member: ctx.state.apiKey!.ownerId };
  });
  app = await startTestApp({ db: tdb.db, logger: capturingLogger().logger, routers: [router] });
});
afterAll(async () => {
  await app?.close();
  await tdb?.drop();
});

describe('companies, members and keys', () => {
  it('creates a company whose owner is a billing administrator', async () => {
    const { company, owner } = await createCompany(tdb.db, { name: 'Acme', ownerEmail: email() });
    expect(company).toMatchObject({ name: 'Acme', status: 'active' });
    expect(owner).toMatchObject({ companyId: company.id, role: 'billing_admin', removedAt: null });
    expect(await listMembers(tdb.db, company.id)).toHaveLength(1);
  });

  it('allows one company per account', async () => {
    const shared = email();
    await createCompany(tdb.db, { name: 'First', ownerEmail: shared });
    await expect(createCompany(tdb.db, { name: 'Second', ownerEmail: shared })).rejects.toMatchObject({
      code: 'conflict',
    });
    const { company } = await createCompany(tdb.db, { name: 'Third', ownerEmail: email() });
    await expect(addMember(tdb.db, company.id, shared, 'member')).rejects.toMatchObject({ code: 'conflict' });
    // Nothing of the refused company was created.
    expect(await tdb.db('companies').where({ name: 'Second' })).toHaveLength(0);
  });

  it('limits a company to 20 members, also under concurrency', async () => {
    const { company } = await createCompany(tdb.db, { name: 'Big', ownerEmail: email() });
    const attempts = await Promise.allSettled(
      Array.from({ length: 24 }, () => addMember(tdb.db, company.id, email(), 'member')),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(19);
    expect(
      attempts
        .filter((a) => a.status === 'rejected')
        .every((a) => (a as PromiseRejectedResult).reason.code === 'limit_reached'),
    ).toBe(true);
    expect(await listMembers(tdb.db, company.id)).toHaveLength(20);
  });

  it('limits a company to 20 active keys, also under concurrency; revoked keys do not count', async () => {
    const { company, owner } = await createCompany(tdb.db, { name: 'Keys', ownerEmail: email() });
    const issue = () =>
      issueCompanyKey(tdb.db, { companyId: company.id, memberId: owner.id, name: 'k', scopes: ['read'] }, now());
    const attempts = await Promise.allSettled(Array.from({ length: 23 }, issue));
    const issued = attempts.filter((a) => a.status === 'fulfilled') as Array<
      PromiseFulfilledResult<Awaited<ReturnType<typeof issue>>>
    >;
    expect(issued).toHaveLength(20);
    await expect(issue()).rejects.toMatchObject({ code: 'limit_reached' });
    await revokeApiKey(tdb.db, 'v1', company.id, issued[0]!.value.key.id, now());
    expect((await issue()).secret).toMatch(/^sk_live_/);
  });

  it('a key belongs to its company and member; removing the member invalidates the key at once', async () => {
    const { company, owner } = await createCompany(tdb.db, { name: 'Team', ownerEmail: email() });
    const colleague = await addMember(tdb.db, company.id, email(), 'member');
    const theirs = await issueCompanyKey(
      tdb.db,
      { companyId: company.id, memberId: colleague.id, name: 'ci', scopes: ['read', 'write'] },
      now(),
    );
    const mine = await issueCompanyKey(
      tdb.db,
      { companyId: company.id, memberId: owner.id, name: 'ops', scopes: ['read'] },
      now(),
    );
    const whoami = (secret: string) =>
      fetch(`${app.url}/v1/test-whoami`, { headers: { Authorization: `Bearer ${secret}` } });

    const before = await whoami(theirs.secret);
    expect(before.status).toBe(200);
    expect(await before.json()).toEqual({ company: company.id, member: colleague.id });

    expect(await removeMember(tdb.db, company.id, colleague.id, now())).toEqual({
      revokedKeys: 1,
      revokedInvitations: 0,
    });
    expect((await whoami(theirs.secret)).status).toBe(401);
    expect(await verifyApiKey(tdb.db, 'v1', theirs.secret, now())).toEqual({ ok: false, reason: 'revoked' });
    expect((await whoami(mine.secret)).status).toBe(200);
    await expect(
      issueCompanyKey(
        tdb.db,
        { companyId: company.id, memberId: colleague.id, name: 'again', scopes: ['read'] },
        now(),
      ),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(removeMember(tdb.db, company.id, colleague.id, now())).rejects.toMatchObject({ code: 'not_found' });
    // The removed account may join another company afterwards.
    const other = await createCompany(tdb.db, { name: 'Next', ownerEmail: email() });
    expect((await addMember(tdb.db, other.company.id, colleague.email, 'member')).companyId).toBe(other.company.id);
  });

  it('a member of another company cannot own a key here', async () => {
    const a = await createCompany(tdb.db, { name: 'A', ownerEmail: email() });
    const b = await createCompany(tdb.db, { name: 'B', ownerEmail: email() });
    await expect(
      issueCompanyKey(tdb.db, { companyId: a.company.id, memberId: b.owner.id, name: 'x', scopes: ['read'] }, now()),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
