import { execFile } from 'node:child_process';
import { createCipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox, generateSecretsKey, secretsKeyId, type SecretBox } from '../../adapters/crypto/secret-box.js';
import { createFileOperationRunners } from '../../adapters/media/operation-runners.js';
import { encryptedPdfPageCount } from '../../adapters/media/pdf/qpdf.js';
import { createFileStore } from '../../adapters/storage/file-store.js';
import { createSystemResolver } from '../../adapters/webhooks/http-delivery.js';
import { enqueueDelivery } from '../../services/workflows/deliveries.js';
import { deliveryOutcome } from '../helpers/deliveries.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';
import { createCompany, issueCompanyKey } from '../../services/company/memberships.js';
import { createMerchant, setMerchantPlan } from '../../db/repositories/merchants.repo.js';
import { listSealed, replaceSealed, SEALED_COLUMNS } from '../../db/repositories/sealed-secrets.repo.js';
import {
  createEndpoint,
  getEndpoint,
  rotateEndpointSecret,
  type WebhookEndpoint,
} from '../../db/repositories/webhooks.repo.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { createDashboardUser, DashboardClient } from '../helpers/dashboard.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { capturingLogger } from '../helpers/logs.js';
import { startReceiver, verifyReceived } from '../helpers/receiver.js';
import { samplePdf } from '../../support/sample-files.js';
import { startTestWorker, testGateway, uniqueTaskQueue } from '../helpers/temporal.js';

/**
 * SECRETS_KEY rotation end to end (docs/operations.md "Rotating SECRETS_KEY"): values sealed under key A (in the
 * v2 format with a key id, and in the v1 format of earlier releases) keep working once B is current and A is
 * previous; `secrets:reseal` moves every value to B; then A is removed and everything still works.
 */

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const A = generateSecretsKey();
const B = generateSecretsKey();
const kidA = secretsKeyId(A);
const kidB = secretsKeyId(B);

/** A value as releases before key ids sealed it (no key id, no associated data). */
function sealLegacyV1(keyBase64: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyBase64, 'base64'), iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64')}`;
}

const logs = capturingLogger();
let tdb: TestDatabase;
const storageDir = mkdtempSync(join(tmpdir(), 'rotation-store-'));
const store = createFileStore(storageDir);
// Three task queues, so each phase runs exactly the work it should: deliveries in every phase, job J0 while A is
// previous (before the reseal), jobs J1 and J2 only once A is gone (after the reseal).
const hooksQueue = uniqueTaskQueue('rotation-hooks');
const earlyJobsQueue = uniqueTaskQueue('rotation-jobs-early');
const lateJobsQueue = uniqueTaskQueue('rotation-jobs-late');
let hooksGw: WorkflowGateway;
let earlyGw: WorkflowGateway;
let lateGw: WorkflowGateway;
const stops: Array<() => Promise<void>> = [];

beforeAll(async () => {
  tdb = await createTestDatabase();
  [hooksGw, earlyGw, lateGw] = await Promise.all([
    testGateway(hooksQueue),
    testGateway(earlyJobsQueue),
    testGateway(lateJobsQueue),
  ]);
});
afterAll(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
  await Promise.all([hooksGw?.close(), earlyGw?.close(), lateGw?.close()]);
  await tdb?.drop();
});

/** The API (and, optionally, workers) of one configuration, as a restart with new environment would build them. */
async function platform(box: SecretBox, opts: { jobs?: WorkflowGateway; workersOn?: string[] } = {}) {
  const app = await startTestApp({
    db: tdb.db,
    logger: logs.logger,
    config: testConfig({ STORAGE_DIR: storageDir, LOG_LEVEL: 'debug' }),
    workflows: opts.jobs ?? lateGw,
    secretBox: box,
  });
  const workers: Array<Awaited<ReturnType<typeof startTestWorker>>> = [];
  for (const queue of opts.workersOn ?? []) {
    workers.push(
      await startTestWorker(queue, {
        db: tdb.db,
        logger: logs.logger,
        secretBox: box,
        resolver: createSystemResolver(),
        allowLoopbackForTests: true,
        processing: { store, runners: createFileOperationRunners() },
      }),
    );
  }
  let stopped: Promise<void> | null = null;
  const stop = () =>
    (stopped ??= (async () => {
      for (const w of workers) await w.stop();
      await app.close();
    })());
  stops.push(stop);
  return { app, stop };
}

const auth = (key: string) => ({ Authorization: `Bearer ${key}` });

async function upload(baseUrl: string, key: string, bytes: Buffer): Promise<string> {
  const f = new FormData();
  f.append('files', new Blob([new Uint8Array(bytes)]), 'doc.pdf');
  const res = await fetch(`${baseUrl}/v1/uploads`, { method: 'POST', headers: auth(key), body: f });
  expect(res.status).toBe(201);
  return ((await res.json()) as { uploads: Array<{ id: string }> }).uploads[0]!.id;
}

function submit(baseUrl: string, key: string, body: unknown, idem: string): Promise<Response> {
  return fetch(`${baseUrl}/v1/jobs`, {
    method: 'POST',
    headers: { ...auth(key), 'content-type': 'application/json', 'Idempotency-Key': idem },
    body: JSON.stringify(body),
  });
}

async function waitForJob(id: string, timeoutMs = 60_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const row = await tdb.db('jobs').where({ id }).first('status');
    if (row?.status === 'completed' || row?.status === 'failed') return row.status as string;
    if (Date.now() > until) throw new Error(`job ${id} still ${row?.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The result of a completed pdf-protect job opens with `password` (and only it: qpdf says so). */
async function protectedPageCount(baseUrl: string, key: string, jobId: string, password: string): Promise<number> {
  const job = (await (await fetch(`${baseUrl}/v1/jobs/${jobId}`, { headers: auth(key) })).json()) as {
    status: string;
    result: { files: Array<{ download_path: string }> };
  };
  expect(job.status).toBe('completed');
  const bytes = Buffer.from(
    await (await fetch(`${baseUrl}${job.result.files[0]!.download_path}`, { headers: auth(key) })).arrayBuffer(),
  );
  const file = join(mkdtempSync(join(tmpdir(), 'rotation-out-')), 'out.pdf');
  writeFileSync(file, bytes);
  return encryptedPdfPageCount(file, password);
}

/** Delivers one event to each endpoint as the platform does (the dispatcher); returns each outcome. */
async function deliverAll(endpoints: WebhookEndpoint[]) {
  const out = [];
  for (const stored of endpoints) {
    const endpoint = (await getEndpoint(tdb.db, stored.id))!;
    const eventId = `evt_rotation_${randomBytes(6).toString('hex')}`;
    const body = Buffer.from(
      JSON.stringify({ id: eventId, api_version: '1.0', type: 'test.ping', occurred_at: 1_800_000_000, data: {} }),
    );
    const { delivery } = await enqueueDelivery(tdb.db, {
      endpoint,
      eventId,
      eventType: 'test.ping',
      body,
      delaysMs: [50, 50, 50],
    });
    const result = await deliveryOutcome(tdb.db, delivery.id);
    out.push({ endpoint, eventId, result });
  }
  return out;
}

/** `npm run admin -- <args>` as an operator runs it, with this test's database and keys. */
function admin(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'cli/admin.ts', ...args],
      {
        cwd: repoRoot,
        env: {
          PATH: process.env['PATH'] ?? '',
          HOME: process.env['HOME'] ?? '',
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          DATABASE_URL: tdb.url,
          ...env,
        },
        timeout: 120_000,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** The same browser (cookie and CSRF token) talking to the restarted API. */
function sameBrowser(from: DashboardClient, baseUrl: string): DashboardClient {
  const next = new DashboardClient(baseUrl);
  next.cookie = from.cookie;
  next.csrf = from.csrf;
  return next;
}

const sealedValues = async () => [
  ...(await tdb.db('webhook_endpoints').select('secret_sealed')).map((r) => r.secret_sealed as string),
  ...(await tdb.db('jobs').whereNotNull('secret_sealed').select('secret_sealed')).map((r) => r.secret_sealed as string),
];

describe('SECRETS_KEY rotation', () => {
  it('every column that holds sealed values is known to the reseal command', async () => {
    const columns = await tdb
      .db('information_schema.columns')
      .where({ table_schema: 'public' })
      .andWhere('column_name', 'like', '%sealed%')
      .select('table_name', 'column_name');
    expect(columns.map((c) => `${c.table_name}.${c.column_name}`).sort()).toEqual(
      SEALED_COLUMNS.map((c) => `${c.table}.${c.column}`).sort(),
    );
  });

  it('A → B with A previous → reseal → A removed: deliveries verify, passwords open, sessions and idempotent replays hold', async () => {
    const receiver = await startReceiver(() => 200);
    try {
      // ---- Phase 1: only key A (today's platform). ----
      const boxA = createSecretBox(A);
      const p1 = await platform(boxA);
      const p1early = await platform(boxA, { jobs: earlyGw });
      const { company, owner } = await createCompany(tdb.db, {
        name: 'Rotation',
        ownerEmail: `rot-${randomBytes(3).toString('hex')}@example.com`,
      });
      const key = (
        await issueCompanyKey(
          tdb.db,
          { companyId: company.id, memberId: owner.id, name: 'k', scopes: ['read', 'write'] },
          new Date(),
        )
      ).secret;
      const pdf = await upload(p1.app.url, key, await samplePdf(2));
      const passwords = {
        j0: `pw0-${randomBytes(6).toString('hex')}`,
        j1: `pw1-${randomBytes(6).toString('hex')}`,
        j2: `pw2-${randomBytes(6).toString('hex')}`,
      };
      const jobBody = (password: string) => ({ operation: 'pdf-protect', upload_ids: [pdf], options: { password } });
      const idemJ1 = `rotation-j1-${randomBytes(4).toString('hex')}`;
      const submitted = async (res: Response) => {
        const text = await res.text();
        expect(res.status, text).toBe(202);
        return (JSON.parse(text) as { id: string }).id;
      };
      const j0 = await submitted(
        await submit(p1early.app.url, key, jobBody(passwords.j0), `rotation-j0-${randomBytes(4).toString('hex')}`),
      );
      const j1 = await submitted(await submit(p1.app.url, key, jobBody(passwords.j1), idemJ1));
      const j2 = await submitted(
        await submit(p1.app.url, key, jobBody(passwords.j2), `rotation-j2-${randomBytes(4).toString('hex')}`),
      );
      // J2's password as the release before key ids sealed it.
      await tdb
        .db('jobs')
        .where({ id: j2 })
        .update({ secret_sealed: sealLegacyV1(A, JSON.stringify({ password: passwords.j2 })) });

      const merchant = await createMerchant(tdb.db, { name: 'Rotation merchant', trial: false }, new Date());
      await setMerchantPlan(tdb.db, merchant.id, 'pro', new Date(Date.now() + 30 * 86_400_000));
      const user = await createDashboardUser(tdb.db, merchant.id);
      let dash = new DashboardClient(p1.app.url);
      expect((await dash.signIn(user.email, user.password)).status).toBe(201);
      const tokenA = dash.csrf!;
      const created = await dash.request('POST', '/webhooks', { url: receiver.url, events: ['payment.confirmed'] });
      expect(created.status).toBe(201);
      const viaDashboard = (await created.json()) as { id: string; secret: string };
      const proofLegacySecret = `whsec_legacy_${randomBytes(8).toString('hex')}`;
      const v1Secret = `whsec_v1_${randomBytes(8).toString('hex')}`;
      const legacy = await createEndpoint(tdb.db, {
        interface: 'proof',
        tenantId: merchant.id,
        url: receiver.url,
        events: [],
        secretSealed: sealLegacyV1(A, proofLegacySecret),
      });
      const v1Endpoint = await createEndpoint(tdb.db, {
        interface: 'v1',
        tenantId: company.id,
        url: receiver.url,
        events: [],
        secretSealed: boxA.seal(v1Secret),
      });
      const endpoints = [(await getEndpoint(tdb.db, viaDashboard.id))!, legacy, v1Endpoint];
      const secrets = [viaDashboard.secret, proofLegacySecret, v1Secret];
      expect(endpoints[0]!.secretSealed.startsWith(`v2:${kidA}:`)).toBe(true);
      expect((await tdb.db('jobs').where({ id: j1 }).first()).secret_sealed.startsWith(`v2:${kidA}:`)).toBe(true);
      await p1.stop();
      await p1early.stop();

      // ---- Phase 2: B writes, A still reads (API and workers restarted with SECRETS_KEY=B, SECRETS_KEYS_PREVIOUS=A). ----
      const boxBA = createSecretBox(B, [A]);
      const p2 = await platform(boxBA, { workersOn: [hooksQueue, earlyJobsQueue] });
      dash = sameBrowser(dash, p2.app.url);
      let seen = receiver.requests.length;
      for (const [i, d] of (await deliverAll(endpoints)).entries()) {
        expect(d.result, `endpoint ${i}`).toEqual({ status: 'delivered', attempts: 1 });
        const req = receiver.requests.find((r) => r.body.toString().includes(d.eventId))!;
        expect(verifyReceived(req, secrets[i]!), `endpoint ${i}`).toEqual({ ok: true });
      }
      expect(receiver.requests.length).toBe(seen + 3);
      expect(await waitForJob(j0)).toBe('completed');
      expect(await protectedPageCount(p2.app.url, key, j0, passwords.j0)).toBe(2);

      // A live session keeps working with the CSRF token it got under A; the API now hands out B's.
      const withOldToken = await dash.request(
        'POST',
        '/keys',
        { name: 'after rotation', scopes: ['read'] },
        { csrf: tokenA },
      );
      expect(withOldToken.status, await withOldToken.clone().text()).toBe(201);
      const tokenB = ((await (await dash.request('GET', '/session')).json()) as { csrf_token: string }).csrf_token;
      expect(tokenB).not.toBe(tokenA);
      expect(
        (await dash.request('POST', '/keys', { name: 'with new token', scopes: ['read'] }, { csrf: tokenB })).status,
      ).toBe(201);
      // New secrets are written under B.
      const createdUnderB = (await (
        await dash.request('POST', '/webhooks', { url: receiver.url, events: ['invoice.paid'] }, { csrf: tokenB })
      ).json()) as { id: string; secret: string };
      expect((await getEndpoint(tdb.db, createdUnderB.id))!.secretSealed.startsWith(`v2:${kidB}:`)).toBe(true);
      endpoints.push((await getEndpoint(tdb.db, createdUnderB.id))!);
      secrets.push(createdUnderB.secret);

      // A replayed idempotent job request (its fingerprint holds a digest under A) replays; another password is still 409.
      const replay = await submit(p2.app.url, key, jobBody(passwords.j1), idemJ1);
      expect(replay.status, await replay.clone().text()).toBe(202);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(((await replay.json()) as { id: string }).id).toBe(j1);
      expect((await submit(p2.app.url, key, jobBody('another password'), idemJ1)).status).toBe(409);

      // ---- The operator reseals while the platform runs. ----
      const env = { SECRETS_KEY: B, SECRETS_KEYS_PREVIOUS: A };
      const first = await admin(['secrets:reseal'], env);
      expect(first.code, first.stderr).toBe(0);
      const report = JSON.parse(first.stdout) as {
        current_key_id: string;
        previous_key_ids: string[];
        columns: Array<Record<string, unknown>>;
        resealed: number;
        unreadable: number;
        remaining_under_other_keys: number;
      };
      expect(report).toMatchObject({
        current_key_id: kidB,
        previous_key_ids: [kidA],
        resealed: 5,
        unreadable: 0,
        remaining_under_other_keys: 0,
      });
      expect(report.columns).toEqual([
        expect.objectContaining({
          column: 'webhook_endpoints.secret_sealed',
          scanned: 4,
          resealed: 3,
          already_current: 1,
          unreadable: 0,
        }),
        expect.objectContaining({
          column: 'jobs.secret_sealed',
          scanned: 2,
          resealed: 2,
          already_current: 0,
          unreadable: 0,
        }),
      ]);
      for (const s of [...secrets, ...Object.values(passwords), A, B]) {
        expect(first.stdout + first.stderr).not.toContain(s);
      }
      for (const v of await sealedValues()) expect(v.startsWith(`v2:${kidB}:`)).toBe(true);
      const again = await admin(['secrets:reseal'], env);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ resealed: 0, unreadable: 0, remaining_under_other_keys: 0 });
      const status = await admin(['secrets:status'], { SECRETS_KEY: B });
      expect(status.code, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({
        current_key_id: kidB,
        previous_key_ids: [],
        by_key_id: { [kidB]: 6 },
        remaining_under_other_keys: 0,
      });
      await p2.stop();

      // ---- Phase 3: A removed (SECRETS_KEY=B only). ----
      const boxB = createSecretBox(B);
      const p3 = await platform(boxB, { workersOn: [hooksQueue, lateJobsQueue] });
      dash = sameBrowser(dash, p3.app.url);
      seen = receiver.requests.length;
      for (const [i, d] of (await deliverAll(endpoints)).entries()) {
        expect(d.result, `endpoint ${i}`).toEqual({ status: 'delivered', attempts: 1 });
        const req = receiver.requests.find((r) => r.body.toString().includes(d.eventId))!;
        expect(verifyReceived(req, secrets[i]!), `endpoint ${i}`).toEqual({ ok: true });
      }
      expect(receiver.requests.length).toBe(seen + 4);
      expect(await waitForJob(j1)).toBe('completed');
      expect(await waitForJob(j2)).toBe('completed');
      expect(await protectedPageCount(p3.app.url, key, j1, passwords.j1)).toBe(2);
      expect(await protectedPageCount(p3.app.url, key, j2, passwords.j2)).toBe(2);

      // The session lives on: the page reads its token again (GET /session) and keeps working under B.
      const session = await dash.request('GET', '/session');
      expect(session.status).toBe(200);
      expect(((await session.json()) as { csrf_token: string }).csrf_token).toBe(tokenB);
      expect(
        (await dash.request('POST', '/keys', { name: 'after removal', scopes: ['read'] }, { csrf: tokenB })).status,
      ).toBe(201);
      // The documented boundary of removing A: a digest made only under A no longer matches (docs/operations.md).
      expect(
        (await dash.request('POST', '/keys', { name: 'stale token', scopes: ['read'] }, { csrf: tokenA })).status,
      ).toBe(403);

      for (const s of [...secrets, ...Object.values(passwords)]) expect(logs.text()).not.toContain(s);
    } finally {
      await receiver.close();
    }
  });

  it('reseals the value a concurrent writer committed, not the one it listed (row locked and read again)', async () => {
    const boxA = createSecretBox(A);
    const boxBA = createSecretBox(B, [A]);
    const endpoint = await createEndpoint(tdb.db, {
      interface: 'proof',
      tenantId: 'mer_concurrent',
      url: 'https://hooks.example.com/c',
      events: [],
      secretSealed: boxA.seal('whsec_before'),
    });
    try {
      const col = SEALED_COLUMNS.find((c) => c.table === 'webhook_endpoints')!;
      expect((await listSealed(tdb.db, col, null, 1000)).some((r) => r.id === endpoint.id)).toBe(true);
      // A destination rotation holds the row while the reseal reaches it; the reseal waits, then sees its value.
      const rotation = await tdb.db.transaction();
      await rotation('webhook_endpoints')
        .where({ id: endpoint.id })
        .update({ secret_sealed: boxA.seal('whsec_after'), key_version: 2 });
      const resealing = replaceSealed(tdb.db, col, endpoint.id, (sealed) => boxBA.reseal(sealed));
      await rotation.commit();
      expect(await resealing).toBe('replaced');
      const stored = (await getEndpoint(tdb.db, endpoint.id))!;
      expect(stored.keyVersion).toBe(2);
      expect(createSecretBox(B).open(stored.secretSealed)).toBe('whsec_after');
      // A rotation after the reseal simply writes under the current key.
      await rotateEndpointSecret(tdb.db, endpoint.id, boxBA.seal('whsec_later'));
      expect(await replaceSealed(tdb.db, col, endpoint.id, (sealed) => boxBA.reseal(sealed))).toBe('unchanged');
    } finally {
      await tdb.db('webhook_endpoints').where({ id: endpoint.id }).del();
    }
  });

  it('reseal leaves a value it cannot open untouched, names its row, and exits 1 without printing a secret', async () => {
    const C = generateSecretsKey();
    const foreign = createSecretBox(C).seal('whsec_under_an_unknown_key');
    const endpoint = await createEndpoint(tdb.db, {
      interface: 'proof',
      tenantId: 'mer_unknown_key',
      url: 'https://hooks.example.com/x',
      events: [],
      secretSealed: foreign,
    });
    try {
      // A is configured too, so values an earlier failed test left under A do not change the count.
      const run = await admin(['secrets:reseal'], { SECRETS_KEY: B, SECRETS_KEYS_PREVIOUS: A });
      expect(run.code).toBe(1);
      const report = JSON.parse(run.stdout) as {
        unreadable: number;
        columns: Array<{ column: string; unreadable_ids: string[] }>;
      };
      expect(report.unreadable).toBe(1);
      expect(report.columns.find((c) => c.column === 'webhook_endpoints.secret_sealed')!.unreadable_ids).toEqual([
        endpoint.id,
      ]);
      expect(run.stdout + run.stderr).toContain(secretsKeyId(C));
      for (const s of ['whsec_under_an_unknown_key', foreign, C, B]) expect(run.stdout + run.stderr).not.toContain(s);
      expect((await getEndpoint(tdb.db, endpoint.id))!.secretSealed).toBe(foreign);
    } finally {
      await tdb.db('webhook_endpoints').where({ id: endpoint.id }).del();
    }
  });
});
