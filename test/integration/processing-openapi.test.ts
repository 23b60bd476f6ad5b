import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reserveJobCredits } from '../../services/processing/credits.js';
import { newId } from '../../adapters/crypto/tokens.js';
import { issueCompanyKey } from '../../services/company/memberships.js';
import { processingRouter } from '../../api/processing/processing.routes.js';
import { v1WebhooksRouter } from '../../api/company/company.routes.js';
import { COMPANY_SESSION_COOKIE } from '../../api/company/guards.js';
import { createCompanyAdmin, DashboardClient } from '../helpers/dashboard.js';
import { processingOpenApi } from '../../api/processing/openapi.document.js';
import { statusOf } from '../../api/http/errors.js';
import type { ErrorCode } from '../../domain/errors.js';
import { parseBatchRequest, parseJobRequest } from '../../domain/validation/processing-request.js';
import { LIMITS } from '../../domain/accounts.js';
import { testConfig, startTestApp } from '../helpers/app.js';
import { ProcessingHarness, type JobJson, type TestCompany } from '../helpers/processing.js';
import { sampleEncryptedPdf, samplePdf, samplePng } from '../../support/sample-files.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Conformance,
  expectSoundDocument,
  expectSoundOperations,
  obj,
  type Obj,
  validatorAccepts,
} from '../helpers/openapi-conformance.js';
import { expectDocumented503s, unreachableDb } from '../helpers/unreachable-db.js';

/**
 * The OpenAPI 3.1 document of /v1 against the code: it is structurally sound, lists exactly the routes the
 * router serves, describes the request validator, and every real response of the running app (status, JSON
 * body, required headers) conforms to it. Response objects in the document are closed, so a field the server
 * sends but the document does not list fails here.
 */

const h = new ProcessingHarness();
let acme: TestCompany;
let pollKey: string;
let served: { status: number; type: string | null; rateLimit: string | null; body: Obj };
let c: Conformance;
const config = testConfig();
const settings = {
  limits: { ...config.storage, retentionDays: LIMITS.retentionDays },
  rateLimits: {
    perKeyPerMinute: config.rateLimits.v1PerKeyPerMinute,
    perIpPerMinute: config.rateLimits.v1PerIpPerMinute,
    authFailuresPerIpPerMinute: config.rateLimits.authFailuresPerIpPerMinute,
  },
  bodyLimitJson: config.http.bodyLimitJson,
  media: config.media,
};

const url = (path: string) => `${h.app.url}${path}`;
const send = (
  method: string,
  path: string,
  key: string | null,
  init: { json?: unknown; body?: FormData | string; headers?: Record<string, string> } = {},
) =>
  fetch(url(path), {
    method,
    headers: {
      ...(key ? h.auth(key) : {}),
      ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
    ...(init.json !== undefined
      ? { body: typeof init.json === 'string' ? init.json : JSON.stringify(init.json) }
      : init.body !== undefined
        ? { body: init.body }
        : {}),
  });
const files = (list: Array<[string, Buffer]>) => {
  const f = new FormData();
  for (const [name, bytes] of list) f.append('files', new Blob([new Uint8Array(bytes)]), name);
  return f;
};
const idem = () => `oas-${randomBytes(6).toString('hex')}`;
const submit = (key: string, body: unknown, idempotencyKey: string | null = idem()) =>
  send('POST', '/v1/jobs', key, {
    json: body,
    headers: idempotencyKey === null ? {} : { 'Idempotency-Key': idempotencyKey },
  });
const codeOf = (body: unknown) => obj(body)['code'];

async function uploadOk(key: string, name: string, bytes: Buffer): Promise<string> {
  const body = await c.check(
    'POST /v1/uploads',
    await send('POST', '/v1/uploads', key, { body: files([[name, bytes]]) }),
  );
  return (obj(body)['uploads'] as Array<{ id: string }>)[0]!.id;
}
async function submitOk(body: Obj): Promise<JobJson> {
  c.expectValid(c.jobRequestSchema(), body, 'request body accepted by the server');
  const res = await submit(acme.key, body);
  expect(res.status).toBe(202);
  return (await c.check('POST /v1/jobs', res)) as JobJson;
}
/**
 * Polls as a client would (faster), checking every answer against the document. Every 600 ms at most, so the poll
 * key stays under its 120 requests per minute however long a job takes on a busy machine.
 */
async function poll(id: string): Promise<JobJson> {
  const until = Date.now() + 120_000;
  for (;;) {
    const job = (await c.check('GET /v1/jobs/{job_id}', await send('GET', `/v1/jobs/${id}`, pollKey))) as JobJson;
    if (job.status === 'completed' || job.status === 'failed') return job;
    if (Date.now() > until) throw new Error(`job ${id} still ${job.status}`);
    await new Promise((r) => setTimeout(r, 600));
  }
}

beforeAll(async () => {
  await h.start({ startWorkers: false });
  acme = await h.company('OpenApiCo');
  pollKey = (
    await issueCompanyKey(
      h.tdb.db,
      { companyId: acme.id, memberId: acme.ownerId, name: 'poll', scopes: ['read'] },
      new Date(),
    )
  ).secret;
  const res = await fetch(url('/v1/openapi.json'));
  served = {
    status: res.status,
    type: res.headers.get('content-type'),
    rateLimit: res.headers.get('ratelimit-limit'),
    body: (await res.json()) as Obj,
  };
  c = new Conformance(served.body);
});
afterAll(() => h.stop());

/** The document's request schema accepts exactly the bodies `parse` accepts (it throws a DomainError for the others). */
function expectSameAcceptance(schema: unknown, parse: (body: unknown) => unknown, cases: unknown[]): void {
  const validate = c.validator(schema);
  for (const body of cases) {
    const accepted = validatorAccepts(parse, body);
    expect(validate(body), `${JSON.stringify(body)}: the validator ${accepted ? 'accepts' : 'refuses'} it`).toBe(
      accepted,
    );
  }
}

describe('the document', () => {
  it('is served without a key (the guards never run for it) while every other /v1 route still needs one', async () => {
    expect(served).toMatchObject({ status: 200, type: 'application/json; charset=utf-8', rateLimit: null });
    expect(served.body).toEqual(JSON.parse(JSON.stringify(processingOpenApi())));
    // What is served is what is committed (npm run openapi:generate).
    expect(served.body).toEqual(
      JSON.parse(readFileSync(new URL('../../docs/openapi/v1.json', import.meta.url), 'utf8')),
    );
    await c.check('GET /v1/openapi.json', await fetch(url('/v1/openapi.json')));

    const docs = await fetch(url('/v1/docs'));
    expect(docs.headers.get('ratelimit-limit')).toBeNull();
    const html = ((await c.check('GET /v1/docs', docs)) as Buffer).toString('utf8');
    for (const text of [
      'every 3 to 10 seconds',
      'Back off on 429 and 5xx',
      'Idempotency-Key',
      'sk_live_',
      'queued',
      'processing',
      'completed',
      'failed',
      'per started minute',
      '/v1/openapi.json',
    ]) {
      expect(html).toContain(text);
    }
    for (const [path, item] of Object.entries(obj(served.body['paths']))) {
      for (const [method, op] of Object.entries(obj(item))) {
        expect(html, `${method} ${path}`).toContain(`<code>${method.toUpperCase()} ${path}</code>`);
        expect(html).toContain(`id="${String(obj(op)['operationId'])}"`);
      }
    }
    for (const e of served.body['x-error-codes'] as Array<{ code: string }>)
      expect(html).toContain(`<code>${e.code}</code>`);

    const job = 'job_AAAAAAAAAAAAAAAAAAAA';
    for (const [key, method, path] of [
      ['POST /v1/uploads', 'POST', '/v1/uploads'],
      ['DELETE /v1/uploads/{upload_id}', 'DELETE', '/v1/uploads/upl_AAAAAAAAAAAAAAAAAAAA'],
      ['POST /v1/estimate', 'POST', '/v1/estimate'],
      ['POST /v1/jobs', 'POST', '/v1/jobs'],
      ['GET /v1/jobs/{job_id}', 'GET', `/v1/jobs/${job}`],
      ['DELETE /v1/jobs/{job_id}', 'DELETE', `/v1/jobs/${job}`],
      ['GET /v1/jobs/{job_id}/results/{index}', 'GET', `/v1/jobs/${job}/results/0`],
      ['POST /v1/batches/estimate', 'POST', '/v1/batches/estimate'],
      ['POST /v1/batches', 'POST', '/v1/batches'],
      ['GET /v1/batches/{batch_id}', 'GET', '/v1/batches/bat_AAAAAAAAAAAAAAAAAAAA'],
      ['POST /v1/batches/{batch_id}/retry-failed', 'POST', '/v1/batches/bat_AAAAAAAAAAAAAAAAAAAA/retry-failed'],
      ['POST /v1/batches/{batch_id}/cancel', 'POST', '/v1/batches/bat_AAAAAAAAAAAAAAAAAAAA/cancel'],
      ['GET /v1/batches/{batch_id}/results.zip', 'GET', '/v1/batches/bat_AAAAAAAAAAAAAAAAAAAA/results.zip'],
      ['GET /v1/jobs', 'GET', '/v1/jobs'],
      ['POST /v1/jobs/{job_id}/cancel', 'POST', `/v1/jobs/${job}/cancel`],
      ['GET /v1/uploads/{upload_id}', 'GET', '/v1/uploads/upl_AAAAAAAAAAAAAAAAAAAA'],
      ['GET /v1/uploads', 'GET', '/v1/uploads'],
      ['GET /v1/credits', 'GET', '/v1/credits'],
      ['GET /v1/capabilities', 'GET', '/v1/capabilities'],
    ] as const) {
      const res = await send(method, path, null);
      expect(res.status, key).toBe(401);
      expect(codeOf(await c.check(key, res))).toBe('unauthorized');
    }
    const inQuery = await send('GET', `/v1/jobs/${job}?api_key=${acme.key}`, null);
    expect(codeOf(await c.check('GET /v1/jobs/{job_id}', inQuery))).toBe('api_key_in_url');
  });

  it('says how API keys are created: the company session of a billing administrator, or the operator command line', async () => {
    const html = await (await fetch(url('/v1/docs'))).text();
    expect(html).not.toMatch(/dashboard/i);
    expect(html).toContain('POST /api/company/keys');
    expect(html).toContain('npm run admin -- keys:create --interface v1');
    expect(html).toContain('keys:revoke');
    const scheme = obj(obj(obj(served.body['components'])['securitySchemes'])['apiKey']);
    expect(scheme['description']).toContain('/api/company/docs');
    expect(scheme['description']).toContain('keys:create');
    expect(scheme['description']).not.toMatch(/dashboard/i);
    // The session route named exists in the app.
    expect((await fetch(url('/api/company/openapi.json'))).status).toBe(200);
    // The commands named exist in the operator CLI.
    const cli = readFileSync(new URL('../../cli/admin.ts', import.meta.url), 'utf8');
    for (const command of ['keys:create', 'keys:revoke', 'keys:list']) expect(cli).toContain(`case '${command}':`);
  });

  it('is structurally valid OpenAPI 3.1: references resolve, schemas compile, examples validate, operations are complete', () => {
    const doc = served.body;
    expectSoundDocument(c, doc, 20);
    // The specification's current release (processing-api.md: "Current release 1.2.0: batches …"), which this server serves.
    expect(obj(doc['info'])).toMatchObject({ version: '1.2.0' });
    const examples = expectSoundOperations(c, doc, [
      { section: 'paths', keyPattern: /^\/v1\//, statusPattern: /^[1-5]\d\d$/ },
      { section: 'webhooks', keyPattern: /^[a-z_]+\.[a-z_]+$/, statusPattern: /^([1-5]\d\d|[1-5]XX|default)$/ },
    ]);
    expect(Object.keys(obj(doc['webhooks']))).toEqual([
      'test.ping',
      'job.completed',
      'job.failed',
      'batch.completed',
      'batch.partial',
      'batch.failed',
    ]);
    expect(examples).toBeGreaterThan(30);
  });

  it('lists exactly the routes the /v1 router serves, the public ones before the key guards', () => {
    const router = processingRouter({
      db: h.tdb.db,
      store: h.store,
      logger: h.logs.logger,
      secretBox: h.secretBox,
      workflows: null,
      ...settings,
    });
    // POST /v1/webhooks is a company-session route of /v1, mounted before the /v1 router (api/server.ts).
    const sessionRoutes = v1WebhooksRouter({
      db: h.tdb.db,
      secretBox: h.secretBox,
      perIpPerMinute: 60,
      perSessionPerMinute: 60,
      bodyLimitJson: settings.bodyLimitJson,
      publicBaseUrl: undefined,
      allowLoopbackForTests: false,
      dashboard: { sessionIdleMs: 60_000, origins: [] },
    });
    const template = (p: string) => p.replace(/:\w+|\{\w+\}/g, '{}');
    const routed = [...sessionRoutes.stack, ...router.stack].flatMap((layer) =>
      layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${template(String(layer.path))}`),
    );
    expect(routed).toContain('POST /v1/webhooks');
    const documented = Object.entries(obj(c.doc['paths'])).flatMap(([path, item]) =>
      Object.keys(obj(item)).map((m) => `${m.toUpperCase()} ${template(path)}`),
    );
    expect(routed.sort()).toEqual(documented.sort());
    const guards = router.stack.findIndex((layer) => layer.methods.length === 0);
    const publicPaths = Object.entries(obj(c.doc['paths']))
      .filter(([, item]) =>
        Object.values(obj(item)).every(
          (op) => Array.isArray(obj(op)['security']) && (obj(op)['security'] as unknown[]).length === 0,
        ),
      )
      .map(([p]) => p);
    expect(publicPaths.sort()).toEqual(['/v1/docs', '/v1/openapi.json']);
    router.stack.forEach((layer, i) => {
      if (layer.methods.length === 0) return;
      expect(i < guards, String(layer.path)).toBe(publicPaths.includes(String(layer.path)));
    });
  });

  it('states the status the error middleware gives each code', () => {
    const codes = c.doc['x-error-codes'] as Array<{ code: ErrorCode; status: number }>;
    for (const e of codes) expect(statusOf('v1', e.code), e.code).toBe(e.status);
    // The Error body is a union on `code`: every documented code is the code of exactly one of its variants.
    const variants = obj(obj(obj(c.doc['components'])['schemas'])['Error'])['oneOf'] as unknown[];
    const variantCodes = variants.flatMap((v) => {
      const code = obj(obj(obj(v)['properties'])['code']);
      return (code['enum'] as ErrorCode[] | undefined) ?? [code['const'] as ErrorCode];
    });
    expect([...variantCodes].sort()).toEqual(codes.map((e) => e.code).sort());
  });

  it('accepts exactly the job bodies the request validator accepts', () => {
    const pdf = 'upl_AAAAAAAAAAAAAAAAAAAA';
    const pdf2 = 'upl_BBBBBBBBBBBBBBBBBBBB';
    const many = (n: number) => Array.from({ length: n }, (_, i) => `upl_${String(i).padStart(20, 'C')}`);
    const cases: unknown[] = [
      { operation: 'pdf-extract', upload_ids: [pdf], options: { pages: '1-3, 5' } },
      { operation: 'pdf-extract', upload_ids: [pdf], options: { pages: ' ' } },
      { operation: 'pdf-extract', upload_ids: [pdf] },
      { operation: 'pdf-delete', upload_ids: [pdf], options: { pages: '2' } },
      { operation: 'pdf-delete', upload_ids: [pdf], options: { pages: '1,,2' } },
      { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 90 } },
      { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 45 } },
      { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 180, pages: '' } },
      { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 270, pages: '3-a' } },
      { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 90, pages: '1-2,' } },
      { operation: 'pdf-rotate', upload_ids: [pdf, pdf2], options: { angle: 90 } },
      { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 90 }, max_credits: 5 },
      { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 90 }, max_credits: 0 },
      { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 90 }, max_credits: 2.5 },
      { operation: 'pdf-rotate', upload_ids: ['upl_short'], options: { angle: 90 } },
      { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 90 }, extra: 1 },
      { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 90, colour: 'red' } },
      { operation: 'pdf-protect', upload_ids: [pdf], options: { password: 'x' } },
      { operation: 'pdf-protect', upload_ids: [pdf], options: { password: '' } },
      { operation: 'pdf-unlock', upload_ids: [pdf], options: { password: 'p'.repeat(128) } },
      { operation: 'pdf-unlock', upload_ids: [pdf], options: { password: 'p'.repeat(129) } },
      { operation: 'pdf-watermark', upload_ids: [pdf], options: { text: '  DRAFT  ' } },
      { operation: 'pdf-watermark', upload_ids: [pdf], options: { text: '   ' } },
      { operation: 'pdf-watermark', upload_ids: [pdf], options: { text: ` ${'w'.repeat(200)} ` } },
      { operation: 'pdf-watermark', upload_ids: [pdf], options: { text: 'w'.repeat(201) } },
      { operation: 'pdf-watermark', upload_ids: [pdf], options: { text: 'Größe ✓ 日本' } },
      { operation: 'pdf-watermark', upload_ids: [pdf], options: { text: 'DRAFT\u0007ONLY' } },
      { operation: 'pdf-watermark', upload_ids: [pdf], options: { text: 'DRAFT\nONLY' } },
      { operation: 'pdf-watermark', upload_ids: [pdf], options: { text: ' DRAFT\n' } },
      { operation: 'pdf-number', upload_ids: [pdf] },
      { operation: 'pdf-number', upload_ids: [pdf], options: { start: -1 } },
      { operation: 'pdf-number', upload_ids: [pdf], options: { start: 3, pages: '2-9' } },
      { operation: 'pdf-merge', upload_ids: [pdf, pdf2] },
      { operation: 'pdf-merge', upload_ids: [pdf] },
      { operation: 'pdf-merge', upload_ids: many(20) },
      { operation: 'pdf-merge', upload_ids: many(21) },
      { operation: 'pdf-merge', upload_ids: [pdf, pdf] },
      { operation: 'pdf-merge', upload_ids: [pdf, pdf2], options: { order: 'reverse' } },
      { operation: 'image-edit', upload_ids: [pdf], options: { width: 10, height: 10 } },
      { operation: 'image-edit', upload_ids: [pdf], options: { width: 10 } },
      { operation: 'image-edit', upload_ids: [pdf], options: {} },
      { operation: 'image-edit', upload_ids: [pdf] },
      { operation: 'image-edit', upload_ids: [pdf], options: { crop: [0, 0, 5, 5], flip: 'both', angle: -90 } },
      { operation: 'image-edit', upload_ids: [pdf], options: { crop: [0, 0, 5] } },
      { operation: 'image-edit', upload_ids: [pdf], options: { crop: [0, 0, 0, 5] } },
      { operation: 'image-edit', upload_ids: [pdf], options: { crop: [0, 0, 5, 5, 5] } },
      { operation: 'image-edit', upload_ids: [pdf], options: { format: 'gif' } },
      { operation: 'image-compress', upload_ids: [pdf] },
      { operation: 'image-compress', upload_ids: [pdf], options: { format: 'webp', level: 'strong' } },
      { operation: 'image-compress', upload_ids: [pdf], options: { level: 'max' } },
      { operation: 'webp', upload_ids: [pdf], options: {} },
      { operation: 'webp', upload_ids: [pdf], options: null },
      { operation: 'webp', upload_ids: [] },
      { operation: 'webp' },
      { operation: 'ocr-text', upload_ids: [pdf] },
      { operation: 'transcribe', upload_ids: [pdf] },
      { operation: 'nope', upload_ids: [pdf] },
      { operation: 'ocr-pdf', upload_ids: [pdf], options: { language: 'eng+deu' } },
      { operation: 'ocr-docx', upload_ids: [pdf], options: { language: 'English' } },
      { operation: 'ocr-text', upload_ids: [pdf], options: { language: 'eng+' } },
      { operation: 'ocr-text', upload_ids: [pdf, pdf2] },
      { operation: 'webp', upload_ids: [pdf], items: [] },
      { operation: 'webp', upload_ids: [pdf], fields: ['total'] },
      { operation: 'webp', upload_ids: [pdf], instructions: 'x' },
      { operation: 'webp', upload_ids: [pdf], workflow_id: 'wf' },
      { operation: 'webp', upload_ids: [pdf], webhook_mode: 'batch' },
      [],
      'webp',
      null,
      { operation: 'webp', upload_ids: [pdf], webhook_id: 'whe_AAAAAAAAAAAAAAAAAAAA' },
      { operation: 'webp', upload_ids: [pdf], webhook_id: 'whk_AAAAAAAAAAAAAAAAAAAA' },
      { operation: 'webp', upload_ids: [pdf], webhook_id: null },
    ];
    expectSameAcceptance(c.jobRequestSchema(), parseJobRequest, cases);
  });

  it('accepts exactly the batch bodies the batch validator accepts', () => {
    const pdf = 'upl_AAAAAAAAAAAAAAAAAAAA';
    const pdf2 = 'upl_BBBBBBBBBBBBBBBBBBBB';
    const many = (n: number) => Array.from({ length: n }, (_, i) => `upl_${String(i).padStart(20, 'C')}`);
    const cases: unknown[] = [
      { operation: 'pdf-rotate', upload_ids: [pdf, pdf], options: { angle: 90 } },
      { operation: 'pdf-rotate', items: [{ upload_ids: [pdf] }, { upload_ids: [pdf2] }], options: { angle: 90 } },
      { operation: 'pdf-rotate', upload_ids: [pdf], items: [{ upload_ids: [pdf] }], options: { angle: 90 } },
      { operation: 'pdf-rotate', options: { angle: 90 } },
      { operation: 'pdf-rotate', upload_ids: [pdf], options: { angle: 45 } },
      { operation: 'pdf-rotate', upload_ids: many(100), options: { angle: 90 } },
      { operation: 'pdf-rotate', upload_ids: many(101), options: { angle: 90 } },
      { operation: 'pdf-rotate', items: [{ upload_ids: [pdf, pdf2] }], options: { angle: 90 } },
      { operation: 'pdf-merge', items: [{ upload_ids: [pdf, pdf2] }] },
      { operation: 'pdf-merge', items: [{ upload_ids: [pdf, pdf] }] },
      { operation: 'pdf-merge', items: [{ upload_ids: [pdf] }] },
      { operation: 'pdf-merge', upload_ids: [pdf, pdf2] },
      { operation: 'pdf-merge', items: [] },
      { operation: 'webp', upload_ids: [pdf], webhook_id: 'whe_AAAAAAAAAAAAAAAAAAAA', webhook_mode: 'items' },
      { operation: 'webp', upload_ids: [pdf], webhook_mode: 'all' },
      { operation: 'webp', upload_ids: [pdf], webhook_id: 'whk_AAAAAAAAAAAAAAAAAAAA' },
      { operation: 'webp', upload_ids: [pdf], max_credits: 10 },
      { operation: 'webp', upload_ids: [pdf], max_credits: 0 },
      { operation: 'webp', upload_ids: [pdf], fields: ['total'] },
      { operation: 'flow-extract', upload_ids: [pdf, pdf2], fields: ['total'] },
      { operation: 'flow-extract', items: [{ upload_ids: [pdf, pdf2] }], workflow_id: 'wfl_AAAAAAAAAAAAAAAAAAAA' },
      { operation: 'flow-extract', upload_ids: [pdf] },
      { operation: 'flow-extract', upload_ids: [pdf], fields: ['items'] },
      { operation: 'nope', upload_ids: [pdf] },
      { operation: 'webp', upload_ids: [pdf], extra: 1 },
      [],
      null,
    ];
    const body = obj(obj(c.operation('POST /v1/batches')['requestBody'])['content'])['application/json'];
    expectSameAcceptance(obj(body)['schema'], parseBatchRequest, cases);
  });
});

describe('real responses conform to the document', () => {
  const up: Record<string, string> = {};

  it('uploads: 201, 401, 403, 413, 415, 422 with issues', async () => {
    const many = await c.check(
      'POST /v1/uploads',
      await send('POST', '/v1/uploads', acme.key, {
        body: files([
          ['report.pdf', await samplePdf(12)],
          ['photo.png', await samplePng(400, 300)],
          ['notes.txt', Buffer.from('hello')],
        ]),
      }),
    );
    expect((obj(many)['uploads'] as unknown[]).length).toBe(3);
    up['pdf'] = (obj(many)['uploads'] as Array<{ id: string }>)[0]!.id;
    up['png'] = (obj(many)['uploads'] as Array<{ id: string }>)[1]!.id;
    up['pdf3'] = await uploadOk(acme.key, 'short.pdf', await samplePdf(3));

    expect(
      codeOf(
        await c.check(
          'POST /v1/uploads',
          await send('POST', '/v1/uploads', acme.readKey, { body: files([['a.txt', Buffer.from('x')]]) }),
        ),
      ),
    ).toBe('insufficient_scope');
    expect(
      codeOf(await c.check('POST /v1/uploads', await send('POST', '/v1/uploads', acme.key, { json: { files: [] } }))),
    ).toBe('unsupported_media_type');
    const unreadable = await c.check(
      'POST /v1/uploads',
      await send('POST', '/v1/uploads', acme.key, {
        body: files([
          ['ok.txt', Buffer.from('fine')],
          ['junk.bin', randomBytes(3000)],
        ]),
      }),
    );
    expect(unreadable).toMatchObject({ code: 'validation_failed', issues: [{ path: 'files.1' }] });
    const tooMany = Array.from(
      { length: settings.limits.maxFilesPerUpload + 1 },
      (_, i) => [`t${i}.txt`, Buffer.from(`file ${i}`)] as [string, Buffer],
    );
    expect(
      codeOf(await c.check('POST /v1/uploads', await send('POST', '/v1/uploads', acme.key, { body: files(tooMany) }))),
    ).toBe('payload_too_large');
  });

  it('estimate: 200, 403, 404, 409, 410, 413, 415, 422 with issues and for malformed JSON', async () => {
    const body = { operation: 'pdf-rotate', upload_ids: [up['pdf']], options: { angle: 90, pages: '1-2' } };
    c.expectValid(c.jobRequestSchema(), body, 'estimate body');
    expect(
      await c.check('POST /v1/estimate', await send('POST', '/v1/estimate', acme.key, { json: body })),
    ).toMatchObject({ estimated_credits: 4 });
    expect(
      codeOf(await c.check('POST /v1/estimate', await send('POST', '/v1/estimate', acme.readKey, { json: body }))),
    ).toBe('insufficient_scope');
    expect(
      codeOf(
        await c.check(
          'POST /v1/estimate',
          await send('POST', '/v1/estimate', acme.key, { json: { ...body, upload_ids: ['upl_ZZZZZZZZZZZZZZZZZZZZ'] } }),
        ),
      ),
    ).toBe('not_found');
    expect(
      await c.check(
        'POST /v1/estimate',
        await send('POST', '/v1/estimate', acme.key, { json: { ...body, max_credits: 3 } }),
      ),
    ).toMatchObject({ code: 'max_credits_exceeded', estimated_credits: 4, max_credits: 3 });
    for (const [invalid, path] of [
      [{ ...body, options: { angle: 45 } }, 'options.angle'],
      [{ ...body, extra: true }, '(body)'],
    ] as const) {
      expect(c.validator(c.jobRequestSchema())(invalid)).toBe(false);
      const issues = await c.check(
        'POST /v1/estimate',
        await send('POST', '/v1/estimate', acme.key, { json: invalid }),
      );
      expect(issues).toMatchObject({ code: 'validation_failed', issues: [{ path }] });
    }
    const beyond = await c.check(
      'POST /v1/estimate',
      await send('POST', '/v1/estimate', acme.key, {
        json: { ...body, upload_ids: [up['pdf3']], options: { angle: 90, pages: '5' } },
      }),
    );
    expect(beyond).toMatchObject({ code: 'validation_failed', issues: [{ path: 'options.pages' }] });
    expect(
      codeOf(
        await c.check('POST /v1/estimate', await send('POST', '/v1/estimate', acme.key, { json: '{"operation":' })),
      ),
    ).toBe('malformed_json');
    expect(
      codeOf(
        await c.check(
          'POST /v1/estimate',
          await send('POST', '/v1/estimate', acme.key, {
            body: 'operation=webp',
            headers: { 'content-type': 'text/plain' },
          }),
        ),
      ),
    ).toBe('unsupported_media_type');
    expect(
      codeOf(
        await c.check(
          'POST /v1/estimate',
          await send('POST', '/v1/estimate', acme.key, { json: { ...body, padding: 'x'.repeat(1_100_000) } }),
        ),
      ),
    ).toBe('payload_too_large');

    up['old'] = await uploadOk(acme.key, 'old.pdf', await samplePdf(1));
    await h.tdb
      .db('uploads')
      .where({ id: up['old'] })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect(
      codeOf(
        await c.check(
          'POST /v1/estimate',
          await send('POST', '/v1/estimate', acme.key, { json: { ...body, upload_ids: [up['old']] } }),
        ),
      ),
    ).toBe('gone');
  });

  let queued: JobJson;
  it('a queued job: 202 (and its replay), GET 200, and the 4xx of submission, deletion and download', async () => {
    const body = { operation: 'pdf-rotate', upload_ids: [up['pdf3']], options: { angle: 90 } };
    const key = idem();
    queued = (await c.check('POST /v1/jobs', await submit(acme.key, body, key))) as JobJson;
    expect(queued).toMatchObject({ status: 'queued', estimated_credits: 2 });
    const replay = await submit(acme.key, body, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await c.check('POST /v1/jobs', replay)).toEqual(queued);
    expect(
      codeOf(await c.check('POST /v1/jobs', await submit(acme.key, { ...body, options: { angle: 180 } }, key))),
    ).toBe('idempotency_conflict');
    expect(
      await c.check('GET /v1/jobs/{job_id}', await send('GET', `/v1/jobs/${queued.id}`, acme.readKey)),
    ).toMatchObject({ status: 'queued', charged_credits: null });

    expect(codeOf(await c.check('POST /v1/jobs', await submit(acme.key, body, null)))).toBe('idempotency_key_required');
    expect(codeOf(await c.check('POST /v1/jobs', await submit(acme.key, body, 'short')))).toBe(
      'idempotency_key_invalid',
    );
    expect(await c.check('POST /v1/jobs', await submit(acme.key, { ...body, options: { angle: 45 } }))).toMatchObject({
      code: 'validation_failed',
      issues: [{ path: 'options.angle' }],
    });
    expect(codeOf(await c.check('POST /v1/jobs', await submit(acme.key, '{"operation":')))).toBe('malformed_json');
    expect(
      codeOf(
        await c.check(
          'POST /v1/jobs',
          await send('POST', '/v1/jobs', acme.key, {
            body: 'x',
            headers: { 'content-type': 'text/plain', 'Idempotency-Key': idem() },
          }),
        ),
      ),
    ).toBe('unsupported_media_type');
    expect(
      codeOf(await c.check('POST /v1/jobs', await submit(acme.key, { ...body, padding: 'x'.repeat(1_100_000) }))),
    ).toBe('payload_too_large');
    expect(codeOf(await c.check('POST /v1/jobs', await submit(acme.readKey, body)))).toBe('insufficient_scope');
    expect(
      codeOf(
        await c.check('POST /v1/jobs', await submit(acme.key, { ...body, upload_ids: ['upl_ZZZZZZZZZZZZZZZZZZZZ'] })),
      ),
    ).toBe('not_found');
    expect(await c.check('POST /v1/jobs', await submit(acme.key, { ...body, max_credits: 1 }))).toMatchObject({
      code: 'max_credits_exceeded',
      estimated_credits: 2,
      max_credits: 1,
    });
    expect(codeOf(await c.check('POST /v1/jobs', await submit(acme.key, { ...body, upload_ids: [up['old']] })))).toBe(
      'gone',
    );

    const poor = await h.company('PoorCo');
    const poorPdf = await uploadOk(poor.key, 'p.pdf', await samplePdf(1));
    await reserveJobCredits(h.tdb.db, poor.id, [], [{ id: newId('res'), jobId: null, amount: 999n }]);
    expect(codeOf(await c.check('POST /v1/jobs', await submit(poor.key, { ...body, upload_ids: [poorPdf] })))).toBe(
      'insufficient_credits',
    );

    expect(
      codeOf(
        await c.check('DELETE /v1/uploads/{upload_id}', await send('DELETE', `/v1/uploads/${up['pdf3']}`, acme.key)),
      ),
    ).toBe('conflict');
    expect(
      codeOf(await c.check('DELETE /v1/jobs/{job_id}', await send('DELETE', `/v1/jobs/${queued.id}`, acme.key))),
    ).toBe('conflict');

    // Cancelling: a second queued job is cancelled (200), then 409; 404 and a read key's 403.
    const second = (await c.check(
      'POST /v1/jobs',
      await submit(acme.key, { ...body, options: { angle: 270 } }),
    )) as JobJson;
    expect(
      codeOf(
        await c.check(
          'POST /v1/jobs/{job_id}/cancel',
          await send('POST', `/v1/jobs/${second.id}/cancel`, acme.readKey),
        ),
      ),
    ).toBe('insufficient_scope');
    expect(
      await c.check('POST /v1/jobs/{job_id}/cancel', await send('POST', `/v1/jobs/${second.id}/cancel`, acme.key)),
    ).toMatchObject({ status: 'cancelled', charged_credits: 0 });
    expect(
      codeOf(
        await c.check('POST /v1/jobs/{job_id}/cancel', await send('POST', `/v1/jobs/${second.id}/cancel`, acme.key)),
      ),
    ).toBe('job_not_cancellable');
    expect(
      codeOf(
        await c.check(
          'POST /v1/jobs/{job_id}/cancel',
          await send('POST', '/v1/jobs/job_ZZZZZZZZZZZZZZZZZZZZ/cancel', acme.key),
        ),
      ),
    ).toBe('not_found');
    expect(
      await c.check(
        'POST /v1/jobs/{job_id}/cancel',
        await send('POST', `/v1/jobs/${queued.id}/cancel`, acme.key, { json: { reason: 'x' } }),
      ),
    ).toMatchObject({ code: 'validation_failed', issues: [{ path: 'reason' }] });
    expect(
      codeOf(
        await c.check(
          'POST /v1/jobs/{job_id}/cancel',
          await send('POST', `/v1/jobs/${queued.id}/cancel`, acme.key, { json: '{"a":' }),
        ),
      ),
    ).toBe('malformed_json');
    expect(
      codeOf(
        await c.check(
          'POST /v1/jobs/{job_id}/cancel',
          await send('POST', `/v1/jobs/${queued.id}/cancel`, acme.key, {
            body: 'x',
            headers: { 'content-type': 'text/plain' },
          }),
        ),
      ),
    ).toBe('unsupported_media_type');
    expect(
      codeOf(
        await c.check(
          'POST /v1/jobs/{job_id}/cancel',
          await send('POST', `/v1/jobs/${queued.id}/cancel`, acme.key, { json: { padding: 'x'.repeat(1_100_000) } }),
        ),
      ),
    ).toBe('payload_too_large');

    // The list (both jobs, newest first), its paging and a refused filter.
    const list = (await c.check('GET /v1/jobs', await send('GET', '/v1/jobs?limit=1', acme.readKey))) as {
      data: JobJson[];
      next_cursor: string;
    };
    expect(list.data.map((j) => j.id)).toEqual([second.id]);
    const rest = (await c.check(
      'GET /v1/jobs',
      await send('GET', `/v1/jobs?limit=1&before=${list.next_cursor}`, acme.readKey),
    )) as { data: JobJson[] };
    expect(rest.data.map((j) => j.id)).toEqual([queued.id]);
    expect(
      await c.check(
        'GET /v1/jobs',
        await send(
          'GET',
          '/v1/jobs?status=cancelled,completed&operation=pdf-rotate&created_after=2020-01-01T00:00:00Z',
          acme.key,
        ),
      ),
    ).toMatchObject({ data: [{ id: second.id }], next_cursor: null });
    expect(await c.check('GET /v1/jobs', await send('GET', '/v1/jobs?status=done', acme.key))).toMatchObject({
      code: 'validation_failed',
      issues: [{ path: 'status' }],
    });

    // The upload list (test/integration/v1-uploads-list.test.ts has its rules) and a refused cursor.
    expect(await c.check('GET /v1/uploads', await send('GET', '/v1/uploads?limit=100', acme.readKey))).toMatchObject({
      data: expect.arrayContaining([expect.objectContaining({ id: up['pdf'], kind: 'pdf' })]),
    });
    expect(codeOf(await c.check('GET /v1/uploads', await send('GET', '/v1/uploads?before=0', acme.key)))).toBe(
      'validation_failed',
    );

    // An upload's record, unknown and expired uploads.
    expect(
      await c.check('GET /v1/uploads/{upload_id}', await send('GET', `/v1/uploads/${up['pdf']}`, acme.readKey)),
    ).toMatchObject({ id: up['pdf'], kind: 'pdf', pages: 12 });
    expect(
      codeOf(
        await c.check(
          'GET /v1/uploads/{upload_id}',
          await send('GET', '/v1/uploads/upl_ZZZZZZZZZZZZZZZZZZZZ', acme.key),
        ),
      ),
    ).toBe('not_found');
    expect(
      codeOf(await c.check('GET /v1/uploads/{upload_id}', await send('GET', `/v1/uploads/${up['old']}`, acme.key))),
    ).toBe('gone');

    // The wallet: the trial grant, two reservations and the cancelled one's release.
    const credits = (await c.check('GET /v1/credits', await send('GET', '/v1/credits', acme.readKey))) as {
      ledger: { data: Array<{ kind: string }> };
    };
    expect(credits).toMatchObject({ reserved: 2 });
    expect(credits.ledger.data.map((e) => e.kind)).toEqual(['grant', 'reserve', 'reserve', 'release']);
    expect(codeOf(await c.check('GET /v1/credits', await send('GET', '/v1/credits?after=x', acme.key)))).toBe(
      'validation_failed',
    );

    expect(await c.check('GET /v1/capabilities', await send('GET', '/v1/capabilities', acme.readKey))).toMatchObject({
      operations: expect.any(Array),
    });
    expect(
      codeOf(
        await c.check(
          'GET /v1/jobs/{job_id}/results/{index}',
          await send('GET', `/v1/jobs/${queued.id}/results/0`, acme.key),
        ),
      ),
    ).toBe('conflict');
  });

  it('completed and failed jobs: GET 200, downloads with their content types, 404, 410 and 204 deletions', async () => {
    await h.startWorker();
    const done = await poll(queued.id);
    expect(done).toMatchObject({ status: 'completed', charged_credits: 2 });
    const types = new Map<string, string>();
    const rotated = done.result!.files[0]!;
    for (const job of [
      done,
      await poll((await submitOk({ operation: 'webp', upload_ids: [up['png']] })).id),
      await poll(
        (
          await submitOk({
            operation: 'image-edit',
            upload_ids: [up['png']],
            options: { width: 40, height: 40, format: 'jpg' },
          })
        ).id,
      ),
    ]) {
      expect(job.status).toBe('completed');
      const file = job.result!.files[0]!;
      const res = await send('GET', file.download_path, acme.readKey);
      expect(res.status).toBe(200);
      types.set(file.content_type, String(res.headers.get('content-type')));
      expect(((await c.check('GET /v1/jobs/{job_id}/results/{index}', res)) as Buffer).length).toBe(file.bytes);
    }
    expect(Object.fromEntries(types)).toEqual({
      'application/pdf': 'application/pdf',
      'image/webp': 'image/webp',
      'image/jpeg': 'image/jpeg',
    });
    expect(
      codeOf(
        await c.check(
          'GET /v1/jobs/{job_id}/results/{index}',
          await send('GET', `/v1/jobs/${done.id}/results/1`, acme.key),
        ),
      ),
    ).toBe('not_found');

    // A source that fails although it was measured (a crop outside the image is refused before quoting): the stored
    // PNG keeps the header the quote reads and loses its pixel data.
    const damaged = await uploadOk(acme.key, 'damaged.png', await samplePng(400, 300));
    writeFileSync(h.store.pathOf(damaged), readFileSync(h.store.pathOf(damaged)).subarray(0, 60));
    const failedBody = { operation: 'image-edit', upload_ids: [damaged], options: { crop: [350, 0, 50, 50] } };
    const failedKey = idem();
    const failed = await poll(
      ((await c.check('POST /v1/jobs', await submit(acme.key, failedBody, failedKey))) as JobJson).id,
    );
    expect(failed).toMatchObject({ status: 'failed', charged_credits: 0, error_code: 'invalid_source', result: null });

    await h.tdb
      .db('jobs')
      .where({ id: done.id })
      .update({ results_expire_at: new Date(Date.now() - 1000) });
    expect(
      codeOf(
        await c.check('GET /v1/jobs/{job_id}/results/{index}', await send('GET', rotated.download_path, acme.key)),
      ),
    ).toBe('gone');

    expect(
      await c.check('DELETE /v1/uploads/{upload_id}', await send('DELETE', `/v1/uploads/${up['pdf3']}`, acme.key)),
    ).toHaveLength(0);
    expect(
      codeOf(
        await c.check('DELETE /v1/uploads/{upload_id}', await send('DELETE', `/v1/uploads/${up['pdf3']}`, acme.key)),
      ),
    ).toBe('not_found');
    expect(
      codeOf(
        await c.check('DELETE /v1/uploads/{upload_id}', await send('DELETE', `/v1/uploads/${up['pdf']}`, acme.readKey)),
      ),
    ).toBe('insufficient_scope');
    expect(
      codeOf(await c.check('DELETE /v1/jobs/{job_id}', await send('DELETE', `/v1/jobs/${failed.id}`, acme.readKey))),
    ).toBe('insufficient_scope');
    await c.check('DELETE /v1/jobs/{job_id}', await send('DELETE', `/v1/jobs/${failed.id}`, acme.key));
    expect(
      codeOf(await c.check('DELETE /v1/jobs/{job_id}', await send('DELETE', `/v1/jobs/${failed.id}`, acme.key))),
    ).toBe('not_found');
    expect(codeOf(await c.check('GET /v1/jobs/{job_id}', await send('GET', `/v1/jobs/${failed.id}`, acme.key)))).toBe(
      'not_found',
    );
    expect(await c.check('POST /v1/jobs', await submit(acme.key, failedBody, failedKey))).toMatchObject({
      code: 'idempotency_key_target_deleted',
      job_id: failed.id,
    });
  });

  it('a suspended company gets 403 on reads', async () => {
    const gone = await h.company('SuspendedCo');
    await h.tdb.db('companies').where({ id: gone.id }).update({ status: 'suspended' });
    expect(
      codeOf(await c.check('GET /v1/jobs/{job_id}', await send('GET', `/v1/jobs/${queued.id}`, gone.readKey))),
    ).toBe('forbidden');
    expect(
      codeOf(
        await c.check(
          'GET /v1/jobs/{job_id}/results/{index}',
          await send('GET', `/v1/jobs/${queued.id}/results/0`, gone.readKey),
        ),
      ),
    ).toBe('forbidden');
    for (const [key, path] of [
      ['GET /v1/jobs', '/v1/jobs'],
      ['GET /v1/uploads/{upload_id}', `/v1/uploads/${up['pdf']}`],
      ['GET /v1/uploads', '/v1/uploads'],
      ['GET /v1/credits', '/v1/credits'],
      ['GET /v1/capabilities', '/v1/capabilities'],
    ] as const) {
      expect(codeOf(await c.check(key, await send('GET', path, gone.readKey))), key).toBe('forbidden');
    }
  });

  it('503 when job processing is not available', async () => {
    const bare = await startTestApp({
      db: h.tdb.db,
      logger: h.logs.logger,
      config: testConfig({ STORAGE_DIR: h.storageDir }),
    });
    try {
      const res = await fetch(`${bare.url}/v1/jobs`, {
        method: 'POST',
        headers: { ...h.auth(acme.key), 'content-type': 'application/json', 'Idempotency-Key': idem() },
        body: JSON.stringify({ operation: 'webp', upload_ids: [up['png']] }),
      });
      expect(codeOf(await c.check('POST /v1/jobs', res))).toBe('service_unavailable');
    } finally {
      await bare.close();
    }
  });

  it('503 and 504 when the PDF engine is missing or too slow while quoting pdf-unlock', async () => {
    const locked = await uploadOk(acme.key, 'locked.pdf', await sampleEncryptedPdf(2, 'pw-engine'));
    const body = { operation: 'pdf-unlock', upload_ids: [locked], options: { password: 'pw-engine' } };
    const dir = mkdtempSync(join(tmpdir(), 'slow-qpdf-'));
    const slow = join(dir, 'qpdf');
    writeFileSync(slow, '#!/bin/sh\nsleep 5\n', { mode: 0o755 });
    for (const [env, code] of [
      [{ QPDF_PATH: join(dir, 'missing-qpdf') }, 'service_unavailable'],
      [{ QPDF_PATH: slow, QPDF_TIMEOUT_MS: '200' }, 'timeout'],
    ] as const) {
      const app = await startTestApp({
        db: h.tdb.db,
        logger: h.logs.logger,
        config: testConfig({ STORAGE_DIR: h.storageDir, ...env }),
        workflows: h.gateway,
        secretBox: h.secretBox,
      });
      try {
        const estimate = await fetch(`${app.url}/v1/estimate`, {
          method: 'POST',
          headers: { ...h.auth(acme.key), 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(codeOf(await c.check('POST /v1/estimate', estimate))).toBe(code);
        const job = await fetch(`${app.url}/v1/jobs`, {
          method: 'POST',
          headers: { ...h.auth(acme.key), 'content-type': 'application/json', 'Idempotency-Key': idem() },
          body: JSON.stringify(body),
        });
        expect(codeOf(await c.check('POST /v1/jobs', job))).toBe(code);
      } finally {
        await app.close();
      }
    }
    expect(await h.tdb.db('jobs').whereRaw('upload_ids @> ARRAY[?]::text[]', [locked])).toHaveLength(0);
  });

  it('429 with Retry-After past the per-key request limit', async () => {
    const busy = await h.company('BusyCo');
    // An instance of the app whose clock stands still, so no minute window can end while the calls are counted.
    const frozen = new Date();
    const app = await startTestApp({
      db: h.tdb.db,
      logger: h.logs.logger,
      config: testConfig({ STORAGE_DIR: h.storageDir }),
      now: () => frozen,
    });
    try {
      let res: Response | undefined;
      for (let i = 0; i <= settings.rateLimits.perKeyPerMinute && res?.status !== 429; i++) {
        if (res) await res.arrayBuffer();
        res = await fetch(`${app.url}/v1/jobs/${queued.id}`, { headers: h.auth(busy.readKey) });
      }
      expect(res!.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(codeOf(await c.check('GET /v1/jobs/{job_id}', res!))).toBe('rate_limited');
    } finally {
      await app.close();
    }
  });

  it('every operation that reads the database answers its documented 503, with Retry-After, while PostgreSQL is unreachable', async () => {
    const down = await unreachableDb();
    const app = await startTestApp({ db: down.db, logger: h.logs.logger, config: testConfig({}) });
    try {
      await expectDocumented503s(c, app.url, acme.key);
    } finally {
      await app.close();
      await down.close();
    }
  });

  it('batches: estimate, submission, progress, retry-failed and the ZIP, with every documented 4xx', async () => {
    const B = '/v1/batches';
    const post = (path: string, key: string, json: unknown, idempotencyKey: string | null = idem()) =>
      send('POST', path, key, { json, headers: idempotencyKey === null ? {} : { 'Idempotency-Key': idempotencyKey } });
    const pdf = await uploadOk(acme.key, 'batch.pdf', await samplePdf(1));
    const body = { operation: 'pdf-rotate', upload_ids: [pdf, pdf], options: { angle: 90 } };
    const schema = c.validator(c.deref(obj(obj(obj(c.doc['components'])['schemas'])['BatchRequest'])));
    expect(schema(body)).toBe(true);
    expect(schema({ ...body, items: [{ upload_ids: [pdf] }] })).toBe(false);

    // Estimate.
    const E = 'POST /v1/batches/estimate';
    expect(await c.check(E, await post(`${B}/estimate`, acme.key, body, null))).toMatchObject({ estimated_credits: 4 });
    expect(codeOf(await c.check(E, await post(`${B}/estimate`, acme.readKey, body, null)))).toBe('insufficient_scope');
    expect(
      await c.check(
        E,
        await post(
          `${B}/estimate`,
          acme.key,
          {
            ...body,
            items: [{ upload_ids: [pdf] }, { upload_ids: ['upl_ZZZZZZZZZZZZZZZZZZZZ'] }],
            upload_ids: undefined,
          },
          null,
        ),
      ),
    ).toMatchObject({ code: 'not_found', issues: [{ path: 'items.1.upload_ids.0' }] });
    expect(await c.check(E, await post(`${B}/estimate`, acme.key, { ...body, max_credits: 3 }, null))).toMatchObject({
      code: 'max_credits_exceeded',
      estimated_credits: 4,
    });
    expect(
      codeOf(await c.check(E, await post(`${B}/estimate`, acme.key, { ...body, upload_ids: [pdf, up['old']] }, null))),
    ).toBe('gone');
    expect(
      codeOf(
        await c.check(E, await post(`${B}/estimate`, acme.key, { ...body, padding: 'x'.repeat(1_100_000) }, null)),
      ),
    ).toBe('payload_too_large');
    expect(
      codeOf(
        await c.check(
          E,
          await send('POST', `${B}/estimate`, acme.key, { body: 'x', headers: { 'content-type': 'text/plain' } }),
        ),
      ),
    ).toBe('unsupported_media_type');
    expect(
      await c.check(E, await post(`${B}/estimate`, acme.key, { ...body, upload_ids: [pdf, up['png']] }, null)),
    ).toMatchObject({ code: 'validation_failed', issues: [{ path: 'upload_ids.1' }] });

    // Submission, with the workers stopped so the batch stays queued while its 409s are checked.
    const S = 'POST /v1/batches';
    await h.stopWorkers();
    const key = idem();
    const queuedBatch = obj(await c.check(S, await post(B, acme.key, body, key)));
    expect(queuedBatch).toMatchObject({ status: 'queued', item_count: 2, credits: { estimated: 4, reserved: 4 } });
    expect(await c.check(S, await post(B, acme.key, body, key))).toEqual(queuedBatch);
    expect(codeOf(await c.check(S, await post(B, acme.key, { ...body, options: { angle: 180 } }, key)))).toBe(
      'idempotency_conflict',
    );
    expect(codeOf(await c.check(S, await post(B, acme.key, body, null)))).toBe('idempotency_key_required');
    expect(codeOf(await c.check(S, await post(B, acme.readKey, body)))).toBe('insufficient_scope');
    expect(
      codeOf(await c.check(S, await post(B, acme.key, { ...body, upload_ids: ['upl_ZZZZZZZZZZZZZZZZZZZZ'] }))),
    ).toBe('not_found');
    expect(codeOf(await c.check(S, await post(B, acme.key, { ...body, upload_ids: [up['old']] })))).toBe('gone');
    expect(codeOf(await c.check(S, await post(B, acme.key, { ...body, padding: 'x'.repeat(1_100_000) })))).toBe(
      'payload_too_large',
    );
    expect(
      codeOf(
        await c.check(
          S,
          await send('POST', B, acme.key, {
            body: 'x',
            headers: { 'content-type': 'text/plain', 'Idempotency-Key': idem() },
          }),
        ),
      ),
    ).toBe('unsupported_media_type');
    expect(codeOf(await c.check(S, await post(B, acme.key, { ...body, options: { angle: 45 } })))).toBe(
      'validation_failed',
    );
    const poorB = await h.company('PoorBatchCo');
    const poorPdf = await uploadOk(poorB.key, 'p.pdf', await samplePdf(1));
    await reserveJobCredits(h.tdb.db, poorB.id, [], [{ id: newId('res'), jobId: null, amount: 999n }]);
    expect(codeOf(await c.check(S, await post(B, poorB.key, { ...body, upload_ids: [poorPdf] })))).toBe(
      'insufficient_credits',
    );

    const id = String(queuedBatch['id']);
    const G = 'GET /v1/batches/{batch_id}';
    const R = 'POST /v1/batches/{batch_id}/retry-failed';
    const Z = 'GET /v1/batches/{batch_id}/results.zip';
    expect(await c.check(G, await send('GET', `${B}/${id}?limit=1`, acme.readKey))).toMatchObject({
      next_after: 1,
      jobs: [{ item_index: 0 }],
    });
    expect(codeOf(await c.check(G, await send('GET', `${B}/bat_ZZZZZZZZZZZZZZZZZZZZ`, acme.key)))).toBe('not_found');
    expect(codeOf(await c.check(G, await send('GET', `${B}/${id}?limit=0`, acme.key)))).toBe('validation_failed');
    expect(codeOf(await c.check(R, await post(`${B}/${id}/retry-failed`, acme.key, {})))).toBe('batch_not_terminal');
    expect(codeOf(await c.check(Z, await send('GET', `${B}/${id}/results.zip`, acme.key)))).toBe('batch_not_terminal');
    expect(codeOf(await c.check(R, await post(`${B}/bat_ZZZZZZZZZZZZZZZZZZZZ/retry-failed`, acme.key, {})))).toBe(
      'not_found',
    );
    expect(codeOf(await c.check(Z, await send('GET', `${B}/bat_ZZZZZZZZZZZZZZZZZZZZ/results.zip`, acme.key)))).toBe(
      'not_found',
    );
    expect(codeOf(await c.check(R, await post(`${B}/${id}/retry-failed`, acme.readKey, {})))).toBe(
      'insufficient_scope',
    );
    expect(codeOf(await c.check(R, await post(`${B}/${id}/retry-failed`, acme.key, {}, null)))).toBe(
      'idempotency_key_required',
    );
    // Cancel: a second queued batch (no worker runs), its queued items cancelled once.
    const C = 'POST /v1/batches/{batch_id}/cancel';
    const toCancel = String(obj(await c.check(S, await post(B, acme.key, body)))['id']);
    expect(codeOf(await c.check(C, await post(`${B}/${toCancel}/cancel`, acme.readKey, {}, null)))).toBe(
      'insufficient_scope',
    );
    expect(codeOf(await c.check(C, await post(`${B}/bat_ZZZZZZZZZZZZZZZZZZZZ/cancel`, acme.key, {}, null)))).toBe(
      'not_found',
    );
    expect(await c.check(C, await post(`${B}/${toCancel}/cancel`, acme.key, { now: true }, null))).toMatchObject({
      code: 'validation_failed',
      issues: [{ path: 'now' }],
    });
    expect(await c.check(C, await post(`${B}/${toCancel}/cancel`, acme.key, {}, null))).toMatchObject({
      batch: { id: toCancel, progress: { cancelled: 2 } },
    });
    expect(codeOf(await c.check(C, await post(`${B}/${toCancel}/cancel`, acme.key, {}, null)))).toBe(
      'batch_not_cancellable',
    );

    // Terminal batches: one completed, one partial (a damaged source).
    await h.startWorker();
    const waitBatch = async (batchId: string) => {
      const until = Date.now() + 120_000;
      for (;;) {
        const row = await h.tdb.db('batches').where({ id: batchId }).first('status');
        if (['completed', 'partial', 'failed'].includes(row.status))
          return obj(await c.check(G, await send('GET', `${B}/${batchId}`, pollKey)));
        if (Date.now() > until) throw new Error(`batch ${batchId} still ${row.status}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    expect(await waitBatch(id)).toMatchObject({ status: 'completed', credits: { charged: 4 } });
    const zip = await send('GET', `${B}/${id}/results.zip`, acme.readKey);
    expect(zip.status).toBe(200);
    expect(((await c.check(Z, zip)) as Buffer).subarray(0, 2).toString()).toBe('PK');
    expect(codeOf(await c.check(R, await post(`${B}/${id}/retry-failed`, acme.key, {})))).toBe(
      'batch_has_no_failed_items',
    );

    const broken = await uploadOk(acme.key, 'broken.pdf', await samplePdf(1));
    writeFileSync(h.store.pathOf(broken), readFileSync(h.store.pathOf(broken)).subarray(0, 40));
    const partial = obj(await c.check(S, await post(B, acme.key, { ...body, upload_ids: [pdf, broken] })));
    expect(await waitBatch(String(partial['id']))).toMatchObject({ status: 'partial' });
    const pid = String(partial['id']);
    expect(await c.check(R, await post(`${B}/${pid}/retry-failed`, acme.key, { again: true }))).toMatchObject({
      code: 'validation_failed',
      issues: [{ path: 'again' }],
    });
    const poorNow = await h.wallet(acme.id);
    await h.tdb.db('wallets').where({ company_id: acme.id }).update({ available: '0' });
    expect(codeOf(await c.check(R, await post(`${B}/${pid}/retry-failed`, acme.key, {})))).toBe('insufficient_credits');
    await h.tdb
      .db('wallets')
      .where({ company_id: acme.id })
      .update({ available: String(poorNow.available) });
    await h.tdb
      .db('uploads')
      .where({ id: broken })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect(codeOf(await c.check(R, await post(`${B}/${pid}/retry-failed`, acme.key, {})))).toBe('gone');
    await h.tdb
      .db('uploads')
      .where({ id: broken })
      .update({ expires_at: new Date(Date.now() + 86_400_000) });
    expect(await c.check(R, await post(`${B}/${pid}/retry-failed`, acme.key, {}))).toMatchObject({
      status: 'queued',
      retry_of: pid,
      item_count: 1,
    });

    await h.tdb
      .db('jobs')
      .where({ batch_id: pid, status: 'completed' })
      .update({
        result_files: JSON.stringify([
          { name: 'x.pdf', storage_id: 'res_x', bytes: 2 * 1024 ** 3, content_type: 'application/pdf' },
        ]),
      });
    expect(codeOf(await c.check(Z, await send('GET', `${B}/${pid}/results.zip`, acme.key)))).toBe(
      'batch_zip_too_large',
    );
    await h.tdb
      .db('jobs')
      .where({ batch_id: id })
      .update({ results_expire_at: new Date(Date.now() - 1000) });
    expect(codeOf(await c.check(Z, await send('GET', `${B}/${id}/results.zip`, acme.key)))).toBe('gone');

    // 503 of a missing Temporal, and the PDF engine's 503 and 504 while quoting pdf-unlock.
    const bare = await startTestApp({
      db: h.tdb.db,
      logger: h.logs.logger,
      config: testConfig({ STORAGE_DIR: h.storageDir }),
    });
    try {
      expect(
        codeOf(
          await c.check(
            S,
            await fetch(`${bare.url}${B}`, {
              method: 'POST',
              headers: { ...h.auth(acme.key), 'content-type': 'application/json', 'Idempotency-Key': idem() },
              body: JSON.stringify(body),
            }),
          ),
        ),
      ).toBe('service_unavailable');
      expect(
        codeOf(
          await c.check(
            R,
            await fetch(`${bare.url}${B}/${pid}/retry-failed`, {
              method: 'POST',
              headers: { ...h.auth(acme.key), 'Idempotency-Key': idem() },
            }),
          ),
        ),
      ).toBe('service_unavailable');
    } finally {
      await bare.close();
    }
    const locked = await uploadOk(acme.key, 'locked-b.pdf', await sampleEncryptedPdf(2, 'pw-batch'));
    const unlock = { operation: 'pdf-unlock', upload_ids: [locked], options: { password: 'pw-batch' } };
    const dir = mkdtempSync(join(tmpdir(), 'slow-qpdf-b-'));
    writeFileSync(join(dir, 'qpdf'), '#!/bin/sh\nsleep 5\n', { mode: 0o755 });
    for (const [env, code] of [
      [{ QPDF_PATH: join(dir, 'missing-qpdf') }, 'service_unavailable'],
      [{ QPDF_PATH: join(dir, 'qpdf'), QPDF_TIMEOUT_MS: '200' }, 'timeout'],
    ] as const) {
      const app = await startTestApp({
        db: h.tdb.db,
        logger: h.logs.logger,
        config: testConfig({ STORAGE_DIR: h.storageDir, ...env }),
        workflows: h.gateway,
        secretBox: h.secretBox,
      });
      try {
        const headers = { ...h.auth(acme.key), 'content-type': 'application/json' };
        expect(
          codeOf(
            await c.check(
              E,
              await fetch(`${app.url}${B}/estimate`, { method: 'POST', headers, body: JSON.stringify(unlock) }),
            ),
          ),
        ).toBe(code);
        expect(
          codeOf(
            await c.check(
              S,
              await fetch(`${app.url}${B}`, {
                method: 'POST',
                headers: { ...headers, 'Idempotency-Key': idem() },
                body: JSON.stringify(unlock),
              }),
            ),
          ),
        ).toBe(code);
      } finally {
        await app.close();
      }
    }

    // A suspended company: 403 on reads.
    const gone = await h.company('SuspendedBatchCo');
    await h.tdb.db('companies').where({ id: gone.id }).update({ status: 'suspended' });
    expect(codeOf(await c.check(G, await send('GET', `${B}/${id}`, gone.readKey)))).toBe('forbidden');
    expect(codeOf(await c.check(Z, await send('GET', `${B}/${id}/results.zip`, gone.readKey)))).toBe('forbidden');
  });

  it('POST /v1/webhooks, the company-session route of /v1: 201, 401, 403, 409, 413, 415, 422', async () => {
    const W = 'POST /v1/webhooks';
    const scheme = obj(obj(obj(c.doc['components'])['securitySchemes'])['session']);
    expect(scheme['name']).toBe(COMPANY_SESSION_COOKIE);
    const admin = await createCompanyAdmin(h.tdb.db, 'V1 Webhook Co');
    const session = new DashboardClient(h.app.url, '/api/company');
    expect((await session.signIn(admin.email, admin.password, { idem: null })).status).toBe(201);
    const register = (body: unknown, opts: Parameters<DashboardClient['requestAt']>[3] = {}) =>
      session.requestAt('POST', '/v1/webhooks', body, { idem: null, ...opts });

    const created = (await c.check(W, await register({ url: ' https://hooks.example.com/paycore ' }))) as Obj;
    expect(created).toMatchObject({ url: 'https://hooks.example.com/paycore', status: 'enabled' });
    expect(String(created['secret'])).toMatch(/^whsec_/);
    expect(codeOf(await c.check(W, await register({ url: 'x' }, { cookie: null, csrf: null })))).toBe(
      'session_required',
    );
    expect(codeOf(await c.check(W, await register({ url: 'x' }, { authorization: `Bearer ${acme.key}` })))).toBe(
      'api_key_not_accepted',
    );
    expect(codeOf(await c.check(W, await register({ url: 'x' }, { csrf: null })))).toBe('csrf_failed');
    expect(codeOf(await c.check(W, await register({ url: 'ftp://hooks.example.com/x' })))).toBe('validation_failed');
    expect(codeOf(await c.check(W, await register({ url: '   ' })))).toBe('validation_failed');
    expect(codeOf(await c.check(W, await register({ url: 'https://hooks.example.com/x', other: 1 })))).toBe(
      'validation_failed',
    );
    const plain = await fetch(url('/v1/webhooks'), {
      method: 'POST',
      headers: {
        Origin: session.origin,
        Cookie: session.cookie!,
        'X-CSRF-Token': session.csrf!,
        'content-type': 'text/plain',
      },
      body: 'https://hooks.example.com/x',
    });
    expect(codeOf(await c.check(W, plain))).toBe('unsupported_media_type');
    expect(codeOf(await c.check(W, await register({ url: 'x'.repeat(1_100_000) })))).toBe('payload_too_large');
    for (let i = 1; i < LIMITS.webhooksPerCompany; i++)
      expect((await register({ url: `https://hooks.example.com/${i}` })).status).toBe(201);
    expect(codeOf(await c.check(W, await register({ url: 'https://hooks.example.com/one-too-many' })))).toBe(
      'limit_reached',
    );
  });

  it('every documented response was exercised, except 500 and the 429s of other operations', () => {
    const documented = Object.entries(obj(c.doc['paths'])).flatMap(([path, item]) =>
      Object.entries(obj(item)).flatMap(([method, op]) =>
        Object.keys(obj(obj(op)['responses'])).map((s) => `${method.toUpperCase()} ${path} ${s}`),
      ),
    );
    const missing = documented.filter((d) => !c.covered.has(d));
    expect(missing.filter((d) => !/ (429|500)$/.test(d))).toEqual([]);
    expect([...c.covered]).toContain('GET /v1/jobs/{job_id} 429');
    expect([...c.covered].filter((d) => !documented.includes(d))).toEqual([]);
  });
});
