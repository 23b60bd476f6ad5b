import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocumentPaths } from '../../api/http/openapi-kit.js';
import { addMember, createCompany, issueCompanyKey } from '../../services/company/memberships.js';
import { hashPassword } from '../../adapters/crypto/password.js';
import { setAccountPassword } from '../../db/repositories/company-sessions.repo.js';
import { createDelivery, getEndpoint } from '../../db/repositories/webhooks.repo.js';
import { COMPANY_SESSION_COOKIE } from '../../api/company/guards.js';
import { SESSION_COOKIE } from '../../api/integrations/guards.js';
import { createDashboardUser, DashboardClient } from '../helpers/dashboard.js';
import { ProofHarness, newIdem } from '../helpers/proof.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server.js';
import { samplePdf } from '../../support/sample-files.js';
import { failureSections, runProgram, schemathesisBinary } from '../helpers/schemathesis.js';

/**
 * schemathesis (PyPI, pinned in test/schemathesis/requirements.txt, installed by scripts/setup.sh) against
 * every OpenAPI document the real app serves, found in the app itself (the routes `mountDocumentRoutes` names),
 * so a new document is fuzzed without anyone listing it here. The app runs on real PostgreSQL with a Temporal
 * client but no worker (started workflows wait on this file's task queue and are ended afterwards), on an
 * ephemeral loopback port. Seeded: a /v1 company with a read/write `sk_live_` key, an upload and two jobs, its owner
 * signed in to the company session (`/api/company`: a member, an invitation, a webhook with two deliveries); a /proof
 * merchant user signed in to the dashboard session (`/api/integrations`: two plan purchases to the platform wallet); a /proof
 * merchant with a verified wallet, a webhook destination (so events exist), an `skp_` key, payment requests,
 * contacts and invoices. Their ids and cursors are offered to the parameters and body fields that take them.
 *
 * Every case must pass every check below; a failure is reported per operation with schemathesis's account of
 * the request (a curl command) and the response. docs/operations.md ("OpenAPI fuzzing") says why these settings.
 */

const SETTINGS = {
  /** Test cases per operation in the fuzzing phase, and scenarios in the stateful one (the examples and coverage phases add their own, bounded). */
  maxExamples: 10,
  seed: 20251101,
  /** Seconds one request may take: past it the case fails. A hang detector, not a speed limit (a busy CI machine answers in well under a second). */
  requestTimeout: 30,
  phases: 'examples,coverage,fuzzing,stateful',
  // Checks: every built-in one, schemathesis's default (set in the configuration file, not with --checks, which
  // would override the per-operation settings): no 5xx; status code, content type, headers and body as
  // documented; schema-violating requests rejected, schema-valid ones accepted; missing required headers and
  // undocumented methods refused (with Allow); auth not ignored; in the stateful phase, a deleted object stays
  // gone and a created one can be read.
  /** How often a path id or body reference is one of the seeded rows instead of a generated string. */
  realIdProbability: 0.5,
  /** Answers that count as rejecting a schema-violating request: schemathesis's list, plus 413 (too many files). */
  rejectionStatuses: [400, 401, 403, 404, 405, 406, 409, 413, 415, 422, 428, 429],
  /**
   * Operations whose acceptance of a schema-valid request depends on what no schema can state: positive_data_acceptance
   * is off for them only (every other check still runs on them, and it runs on every other operation). The check
   * counts 404 and 409 as accepting (schemathesis's default statuses): an operation whose only state-dependent
   * refusal is one of them (a job no longer queued, a delivery that cannot be retried, a paid invoice) is not here.
   */
  stateDependentAcceptance: {
    'POST /v1/uploads': 'the bytes must be a readable PDF, image, UTF-8 text, audio or video file',
    'POST /v1/estimate':
      'the sources must be live uploads of the company, of a kind the operation takes, and the pages within their real page count',
    'POST /v1/jobs': 'as POST /v1/estimate, and the credits must cover the price',
    'POST /v1/batches/estimate': 'as POST /v1/estimate, for every item',
    'POST /v1/batches': 'as POST /v1/jobs, for every item, and the queue must hold them all',
    'POST /v1/batches/{batch_id}/retry-failed': 'the batch must have ended with a failed item',
    'POST /proof/v1/requests': "the wallet must be one of the account's verified wallets, within the plan's allowance",
    'POST /proof/v1/invoices':
      "the contact and wallet must be the account's, the due date not before today, the totals in bounds, within the allowances",
    'POST /v1/webhooks':
      'the URL must pass the destination policy (https, port 443, a public host name, no credentials)',
    'POST /api/company/invitations/accept':
      "the password's length counts the characters of its NFKC form, 12 to 256 (x-nfkc-length): one character may become up to 18 and several may become one, so no length of the text as sent states it (and the token must be a live invitation's)",
    'POST /api/company/keys':
      "expires_at must be in the future and at most the allowed days ahead of the server's clock",
    'POST /api/company/workflows':
      'the name must not be taken in the company and the field names must be unique whatever their case (and at most 50 workflows)',
    'PATCH /api/company/workflows/{workflow_id}':
      'as POST /api/company/workflows, and the workflow must not have been deleted',
    'POST /api/company/jobs/{job_id}/extraction/corrections':
      'the job must be a completed flow-extract job whose fields and documents the corrections name, and revision its current review revision',
    'POST /api/company/batches/{batch_id}/retry-failed':
      'as POST /v1/batches/{batch_id}/retry-failed, and no earlier retry of the batch may still be running',
    'POST /api/company/credit-packs/purchases':
      'the pack must be one on sale, the network one the platform has a receiving wallet on, the payer a wallet address of that network, and the company must hold fewer than 3 open purchases',
    'POST /api/integrations/plan/purchases':
      'the network must be one the platform has a receiving wallet on, the payer a wallet address of that network, the plan not lower than the one running, and the account must hold fewer than 3 open purchases',
    'POST /api/integrations/wallets/challenges':
      "the address must be a wallet address of the network (EIP-55 when mixed case, not the zero address) and not another account's verified wallet",
    'POST /api/integrations/wallets/verify':
      "the challenge must be the account's, open, and the signature the wallet's own over its message",
    'POST /api/integrations/requests': 'as POST /proof/v1/requests',
    'POST /api/integrations/invoices': 'as POST /proof/v1/invoices',
    'POST /api/integrations/webhooks': "the URL must pass the destination policy, within the plan's destinations",
    'POST /api/integrations/keys':
      "expires_at must be in the future and at most 366 days ahead of the server's clock, within the plan's keys",
  } as Record<string, string>,
};

/**
 * No budget for the run: it takes as long as the machine needs for its cases (a loaded two-core machine took over 7
 * minutes). A run is hung only when no request of its reaches the app for this long: each request is cut after
 * `requestTimeout`, so a run that is alive sends one well within it.
 */
const STALL_LIMIT_MS = 6 * SETTINGS.requestTimeout * 1000;
/** The vitest hang guard of the test, above the stall detector: CI's own limit for the whole command (90 minutes). */
const TEST_HANG_GUARD_MS = 90 * 60_000;

// Limits far above what the run sends, so no case is throttled into a 429 that hides its real answer.
const ENV = {
  RATE_LIMIT_V1_PER_KEY_PER_MINUTE: '1000000',
  RATE_LIMIT_V1_PER_IP_PER_MINUTE: '1000000',
  RATE_LIMIT_PROOF_PER_KEY_PER_MINUTE: '1000000',
  RATE_LIMIT_PROOF_PER_IP_PER_MINUTE: '1000000',
  RATE_LIMIT_AUTH_FAILURES_PER_IP_PER_MINUTE: '1000000',
  RATE_LIMIT_INTEGRATIONS_PER_IP_PER_MINUTE: '1000000',
  // Self-service purchases are offered on base (the platform's wallet), so their routes answer 201 too.
  PLATFORM_RECEIVING_WALLETS: 'base:0x52908400098527886E0F7030069857D2E4169EE7',
};

const h = new ProofHarness();
/** Company invitations are e-mailed: the app sends them here (and the fuzzer's, to whatever address it makes up). */
let smtp: TestSmtpServer;
const work = mkdtempSync(join(tmpdir(), 'openapi-fuzz-'));
/** The bearer key of each interface, by the `bearerFormat` prefix its document gives. */
const keys: Record<string, string> = {};
/** The values of each session document's `apiKey` schemes (cookie and CSRF header), by document path, then by the cookie's or header's name. */
const sessionValues: Record<string, Record<string, string>> = {};
/** Seeded values offered to parameters and body fields (`targets` are schemathesis binding keys). */
const bindings: Record<string, { values: Array<string | number>; targets: string[] }> = {};
/** `next_cursor`s the seeded lists handed out: each list operation's `before` is bound to the ones its schema admits. */
const cursors: string[] = [];

type Obj = Record<string, unknown>;
interface Operation {
  name: string;
  parameters: Array<{ name: string; in: string; schema?: { pattern?: string } }>;
}

async function post(path: string, key: string, init: { json?: unknown; form?: FormData; idem?: string }): Promise<Obj> {
  const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
  if (init.idem) headers['Idempotency-Key'] = init.idem;
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${h.app.url}${path}`, {
    method: 'POST',
    headers,
    body: init.form ?? JSON.stringify(init.json),
  });
  const text = await res.text();
  expect(res.status, `${path}: ${text}`).toBeLessThan(300);
  return JSON.parse(text) as Obj;
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  await h.start({ ...ENV, ...smtp.env }, { workflows: true });

  // /v1: a company, its key, an upload, a job and a batch (queued: no worker runs here).
  const { company, owner } = await createCompany(h.tdb.db, { name: 'Fuzz Co', ownerEmail: 'owner@fuzz.example' });
  const v1Key = (
    await issueCompanyKey(
      h.tdb.db,
      { companyId: company.id, memberId: owner.id, name: 'fuzz', scopes: ['read', 'write'] },
      new Date(),
    )
  ).secret;
  keys['sk_live_'] = v1Key;
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(await samplePdf(2))]), 'report.pdf');
  const upload = ((await post('/v1/uploads', v1Key, { form }))['uploads'] as Array<{ id: string }>)[0]!.id;
  const job = (
    await post('/v1/jobs', v1Key, {
      json: { operation: 'pdf-rotate', upload_ids: [upload], options: { angle: 90 } },
      idem: 'fuzz-seed-job-1',
    })
  )['id'] as string;
  // A second job, so the job list has a next cursor at limit=1.
  const job2 = (
    await post('/v1/jobs', v1Key, {
      json: { operation: 'pdf-rotate', upload_ids: [upload], options: { angle: 180 } },
      idem: 'fuzz-seed-job-2',
    })
  )['id'] as string;
  const jobsPage = await fetch(`${h.app.url}/v1/jobs?limit=1`, { headers: { Authorization: `Bearer ${v1Key}` } });
  cursors.push(((await jobsPage.json()) as { next_cursor: string }).next_cursor);
  // A second upload, so the upload list (GET /v1/uploads, GET /api/company/uploads) has a next cursor at limit=1.
  const form2 = new FormData();
  form2.append('files', new Blob([new Uint8Array(await samplePdf(1))]), 'second.pdf');
  await post('/v1/uploads', v1Key, { form: form2 });
  const uploadsPage = await fetch(`${h.app.url}/v1/uploads?limit=1`, { headers: { Authorization: `Bearer ${v1Key}` } });
  cursors.push(((await uploadsPage.json()) as { next_cursor: string }).next_cursor);
  bindings['uploads'] = { values: [upload], targets: ['path.upload_id', 'body.upload_ids[*]'] };
  bindings['jobs'] = { values: [job, job2], targets: ['path.job_id'] };
  const batch = (
    await post('/v1/batches', v1Key, {
      json: { operation: 'pdf-rotate', upload_ids: [upload, upload], options: { angle: 90 } },
      idem: 'fuzz-seed-batch-1',
    })
  )['id'] as string;
  // A second batch, so the company session's batch list has a next cursor at limit=1.
  await post('/v1/batches', v1Key, {
    json: { operation: 'pdf-rotate', upload_ids: [upload], options: { angle: 180 } },
    idem: 'fuzz-seed-batch-2',
  });
  bindings['batches'] = { values: [batch], targets: ['path.batch_id'] };

  // The company session (/api/company, POST /v1/webhooks): the owner signs in; a member, an open invitation, a webhook
  // with two deliveries (so both lists have a next cursor at limit=1). Its document is fuzzed last: revoking the key or
  // signing out there ends nothing the other documents need.
  const ownerPassword = 'fuzz owner password';
  await setAccountPassword(h.tdb.db, owner.accountId, await hashPassword(ownerPassword), new Date());
  const session = new DashboardClient(h.app.url, '/api/company');
  expect((await session.signIn(owner.email, ownerPassword, { idem: null })).status).toBe(201);
  sessionValues['/api/company/openapi.json'] = {
    [COMPANY_SESSION_COOKIE]: session.cookie!.split('=')[1]!,
    'X-CSRF-Token': session.csrf!,
  };
  // /v1's own document lists POST /v1/webhooks, a route of the same session.
  sessionValues['/v1/openapi.json'] = sessionValues['/api/company/openapi.json'];
  const member = await addMember(h.tdb.db, company.id, 'member@fuzz.example', 'member');
  const invitation = (
    (await (await session.request('POST', '/invitations', { email: 'invited@fuzz.example' })).json()) as { id: string }
  ).id;
  const webhook = (
    (await (await session.requestAt('POST', '/v1/webhooks', { url: 'https://hooks.example.com/fuzz' })).json()) as {
      id: string;
    }
  ).id;
  const workflow = (
    (await (
      await session.request('POST', '/workflows', { name: 'Fuzz invoices', fields: ['invoice_number', 'total'] })
    ).json()) as { id: string }
  ).id;
  const endpoint = (await getEndpoint(h.tdb.db, webhook))!;
  const deliveries: string[] = [];
  for (const eventId of ['evt_FuzzFuzzFuzzFuzzFuz1', 'evt_FuzzFuzzFuzzFuzzFuz2']) {
    deliveries.push(
      (
        await createDelivery(h.tdb.db, {
          endpoint,
          eventId,
          eventType: 'job.completed',
          body: Buffer.from('{}'),
          maxAttempts: 6,
        })
      ).delivery.id,
    );
  }
  for (const list of ['jobs', 'deliveries', 'batches']) {
    const res = await session.request('GET', `/${list}?limit=1`);
    cursors.push(((await res.json()) as { next_cursor: string }).next_cursor);
  }
  const v1KeyId = (await h.tdb.db('api_keys').where({ tenant_id: company.id }).first('id')).id as string;
  bindings['company_keys'] = { values: [v1KeyId], targets: ['path.key_id'] };
  bindings['company_members'] = { values: [member.id], targets: ['path.member_id'] };
  bindings['company_invitations'] = { values: [invitation], targets: ['path.invitation_id'] };
  bindings['company_webhooks'] = { values: [webhook], targets: ['path.webhook_id'] };
  bindings['company_deliveries'] = { values: deliveries, targets: ['path.delivery_id'] };
  bindings['company_workflows'] = { values: [workflow], targets: ['path.workflow_id'] };
  bindings['result_indexes'] = { values: [0], targets: ['path.index'] };

  // /proof: a merchant with a wallet and a webhook destination (so events are recorded); a payment request, two
  // contacts and two invoices (each with its payment request), so every list has a next cursor at limit=1.
  const m = await h.merchant({ plan: 'business', webhook: true });
  keys['skp_'] = m.key;
  const wallet = m.wallets['base']!;
  const request = (
    await post('/proof/v1/requests', m.key, {
      json: { wallet_id: wallet, amount_usdc: '12.50', description: 'Fuzz seed request' },
      idem: newIdem(),
    })
  )['id'] as string;
  const due = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
  const contacts: string[] = [];
  const invoices: string[] = [];
  for (const name of ['Buyer GmbH', 'Other Buyer Ltd']) {
    const contact = (
      await post('/proof/v1/contacts', m.key, {
        json: { legal_name: name, email: 'ap@buyer.example' },
        idem: newIdem(),
      })
    )['id'] as string;
    contacts.push(contact);
    invoices.push(
      (
        await post('/proof/v1/invoices', m.key, {
          json: {
            customer_id: contact,
            wallet_id: wallet,
            due_date: due,
            items: [{ description: 'Item', quantity: '1', unit_usdc: '10' }],
          },
          idem: newIdem(),
        })
      )['id'] as string,
    );
  }
  for (const list of ['requests', 'contacts', 'invoices']) {
    const res = await fetch(`${h.app.url}/proof/v1/${list}?limit=1`, { headers: { Authorization: `Bearer ${m.key}` } });
    cursors.push(((await res.json()) as { next_cursor: string }).next_cursor);
  }
  // The merchant's dashboard session (/api/integrations): its owner signs in; two plan purchases (so the purchase
  // lists have a next cursor at limit=1), a destination with a delivery, and the ids the session's paths take.
  const user = await createDashboardUser(h.tdb.db, m.id);
  const dash = new DashboardClient(h.app.url);
  expect((await dash.signIn(user.email, user.password)).status).toBe(201);
  sessionValues['/api/integrations/openapi.json'] = {
    [SESSION_COOKIE]: dash.cookie!.split('=')[1]!,
    'X-CSRF-Token': dash.csrf!,
  };
  const purchases: string[] = [];
  for (const plan of ['business', 'pro']) {
    const res = await dash.request('POST', '/plan/purchases', {
      plan,
      network: 'base',
      payer: '0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF',
    });
    expect(res.status).toBe(201);
    purchases.push(((await res.json()) as { id: string }).id);
  }
  cursors.push(
    ((await (await dash.request('GET', '/plan/purchases?limit=1')).json()) as { next_cursor: string }).next_cursor,
  );
  const proofKeyId = (await h.tdb.db('api_keys').where({ tenant_id: m.id }).first('id')).id as string;
  const proofDeliveries = (await h.tdb.db('webhook_deliveries').where({ tenant_id: m.id }).select('id')).map(
    (d: { id: string }) => d.id,
  );
  const destination = (await h.tdb.db('webhook_endpoints').where({ tenant_id: m.id }).first('id')).id as string;
  bindings['proof_ids'] = {
    values: [request, ...contacts, ...invoices, ...purchases, proofKeyId, destination, ...proofDeliveries.slice(0, 2)],
    targets: ['path.id'],
  };
  bindings['wallets'] = { values: [wallet], targets: ['body.wallet_id'] };
  bindings['contacts'] = { values: contacts, targets: ['body.customer_id'] };
});

afterAll(async () => {
  // Every workflow the app started on this file's task queue (jobs, invoices, deliveries) waits for a worker
  // that never comes: end them so the shared Temporal server is left clean.
  if (h.gateway) {
    for await (const wf of h.gateway.client.workflow.list({
      query: `TaskQueue="${h.taskQueue}" AND ExecutionStatus="Running"`,
    })) {
      await h.gateway.client.workflow
        .getHandle(wf.workflowId, wf.runId)
        .terminate('openapi-fuzz finished')
        .catch(() => undefined);
    }
  }
  await h.stop();
  await smtp?.close();
  rmSync(work, { recursive: true, force: true });
});

/** A TOML value (this file writes only strings, numbers and arrays of them). */
const toml = (v: unknown): string => (Array.isArray(v) ? `[${v.map(toml).join(', ')}]` : JSON.stringify(v));

/** The operations of a document, named as schemathesis names them (`METHOD /path`). */
function operationsOf(doc: Obj): Operation[] {
  return Object.entries(
    (doc['paths'] ?? {}) as Record<string, Record<string, { parameters?: Operation['parameters'] }>>,
  ).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({
      name: `${method.toUpperCase()} ${path}`,
      parameters: op.parameters ?? [],
    })),
  );
}

/**
 * schemathesis.toml of one document's run: the seeded values as dictionaries bound to the parameters and body
 * fields that take them; a list's `before` is valid only as a cursor that list handed out (its pattern is only
 * its shape), so its positive cases always take a real one and its negative cases are generated.
 */
function configToml(operations: Operation[], auth: Record<string, string>): string {
  // No state between runs: the advisory cache of earlier failures would make a run depend on the one before.
  const lines: string[] = ['[cache]', 'enabled = false', ''];
  // apiKey schemes (a session cookie, a CSRF header) as schemathesis's own auth, so its auth checks can remove them.
  for (const [scheme, value] of Object.entries(auth))
    lines.push(`[auth.openapi.${scheme}]`, `api_key = ${toml(value)}`, '');
  const dictionary = (name: string, values: unknown[]) =>
    lines.push(`[dictionaries.${name}]`, `values = ${toml(values)}`, '');
  for (const [name, binding] of Object.entries(bindings)) dictionary(name, binding.values);
  const listed: Array<[string, string]> = [];
  for (const op of operations) {
    const before = op.parameters.find((p) => p.in === 'query' && p.name === 'before');
    if (!before) continue;
    const pattern = new RegExp(before.schema?.pattern ?? '^$', 'u');
    const own = cursors.filter((c) => pattern.test(c));
    if (own.length === 0)
      throw new Error(
        `${op.name}: no seeded cursor matches its before parameter; seed a second row of that list in this test`,
      );
    const name = `cursors_${listed.length}`;
    dictionary(name, own);
    listed.push([op.name, name]);
  }
  lines.push('[parameters]');
  for (const [name, binding] of Object.entries(bindings)) {
    for (const target of binding.targets)
      lines.push(`${toml(target)} = { dictionary = ${toml(name)}, probability = ${SETTINGS.realIdProbability} }`);
  }
  lines.push('', '[checks.negative_data_rejection]', `expected-statuses = ${toml(SETTINGS.rejectionStatuses)}`);
  for (const [op, name] of listed) {
    lines.push(
      '',
      '[[operations]]',
      `include-name = ${toml(op)}`,
      `parameters = { "query.before" = { dictionary = ${toml(name)}, probability = 1 } }`,
    );
  }
  for (const [op, reason] of Object.entries(SETTINGS.stateDependentAcceptance)) {
    if (!operations.some((o) => o.name === op)) continue;
    lines.push(
      '',
      `# ${reason}`,
      '[[operations]]',
      `include-name = ${toml(op)}`,
      'checks.positive_data_acceptance.enabled = false',
    );
  }
  return `${lines.join('\n')}\n`;
}

describe('schemathesis against every OpenAPI document the app serves', () => {
  it(
    'finds no server error, hang, or answer that breaks its own document',
    { timeout: TEST_HANG_GUARD_MS },
    async () => {
      const documents = openApiDocumentPaths(h.app.app);
      expect(documents).toEqual(
        expect.arrayContaining([
          '/v1/openapi.json',
          '/proof/openapi.json',
          '/api/integrations/openapi.json',
          '/api/company/openapi.json',
        ]),
      );
      const bin = schemathesisBinary();
      const failures: string[] = [];
      const seen: string[] = [];
      // The watchdog's sign of life: the last request to reach the app.
      let lastRequest = Date.now();
      h.app.server.on('request', () => {
        lastRequest = Date.now();
      });
      for (const path of documents) {
        const res = await fetch(`${h.app.url}${path}`);
        expect(res.status, path).toBe(200);
        const doc = (await res.json()) as Obj;
        const operations = operationsOf(doc);
        seen.push(...operations.map((o) => o.name));
        const headers: string[] = [];
        const auth: Record<string, string> = {};
        const schemes = ((doc['components'] as Obj | undefined)?.['securitySchemes'] ?? {}) as Record<
          string,
          { type?: string; name?: string; bearerFormat?: string }
        >;
        for (const [name, scheme] of Object.entries(schemes)) {
          if (scheme.type === 'apiKey') {
            // A session document: the seeded session's value, and the app's own Origin (browsers send it; mutations need it).
            const value = sessionValues[path]?.[scheme.name ?? ''];
            if (!value)
              throw new Error(
                `${path}: no seeded value for its apiKey scheme ${name} (${scheme.name ?? 'no name'}); seed one in this test`,
              );
            auth[name] = value;
            if (!headers.includes('Origin: ' + new URL(h.app.url).origin))
              headers.push('-H', `Origin: ${new URL(h.app.url).origin}`);
            continue;
          }
          const prefix = Object.keys(keys).find((p) => scheme.bearerFormat?.startsWith(p));
          if (!prefix)
            throw new Error(
              `${path}: no seeded key for its security scheme ${name} (${scheme.bearerFormat ?? 'no bearerFormat'}); seed one in this test`,
            );
          headers.push('-H', `Authorization: Bearer ${keys[prefix]!}`);
        }
        const slug = path.replace(/\W+/g, '-').replace(/^-|-$/g, '');
        const configFile = join(work, `${slug}.toml`);
        writeFileSync(configFile, configToml(operations, auth));
        const args = [
          '--config-file',
          configFile,
          '--no-color',
          'run',
          `${h.app.url}${path}`,
          '--url',
          h.app.url,
          '--phases',
          SETTINGS.phases,
          '--max-examples',
          String(SETTINGS.maxExamples),
          '--seed',
          String(SETTINGS.seed),
          '--generation-database',
          'none',
          '--request-timeout',
          String(SETTINGS.requestTimeout),
          '--workers',
          '1',
          ...headers,
        ];
        const t0 = Date.now();
        const result = await runProgram(bin, args, {
          cwd: work,
          env: { ...process.env, NO_COLOR: '1' },
          stall: { lastProgress: () => lastRequest, limitMs: STALL_LIMIT_MS },
        });
        const summary = /Test cases:\s*\n\s*(.+)/.exec(result.output)?.[1]?.trim() ?? '';
        console.log(
          `schemathesis ${path}: ${operations.length} operations, ${summary}, ${((Date.now() - t0) / 1000).toFixed(1)} s, exit ${String(result.code)}`,
        );
        if (result.stalled)
          failures.push(
            `${path}: schemathesis sent no request for ${STALL_LIMIT_MS / 1000} s (hung)\n${result.output.slice(-4000)}`,
          );
        else if (result.code !== 0)
          failures.push(
            `${path}: schemathesis exited ${String(result.code)}\n${failureSections(result.output) || result.output.slice(-6000)}`,
          );
      }
      // A stale name in the settings would silently stop applying: every one must be a served operation.
      expect(Object.keys(SETTINGS.stateDependentAcceptance).filter((op) => !seen.includes(op))).toEqual([]);
      expect(
        failures.join('\n\n'),
        'schemathesis found problems: per operation, the check, the response and a curl command',
      ).toBe('');
    },
  );
});
