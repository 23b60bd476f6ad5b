import { OPERATION_RULES } from '../../domain/operations.js';
import type Router from '@koa/router';
import { LIMITS as ACCOUNT_LIMITS } from '../../domain/accounts.js';
import { IDEMPOTENCY_RULES } from '../../domain/idempotency.js';
import { JOB_LIMITS } from '../../domain/jobs.js';
import { MEDIA_TOOL_MAX_SECONDS, PRICES } from '../../domain/pricing.js';
import { AVAILABLE_OPERATIONS } from '../../domain/validation/processing-request.js';
import { LIMITS as SOURCE_LIMITS } from '../../adapters/media/measure.js';
import type { AppState } from '../http/context.js';
import { escapeHtml as esc } from '../http/html.js';
import {
  htmlPage,
  mountDocumentRoutes,
  md,
  obj,
  pre,
  renderEndpoints,
  type EndpointDocsOptions,
  type Obj,
} from '../http/openapi-kit.js';
import {
  DOCS_PATH,
  EXAMPLES,
  KEY_CREATION,
  OPENAPI_PATH,
  PROCESSING_API_VERSION,
  processingOpenApi,
  type ProcessingDocsSettings,
} from './openapi.document.js';
import { SIGNATURE_TOLERANCE_SECONDS } from '../../domain/webhooks.js';
import { JOB_EVENT_EXAMPLES, TEST_PING_EXAMPLE, V1_RETRY_TEXT, WEBHOOK_EXAMPLES } from './openapi.webhooks.js';
import { OPERATION_DOCS } from '../shared/processing/openapi.schemas.js';

/**
 * GET /v1/openapi.json and GET /v1/docs: public (no API key, no rate-limit row). They must be mounted on the
 * `/v1` router BEFORE its `router.use(refuseKeyInQuery(), requireApiKey(...), ...)`: @koa/router runs the
 * matched layers in definition order, and these handlers answer without calling `next`, so the guards
 * registered later never run for these two paths. Both bodies are built once, at mount.
 */
export function mountDocs(router: Router<AppState>, settings: ProcessingDocsSettings): void {
  const document = processingOpenApi();
  mountDocumentRoutes(router, {
    documentPath: OPENAPI_PATH.slice('/v1'.length),
    pagePath: DOCS_PATH.slice('/v1'.length),
    document,
    page: docsPage(document, settings),
  });
}

const EXAMPLE_PARAMS: Record<string, string> = {
  job_id: EXAMPLES.job,
  upload_id: EXAMPLES.pdf,
  index: '0',
  batch_id: 'bat_Kd3Wq8Zr1Tx6Nb4Vm9Ls',
};

/** How the shared endpoint renderer shows this interface's multipart upload, job idempotency key and file downloads. */
const ENDPOINT_DOCS: EndpointDocsOptions = {
  exampleParams: EXAMPLE_PARAMS,
  curlExtras: (_method, path, op) => [
    ...(obj(obj(op['requestBody'])['content'])['multipart/form-data']
      ? ['  -F "files=@report.pdf" -F "files=@photo.png"']
      : []),
    ...(path === '/v1/jobs' ? ['  -H "Idempotency-Key: order-4711-rotate"'] : []),
    ...(path === '/v1/batches' ? ['  -H "Idempotency-Key: invoices-2025-03-rotate"'] : []),
    ...(path.endsWith('/retry-failed') ? ['  -H "Idempotency-Key: invoices-2025-03-rotate-retry-1"'] : []),
  ],
  rawResponse: (head, types) =>
    types.includes('application/pdf')
      ? `${head}\nContent-Type: application/pdf\nContent-Disposition: attachment; filename="report-rotated.pdf"\n\n<the file's bytes>`
      : types.includes('application/zip')
        ? `${head}\nContent-Type: application/zip\nContent-Disposition: attachment; filename="bat_Kd3Wq8Zr1Tx6Nb4Vm9Ls-results.zip"\n\n<manifest.json, item-000/…, item-001/…>`
        : `${head}\nContent-Type: ${types[0]!}`,
};

function optionList(schema: unknown): string {
  const s = obj(schema);
  const props = Object.entries(obj(s['properties']));
  if (props.length === 0) return '<span class="muted">none (omit <code>options</code> or send <code>{}</code>)</span>';
  const required = (s['required'] as string[] | undefined) ?? [];
  const describe = (p: Obj): string => {
    if (Array.isArray(p['enum'])) return p['enum'].map((v) => `<code>${esc(String(v))}</code>`).join(', ');
    if (Array.isArray(p['prefixItems'])) return `array of ${p['prefixItems'].length} integers: ${md(p['description'])}`;
    if (p['type'] === 'integer')
      return `integer ${String(p['minimum'])} to ${String(p['maximum'])}${p['description'] ? `; ${md(p['description'])}` : ''}`;
    const length =
      p['minLength'] !== undefined ? `, ${String(p['minLength'])} to ${String(p['maxLength'])} characters` : '';
    return `${esc(String(p['type']))}${length}${p['description'] ? `; ${md(p['description'])}` : ''}`;
  };
  return (
    props
      .map(([name, p]) => `<code>${name}</code>${required.includes(name) ? ' (required)' : ''}: ${describe(obj(p))}`)
      .join('<br>') + (s['description'] ? `<br><span class="muted">${md(s['description'])}</span>` : '')
  );
}

function docsPage(document: Obj, s: ProcessingDocsSettings): string {
  const nav = [
    ['#auth', 'Authentication'],
    ['#idempotency', 'Idempotency'],
    ['#polling', 'Polling'],
    ['#lifecycle', 'Jobs'],
    ['#batches', 'Batches'],
    ['#endpoints', 'Endpoints'],
    ['#webhooks', 'Webhooks'],
    ['#errors', 'Errors'],
    ['#limits', 'Limits'],
    ['#prices', 'Prices'],
    [OPENAPI_PATH, 'OpenAPI'],
  ] as const;
  return htmlPage(
    'Processing API /v1: documentation',
    nav,
    introSections() + jobSections() + endpointSections(document) + referenceSections(document, s),
  );
}

/** The introduction, authentication, idempotency and polling. */
function introSections(): string {
  return `<h1>Document and media processing API</h1>
<p class="muted">Version ${PROCESSING_API_VERSION}, paths under <code>/v1</code>. Machine-readable: <a href="${OPENAPI_PATH}"><code>${OPENAPI_PATH}</code></a> (OpenAPI 3.1).</p>
<p>Upload your sources, ask for a quote in credits, submit a job, poll it until it has ended, then download its results.
Jobs run asynchronously; the quote is reserved when you submit, charged only on success and released on failure.
Many files at once: a <a href="#batches">batch</a>. Name a webhook with <code>webhook_id</code> to be told when a job or batch ends (see <a href="#webhooks">Webhooks</a>). Clients must ignore response fields they do not know.</p>
${pre(`# 1. upload                          → 201 {"uploads":[{"id":"${EXAMPLES.pdf}", …}]}
# 2. POST /v1/estimate (optional)    → 200 {"estimated_credits":4, …}
# 3. POST /v1/jobs + Idempotency-Key → 202 {"id":"${EXAMPLES.job}","status":"queued", …}, Location: /v1/jobs/${EXAMPLES.job}
# 4. GET /v1/jobs/{job_id} every 3-10 s until "completed", "failed" or "cancelled"
#    (many jobs: GET /v1/jobs?status=queued,processing, one request for all of them)
# 5. GET result.files[i].download_path → the file`)}
<p><code>GET /v1/capabilities</code> lists every operation with its options, source kinds, output formats and price rule, the limits, and the OCR languages (<code>ocr.languages</code>: what an OCR <code>language</code> may name);
<code>GET /v1/credits</code> shows your available and reserved credits and the ledger.</p>

<h2 id="auth">Authentication</h2>
<p>Send <code>Authorization: Bearer sk_live_…</code> on every request except this page and the OpenAPI document. A key belongs to your company
and to the member who created it (removing the member revokes it). A key with the
<code>read</code> scope may only GET; POST and DELETE need a read/write key (else 403 <code>insufficient_scope</code>).</p>
<p>${md(KEY_CREATION)}</p>
<p class="note">Never put a key in a URL or in frontend code: a request carrying a key in its query string is refused (401 <code>api_key_in_url</code>);
revoke such a key. Every resource is scoped to your company: an id of another company is simply 404. A suspended company gets 403.</p>

<h2 id="idempotency">Idempotency</h2>
<p><code>POST /v1/jobs</code> requires an <code>Idempotency-Key</code> header: ${esc(IDEMPOTENCY_RULES.v1.description)}. Generate a new one per job and
keep it with your record of the job, so that a retry after a timeout or a network error sends the same key.</p>
<ul><li>Same key, same body: the same job is returned (202, same body byte for byte, header <code>Idempotent-Replayed: true</code>); nothing is reserved twice.</li>
<li>Same key, different body: 409 <code>idempotency_conflict</code>. A request still running under the same key: 409 <code>idempotency_in_progress</code>; retry shortly.</li>
<li>A rejected request (any 4xx or 5xx) stores nothing: fix it and send it again with the same key. Keys are kept ${IDEMPOTENCY_RULES.v1.retentionDays} days.</li>
<li>A failed job is retried by submitting a new job with a <em>new</em> key.</li>
<li>Once the job a key created has been deleted, that key answers 409 <code>idempotency_key_target_deleted</code> (with the deleted <code>job_id</code>)
instead of a job id that is now 404: to run the job again, send the request with a new key.</li></ul>

<h2 id="polling">Polling</h2>
<p>Poll <code>GET /v1/jobs/{job_id}</code> (the <code>Location</code> of the 202) <strong>every 3 to 10 seconds</strong> until <code>status</code> is <code>completed</code>, <code>failed</code> or <code>cancelled</code>.
With many jobs, poll the list instead: <code>GET /v1/jobs?status=queued,processing</code> (newest first, filters by status, operation, batch and
creation time, pages of up to 100 with <code>next_cursor</code>), then read the jobs that left it.
<strong>Back off on 429 and 5xx</strong>: wait at least <code>Retry-After</code> seconds when present, and double your interval after each
transient 5xx (up to a minute). Responses carry <code>RateLimit-Limit</code>, <code>RateLimit-Remaining</code> and <code>RateLimit-Reset</code>.</p>

`;
}

/** The job lifecycle, the operations and batches. */
function jobSections(): string {
  const operations = AVAILABLE_OPERATIONS.map((op) => {
    const d = { ...OPERATION_DOCS[op], sources: OPERATION_RULES[op].sources };
    const sources = d.sources.min === d.sources.max ? `${d.sources.min}` : `${d.sources.min} to ${d.sources.max}`;
    return `<tr><td><code>${op}</code></td><td>${esc(d.summary)}</td><td>${sources}</td><td>${optionList(d.options)}</td></tr>`;
  }).join('');
  return `<h2 id="lifecycle">Job lifecycle</h2>
<table><tr><th>Status</th><th>Meaning</th><th>Credits</th></tr>
<tr><td><code>queued</code></td><td>Accepted (202), waiting for a processing slot: ${JOB_LIMITS.activePerCompany} active job per company, ${JOB_LIMITS.activePlatform} platform-wide. A temporary provider outage puts a job back here; it is retried, also across restarts.</td><td>quote reserved</td></tr>
<tr><td><code>processing</code></td><td>Running.</td><td>quote reserved</td></tr>
<tr><td><code>completed</code></td><td>Terminal. <code>result.files</code> lists the outputs with their <code>download_path</code>; downloadable for 7 days.</td><td>quote charged (<code>charged_credits</code>)</td></tr>
<tr><td><code>failed</code></td><td>Terminal. <code>error</code> says why and <code>error_code</code> is one of <code>invalid_source</code>, <code>source_missing</code>, <code>provider_unavailable</code>, <code>processing_error</code>, <code>processing_timeout</code>.</td><td>reservation released (<code>charged_credits: 0</code>)</td></tr>
<tr><td><code>cancelled</code></td><td>Terminal. You cancelled it while it was queued (<code>POST /v1/jobs/{job_id}/cancel</code>); the operation never ran. Once a job is processing it can no longer be cancelled (409 <code>job_not_cancellable</code>).</td><td>reservation released (<code>charged_credits: 0</code>)</td></tr>
</table>
<p>Results need the API key too. A completed, failed or cancelled job can be deleted with its files (<code>DELETE /v1/jobs/{job_id}</code>); an upload that no
unfinished job reads can be deleted (<code>DELETE /v1/uploads/{upload_id}</code>).</p>

<h2>Operations</h2>
<p>The <code>operation</code> of a job body and its <code>options</code>; unknown fields or options are refused (422).
<code>flow-extract</code> also takes <code>fields</code> (the names of the values to extract), <code>instructions</code>, or a saved
<code>workflow_id</code> whose settings take precedence.
An encrypted PDF (<code>encrypted: true</code>, 0 pages) is accepted only by <code>pdf-unlock</code>.</p>
<table><tr><th>Operation</th><th>What it does</th><th>Sources</th><th>Options</th></tr>${operations}</table>
<p>Every body may also carry <code>max_credits</code> (integer): the request is refused with 409 <code>max_credits_exceeded</code> if its quote is higher,
and nothing is reserved. The refusal carries the quote, so you can decide and send it again with a higher <code>max_credits</code>:</p>
${pre(JSON.stringify({ detail: 'The quote of 4 credits exceeds max_credits (3); send max_credits of at least 4 to accept it', code: 'max_credits_exceeded', request_id: EXAMPLES.requestId, estimated_credits: 4, max_credits: 3 }, null, 2))}

<h2 id="batches">Batches</h2>
<p><code>POST /v1/batches</code> (with an <code>Idempotency-Key</code>) submits up to 100 child jobs of one operation at once: <code>upload_ids</code>
(one child per upload) or <code>items: [{"upload_ids": [...]}, …]</code> (one child per group, e.g. <code>pdf-merge</code>). It is atomic: every child is
quoted, reserved and queued, or nothing is (402, 404 or 422 naming the item such as <code>items.3.upload_ids.0</code>, 409 when the whole quote
exceeds <code>max_credits</code>, 429 when the children would pass ${JOB_LIMITS.pendingPerCompany} pending jobs). <code>POST /v1/batches/estimate</code> quotes it first.
Each child is an ordinary job (<code>GET /v1/jobs/{job_id}</code>, with its <code>batch_id</code>), charged on success and released on failure.
Poll <code>GET /v1/batches/{batch_id}</code> every 3 to 10 seconds: <code>queued</code> → <code>processing</code> → <code>completed</code>,
<code>partial</code> (some items failed) or <code>failed</code>; it shows the children per state, the credits (reserved, charged, released) and every child.
Once it has ended, <code>GET /v1/batches/{batch_id}/results.zip</code> gives the successful results in one folder per item with a
<code>manifest.json</code> (sizes, SHA-256, errors of failed items), and <code>POST /v1/batches/{batch_id}/retry-failed</code> (new key) runs only the
failed items again as a new batch.</p>

`;
}

/** The endpoints and webhooks. */
function endpointSections(document: Obj): string {
  return `<h2 id="endpoints">Endpoints</h2>
<p class="muted"><code>$BASE_URL</code> is this server's address and <code>$API_KEY</code> your key.</p>
${renderEndpoints(document, ENDPOINT_DOCS)}

<h2 id="webhooks">Webhooks</h2>
<p>A job body may name a webhook of your company with <code>webhook_id</code> (<code>whe_</code> and 20 letters or digits); one that is unknown,
another company's, disabled or deleted answers 404 naming <code>webhook_id</code>. When the job ends, a signed <code>job.completed</code> or
<code>job.failed</code> event is POSTed to it, with the body every <code>/v1</code> event has, <code>{id, type, created_at, job}</code>. The
<code>job</code> is the job record without its <code>options</code> and without result file names (they derive from your file names);
download paths still need your API key. The platform operator registers your URL (and can send it a signed
<code>${TEST_PING_EXAMPLE['type'] as string}</code>):</p>
${pre(`POST <your URL>
Content-Type: application/json
X-Service-Timestamp: ${WEBHOOK_EXAMPLES.secondsAt}
X-Service-Signature: v1=<hex HMAC-SHA256 of "${WEBHOOK_EXAMPLES.secondsAt}." + the raw body, keyed with the signing secret>
X-Service-Event-Id: ${WEBHOOK_EXAMPLES.event}
webhook-id: ${WEBHOOK_EXAMPLES.event}
webhook-timestamp: ${WEBHOOK_EXAMPLES.secondsAt}
webhook-signature: v1,<base64 HMAC-SHA256 of "${WEBHOOK_EXAMPLES.event}.${WEBHOOK_EXAMPLES.secondsAt}." + the raw body, the same key>

${JSON.stringify(JOB_EVENT_EXAMPLES['job.completed'])}`)}
<p>Verify before parsing: reject a timestamp more than ${SIGNATURE_TOLERANCE_SECONDS} seconds from your clock, compute the HMAC over the timestamp, a dot and the raw
body bytes, and compare in constant time. Deduplicate by <code>X-Service-Event-Id</code> and answer 2xx after recording it. ${md(V1_RETRY_TEXT)}
The <code>webhook-*</code> headers are <a href="https://www.standardwebhooks.com">Standard Webhooks</a> under the same secret: verify them with a
<code>standardwebhooks</code> library built as <code>new Webhook(secret, { format: 'raw' })</code> (or from <code>'whsec_' + base64(secret)</code>).
Redirects are never followed.</p>

`;
}

/** Errors, limits (this server's) and prices. */
function referenceSections(document: Obj, s: ProcessingDocsSettings): string {
  const mb = (bytes: number) => `${(bytes / 1_000_000).toLocaleString('en-US')} MB`;
  const errors = (document['x-error-codes'] as Array<{ code: string; status: number; when: string }>)
    .slice()
    .sort((a, b) => a.status - b.status);
  const p = PRICES;
  return `<h2 id="errors">Errors</h2>
<p>Every error has the same JSON body; validation errors add <code>issues</code>, every problem at once:</p>
${pre(JSON.stringify({ detail: 'Invalid request: options.angle: angle must be 90, 180 or 270', code: 'validation_failed', request_id: EXAMPLES.requestId, issues: [{ path: 'options.angle', message: 'angle must be 90, 180 or 270' }] }, null, 2))}
<table><tr><th>Status</th><th><code>code</code></th><th>When</th></tr>${errors.map((e) => `<tr><td>${e.status}</td><td><code>${e.code}</code></td><td>${md(e.when)}</td></tr>`).join('')}</table>

<h2 id="limits">Limits</h2>
<table><tr><th>Limit</th><th>Value</th></tr>
<tr><td>Requests</td><td>${s.rateLimits.perKeyPerMinute} per minute per key (and ${s.rateLimits.perIpPerMinute} per IP address); 429 with <code>Retry-After</code></td></tr>
<tr><td>Upload request</td><td>${s.limits.maxFilesPerUpload} files, ${mb(s.limits.maxUploadBytes)} in total (413)</td></tr>
<tr><td>Company source storage</td><td>${mb(s.limits.companyQuotaBytes)} of live uploads (413; delete unused uploads)</td></tr>
<tr><td>JSON body</td><td>${esc(s.bodyLimitJson)} (413)</td></tr>
<tr><td>Documents</td><td>${SOURCE_LIMITS.pdfPages} pages per PDF; an image counts one page; text one page per started 4,000 bytes</td></tr>
<tr><td>Media duration</td><td>${SOURCE_LIMITS.mediaSeconds / 3600} hours per source; the audio and video tools take at most ${MEDIA_TOOL_MAX_SECONDS / 3600} hours (422 when quoting)</td></tr>
<tr><td>Queue</td><td>${JOB_LIMITS.pendingPerCompany} pending jobs per company (429 <code>queue_full</code>)</td></tr>
<tr><td>Processing</td><td>${JOB_LIMITS.activePerCompany} active job per company, ${JOB_LIMITS.activePlatform} platform-wide</td></tr>
<tr><td>Retention</td><td>Sources and results ${ACCOUNT_LIMITS.retentionDays} days (then 410); accounting records are kept</td></tr>
<tr><td>pdf-merge</td><td>2 to 20 PDFs</td></tr>
<tr><td>Batch</td><td>100 items; the children count toward the queue; results ZIP at most 1 GB (413)</td></tr>
<tr><td>Keys, members</td><td>${ACCOUNT_LIMITS.activeKeysPerCompany} active keys, ${ACCOUNT_LIMITS.membersPerCompany} members per company</td></tr>
<tr><td>Trial</td><td>${ACCOUNT_LIMITS.trialCredits.toLocaleString('en-US')} credits for every new company</td></tr>
</table>

<h2 id="prices">Prices</h2>
<p>Quotes use what the server measured (bytes, pages, duration), summed over a job's sources; every source costs at least one unit.
1 MB is 1,000,000 bytes. The quote is reserved at submission, charged on success and released on failure.</p>
<table><tr><th>Operation class</th><th>Price</th></tr>
<tr><td>File operations (<code>pdf-*</code>, <code>image-edit</code>, <code>image-compress</code>, <code>webp</code>)</td><td>${p.file.credits} credits per started ${p.file.perBytes / 1_000_000} MB or ${p.file.perPages} pages, whichever basis is larger, per source</td></tr>
<tr><td>OCR text</td><td>${p.ocr_text.credits} per page</td></tr>
<tr><td>OCR DOCX or searchable PDF</td><td>${p.ocr_document.credits} per page</td></tr>
<tr><td>Extraction</td><td>${p.extraction.credits} per page</td></tr>
<tr><td>Transcription</td><td>${p.transcribe.credits} per started minute</td></tr>
<tr><td>Meeting</td><td>${p.meeting.credits} per started minute</td></tr>
<tr><td>Media tools</td><td>${p.media.credits} per started minute</td></tr>
</table>
<p class="muted">Only the file operations run in this release; the other prices apply once their operations are available.</p>`;
}
