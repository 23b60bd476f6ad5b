import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../domain/accounts.js';
import { addMember } from '../../services/company/memberships.js';
import { setAccountPassword } from '../../db/repositories/company-sessions.repo.js';
import { hashPassword } from '../../adapters/crypto/password.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { createCompanyAdmin, DashboardClient } from '../helpers/dashboard.js';
import { Conformance } from '../helpers/openapi-conformance.js';

/**
 * Saved workflows in the company session (`/api/company/workflows`; docs/processing.md "Saved workflows"): billing
 * administrators create, edit and delete them, every member reads them, names are unique per company whatever their
 * case, and the answers conform to the session's OpenAPI document. Real app and PostgreSQL, an injected clock.
 */
let tdb: TestDatabase;
let app: Awaited<ReturnType<typeof startTestApp>>;
const logs = capturingLogger();
let clock = new Date('2026-11-24T10:00:00.000Z');
let admin: DashboardClient;
let companyId: string;
let c: Conformance;

const json = async (res: Response) => (await res.json()) as Record<string, unknown>;
async function signedIn(email: string, password: string): Promise<DashboardClient> {
  const client = new DashboardClient(app.url, '/api/company');
  expect((await client.signIn(email, password, { idem: null })).status).toBe(201);
  return client;
}
async function expectError(res: Response, status: number, code: string, path?: string): Promise<void> {
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(body).toMatchObject({ code });
  if (path) expect((body['issues'] as Array<{ path: string }>).map((i) => i.path)).toContain(path);
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  app = await startTestApp({ db: tdb.db, logger: logs.logger, now: () => clock });
  const owner = await createCompanyAdmin(tdb.db, 'Workflows Co');
  companyId = owner.companyId;
  admin = await signedIn(owner.email, owner.password);
  c = new Conformance((await (await fetch(`${app.url}/api/company/openapi.json`)).json()) as Record<string, unknown>);
});
afterAll(async () => {
  await app?.close();
  await tdb?.drop();
});

describe('saved workflows', () => {
  it('create, read, list, edit (revision, who and when), delete; every answer as documented', async () => {
    const created = await admin.request('POST', '/workflows', {
      name: '  Supplier invoices ',
      fields: ['invoice_number', 'invoice_date', 'total'],
      instructions: 'Totals include tax.',
    });
    await c.check('POST /api/company/workflows', created.clone());
    expect(created.status).toBe(201);
    const w = await json(created);
    expect(w).toMatchObject({
      id: expect.stringMatching(/^wfl_[A-Za-z0-9]{20}$/),
      name: 'Supplier invoices',
      operation: 'flow-extract',
      fields: ['invoice_number', 'invoice_date', 'total'],
      instructions: 'Totals include tax.',
      options: {},
      revision: 1,
      created_at: clock.toISOString(),
      updated_at: clock.toISOString(),
    });
    expect(w['created_by']).toBe(w['updated_by']);
    const id = w['id'] as string;
    await c.check('GET /api/company/workflows/{workflow_id}', await admin.request('GET', `/workflows/${id}`));
    const list = await admin.request('GET', '/workflows');
    await c.check('GET /api/company/workflows', list.clone());
    expect(((await json(list))['data'] as unknown[]).length).toBe(1);

    clock = new Date(clock.getTime() + 60_000);
    const edited = await admin.request('PATCH', `/workflows/${id}`, {
      fields: ['invoice_number', 'total', 'currency'],
      instructions: null,
    });
    await c.check('PATCH /api/company/workflows/{workflow_id}', edited.clone());
    expect(await json(edited)).toMatchObject({
      name: 'Supplier invoices',
      fields: ['invoice_number', 'total', 'currency'],
      instructions: null,
      revision: 2,
      updated_at: clock.toISOString(),
    });

    const deleted = await admin.request('POST', `/workflows/${id}/delete`);
    await c.check('POST /api/company/workflows/{workflow_id}/delete', deleted.clone());
    expect(await json(deleted)).toEqual({ id, status: 'deleted', deleted_at: clock.toISOString() });
    await expectError(await admin.request('GET', `/workflows/${id}`), 404, 'not_found');
    await expectError(await admin.request('PATCH', `/workflows/${id}`, { name: 'x' }), 404, 'not_found');
    await expectError(await admin.request('POST', `/workflows/${id}/delete`), 404, 'not_found');
    expect(await json(await admin.request('GET', '/workflows'))).toEqual({ data: [] });
  });

  it('names are unique per company whatever their case; a deleted workflow frees its name; another company may use it', async () => {
    const first = await json(await admin.request('POST', '/workflows', { name: 'Receipts', fields: ['total'] }));
    const taken = await admin.request('POST', '/workflows', { name: 'RECEIPTS', fields: ['date'] });
    await c.check('POST /api/company/workflows', taken.clone());
    await expectError(taken, 409, 'conflict');
    const other = await json(await admin.request('POST', '/workflows', { name: 'Other', fields: ['total'] }));
    await expectError(
      await admin.request('PATCH', `/workflows/${other['id'] as string}`, { name: 'receipts' }),
      409,
      'conflict',
    );
    await admin.request('POST', `/workflows/${first['id'] as string}/delete`);
    expect((await admin.request('POST', '/workflows', { name: 'receipts', fields: ['date'] })).status).toBe(201);

    const stranger = await createCompanyAdmin(tdb.db, 'Stranger Co');
    const theirs = await signedIn(stranger.email, stranger.password);
    expect((await theirs.request('POST', '/workflows', { name: 'Receipts', fields: ['total'] })).status).toBe(201);
    // Another company's workflow is not found, read or written.
    await expectError(await theirs.request('GET', `/workflows/${other['id'] as string}`), 404, 'not_found');
    await expectError(
      await theirs.request('PATCH', `/workflows/${other['id'] as string}`, { name: 'mine' }),
      404,
      'not_found',
    );
    await expectError(await theirs.request('POST', `/workflows/${other['id'] as string}/delete`), 404, 'not_found');
  });

  it('refuses bodies it cannot keep, naming the field (422)', async () => {
    const cases: Array<[unknown, string]> = [
      [{ fields: ['total'] }, 'name'],
      [{ name: '   ', fields: ['total'] }, 'name'],
      [{ name: 'a\u0085b', fields: ['total'] }, 'name'],
      [{ name: 'x'.repeat(101), fields: ['total'] }, 'name'],
      [{ name: 'No fields', fields: [] }, 'fields'],
      [{ name: 'Reserved', fields: ['Items'] }, 'fields.0'],
      [{ name: 'Twice', fields: ['total', 'TOTAL'] }, 'fields'],
      [{ name: 'Bad name', fields: ['1st'] }, 'fields.0'],
      [{ name: 'Too many', fields: Array.from({ length: 31 }, (_, i) => `f${i}`) }, 'fields'],
      [{ name: 'Options', fields: ['total'], options: { output_format: 'csv' } }, 'options'],
      [{ name: 'Operation', fields: ['total'], operation: 'ocr-text' }, 'operation'],
      [{ name: 'Long', fields: ['total'], instructions: 'x'.repeat(4001) }, 'instructions'],
      [{ name: 'Extra', fields: ['total'], webhook_id: 'whe_x' }, '(body)'],
    ];
    for (const [body, path] of cases)
      await expectError(await admin.request('POST', '/workflows', body), 422, 'validation_failed', path);
    const w = await json(await admin.request('POST', '/workflows', { name: 'Patchable', fields: ['total'] }));
    await expectError(await admin.request('PATCH', `/workflows/${w['id'] as string}`, {}), 422, 'validation_failed');
  });

  it('every member reads them; only billing administrators change them', async () => {
    const member = await addMember(tdb.db, companyId, 'reader@workflows.example', 'member');
    await setAccountPassword(tdb.db, member.accountId, await hashPassword('reader password 1'), new Date());
    const reader = await signedIn('reader@workflows.example', 'reader password 1');
    const listed = (await json(await reader.request('GET', '/workflows')))['data'] as Array<{ id: string }>;
    expect(listed.length).toBeGreaterThan(0);
    expect((await reader.request('GET', `/workflows/${listed[0]!.id}`)).status).toBe(200);
    await expectError(
      await reader.request('POST', '/workflows', { name: 'Mine', fields: ['total'] }),
      403,
      'billing_admin_required',
    );
    await expectError(
      await reader.request('PATCH', `/workflows/${listed[0]!.id}`, { name: 'Mine' }),
      403,
      'billing_admin_required',
    );
    await expectError(
      await reader.request('POST', `/workflows/${listed[0]!.id}/delete`),
      403,
      'billing_admin_required',
    );
    // The session guards apply: no CSRF token, no session.
    await expectError(
      await admin.request('POST', '/workflows', { name: 'No CSRF', fields: ['total'] }, { csrf: null }),
      403,
      'csrf_failed',
    );
    await expectError(await admin.request('GET', '/workflows', undefined, { cookie: null }), 401, 'session_required');
  });

  it(`keeps to ${LIMITS.savedWorkflowsPerCompany} per company (deleted ones not counted), also when created at once`, async () => {
    const have = ((await json(await admin.request('GET', '/workflows')))['data'] as unknown[]).length;
    const answers = await Promise.all(
      Array.from({ length: LIMITS.savedWorkflowsPerCompany - have + 3 }, (_, i) =>
        admin.request('POST', '/workflows', { name: `Bulk ${i}`, fields: ['total'] }),
      ),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(LIMITS.savedWorkflowsPerCompany - have);
    for (const r of answers.filter((x) => x.status !== 201)) await expectError(r, 409, 'limit_reached');
    expect(((await json(await admin.request('GET', '/workflows')))['data'] as unknown[]).length).toBe(
      LIMITS.savedWorkflowsPerCompany,
    );
  });
});
