import { IDEMPOTENCY_RULES } from '../../domain/idempotency.js';
import { PROOF_API_VERSION, PROOF_EVENT_TYPES } from '../../domain/proof/events.js';
import { DELTA_MAX } from '../../domain/proof/matching-delta.js';
import { INVOICE_STATUS_MEANINGS, REQUEST_STATUS_MEANINGS } from '../../domain/proof/statuses.js';
import {
  PAID_PLANS,
  PLAN_LIMITS,
  PLAN_PRICES_USDC,
  RETAINED_RESPONSES_PER_ACCOUNT,
  TRIAL_DAYS,
  type PlanLimits,
} from '../../domain/proof/plans.js';
import { DEFAULT_VALID_HOURS } from '../../domain/validation/proof-request.js';
import { SIGNATURE_TOLERANCE_SECONDS } from '../../domain/webhooks.js';
import { escapeHtml as esc } from '../http/html.js';
import { fieldTable, htmlPage, md, obj, pre, renderEndpoints, type Obj } from '../http/openapi-kit.js';
import { DEVELOPERS_PATH, OPENAPI_PATH, type ProofDocsSettings } from './openapi.document.js';
import { EVENT_DOCS, RETRY_TEXT, WEBHOOK_HEADERS } from '../shared/proof/openapi.events.js';
import { EVENT_EXAMPLES, EXAMPLES, requestCreateExample } from '../shared/proof/openapi.examples.js';

/**
 * A webhook receiver's verification, in TypeScript with node:crypto: exactly the scheme of
 * `adapters/webhooks/sign.ts` (`v1=` + hex HMAC-SHA256 over `${timestamp}.${rawBody}`), compared in constant
 * time, within the timestamp window, before the body is parsed. The conformance test compiles and runs it
 * against real signatures.
 */
export const WEBHOOK_VERIFY_SAMPLE = `import { createHmac, timingSafeEqual } from 'node:crypto';

const TOLERANCE_SECONDS = ${SIGNATURE_TOLERANCE_SECONDS};
const SUPPORTED_API_VERSIONS = new Set(['${PROOF_API_VERSION}']);

export interface ProofEvent {
  id: string;
  api_version: string;
  type: string;
  occurred_at: number;
  data: Record<string, unknown>;
}

/**
 * Verifies a webhook on the raw body bytes, before any JSON parsing, and returns the event.
 * Throws when it must be rejected (answer 400 then; the delivery is not retried).
 */
export function verifyWebhook(
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>, // Node's req.headers: lower-case names
  secret: string,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): ProofEvent {
  const one = (name: string) => (typeof headers[name] === 'string' ? (headers[name] as string) : undefined);
  const timestamp = one('x-service-timestamp');
  const signature = one('x-service-signature');
  if (!timestamp || !signature || !/^\\d{1,12}$/.test(timestamp)) throw new Error('missing or malformed signature headers');
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) throw new Error('timestamp outside the allowed window');

  const mac = createHmac('sha256', secret).update(\`\${timestamp}.\`).update(rawBody).digest('hex');
  const expected = Buffer.from(\`v1=\${mac}\`);
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Error('bad signature');

  const event = JSON.parse(rawBody.toString('utf8')) as ProofEvent;
  if (event.id !== one('x-service-event-id')) throw new Error('the body id differs from X-Service-Event-Id');
  if (!SUPPORTED_API_VERSIONS.has(event.api_version)) throw new Error(\`unsupported api_version \${event.api_version}\`);
  return event;
}
`;

const HANDLER_SAMPLE = `// In your HTTP handler. Read the body as raw bytes: do not let a framework parse it first.
let event: ProofEvent;
try {
  event = verifyWebhook(rawBody, req.headers, process.env.PROOF_WEBHOOK_SECRET!);
} catch {
  return respond(400);                                // rejected: not retried
}
await db.transaction(async (trx) => {
  if (await trx.seenEvent(event.id)) return;          // duplicate delivery: already applied
  if (event.type === 'payment.confirmed') await trx.markOrderPaid(event.data.request_id as string);
  await trx.rememberEvent(event.id);                  // committed together with the effect
});
return respond(204);                                  // 2xx only after the commit`;

/** A table of statuses and their meanings, from the list the API's own enums are built from. */
const statusTable = (id: string, meanings: Readonly<Record<string, string>>) =>
  `<table id="${id}"><tr><th>Status</th><th>Meaning</th></tr>${Object.entries(meanings)
    .map(([s, m]) => `<tr><td><code>${esc(s)}</code></td><td>${md(m)}</td></tr>`)
    .join('')}</table>`;

/** A plan's row; the hourly creation limit shown is the one this server enforces (its configuration). */
const planRow = (name: string, l: PlanLimits, price: string, perHour: number) =>
  `<tr><td><code>${name}</code></td><td>${price}</td><td>${l.requestsPerPeriod ?? 'no cap'} / ${l.invoicesPerPeriod ?? 'no cap'}</td><td>${l.keys}</td><td>${l.destinations}</td><td>${l.maxValidHours} h</td><td>${l.requestsPerHour === null ? '–' : perHour}</td></tr>`;

function eventsSection(document: Obj): string {
  const schemas = obj(obj(document['components'])['schemas']);
  const types = PROOF_EVENT_TYPES.map((t) => {
    const d = EVENT_DOCS[t];
    // The data schema as this type narrows it (e.g. the invoice status of `invoice.paid` is `paid`).
    const narrowed = obj(obj(obj(schemas[d.schema])['properties'])['data']);
    const data = obj(schemas[d.data]);
    const shown = { ...data, properties: { ...obj(data['properties']), ...obj(narrowed['properties']) } };
    return `<h3 id="event-${t.replace('.', '-')}"><code>${t}</code></h3>
<p>${md(d.when)}</p>${fieldTable(document, shown)}${pre(JSON.stringify(EVENT_EXAMPLES[t], null, 2))}`;
  }).join('\n');
  return `<h2 id="events">Events</h2>
<p>Every event has the same envelope; its bytes never change, and <code>GET /proof/v1/events</code> serves exactly the bytes your webhook
destination receives.</p>
<table><tr><th>Field</th><th>Type</th><th>Meaning</th></tr>
<tr><td><code>id</code></td><td>string</td><td>The event id (<code>evt_…</code>), equal to <code>X-Service-Event-Id</code>; deduplicate on it.</td></tr>
<tr><td><code>api_version</code></td><td><code>"${PROOF_API_VERSION}"</code></td><td>Version of the interface; reject versions you do not support.</td></tr>
<tr><td><code>type</code></td><td>string</td><td>One of ${PROOF_EVENT_TYPES.map((t) => `<code>${t}</code>`).join(', ')}.</td></tr>
<tr><td><code>occurred_at</code></td><td>integer</td><td>Unix seconds.</td></tr>
<tr><td><code>data</code></td><td>object</td><td>The facts of the type, below.</td></tr></table>
<p>Amounts are integer atomic USDC in strings (1 USDC = 1,000,000). Events never contain buyer e-mails, descriptions, secrets, evidence or share
tokens. They are created only while your account has an enabled webhook destination at the moment of the change (a destination registered later
gets no history), kept at least 30 days, and their order across destinations is not guaranteed. A paid invoice emits both
<code>payment.confirmed</code> and <code>invoice.paid</code>: count revenue from one of them. Accept fields you do not know; reject an
<code>api_version</code> you do not support.</p>
<p>To poll instead of (or besides) receiving webhooks: <code>GET /proof/v1/events?after=0&amp;limit=50</code>, then repeat with
<code>after</code> = the returned <code>next_cursor</code>.</p>
${types}`;
}

function webhooksSection(): string {
  return `<h2 id="webhooks">Receiving webhooks</h2>
<p>Each event is POSTed to your enabled destinations as <code>application/json</code> with these headers:</p>
<table><tr><th>Header</th><th>Value</th></tr>${WEBHOOK_HEADERS.map((h) => `<tr><td><code>${esc(String(h['name']))}</code></td><td>${md(h['description'])}</td></tr>`).join('')}</table>
<p><strong>Rules for your receiver:</strong></p>
<ol>
<li>Verify the signature on the <strong>raw body bytes before parsing JSON</strong>: recompute <code>v1=</code> + hex HMAC-SHA256 of
<code>X-Service-Timestamp</code>, a dot and the raw body with your destination's signing secret, and compare in <strong>constant time</strong>.</li>
<li>Reject a timestamp more than <strong>${SIGNATURE_TOLERANCE_SECONDS} seconds</strong> from your clock.</li>
<li>Check that the signed body's <code>id</code> equals <code>X-Service-Event-Id</code>.</li>
<li>Deduplicate event ids durably: commit the id together with its local effect, then answer 2xx. A delivery may arrive more than once.</li>
<li>Accept unknown additive fields; reject an <code>api_version</code> you do not support.</li>
</ol>
<p>Verification in TypeScript (Node's <code>node:crypto</code>):</p>
${pre(WEBHOOK_VERIFY_SAMPLE)}
${pre(HANDLER_SAMPLE)}
<p>A complete receiver that follows every rule, with a durable event log, ships with the platform's source as
<code>examples/webhook-receiver.ts</code> (run it with <code>WEBHOOK_SECRET=… npx tsx examples/webhook-receiver.ts</code>).</p>
<p><strong>Retries.</strong> ${esc(RETRY_TEXT)} 408, 429, 5xx and network timeouts are retried; 2xx is delivered; any other status, including
redirects (never followed), and DNS or security rejections end the delivery as failed. A failed delivery with attempts left can be retried
manually with <code>POST /api/integrations/deliveries/{id}/retry</code> (see <a href="#auth">management routes</a>); it keeps its ids and remaining attempts. Response bodies are not stored. After a secret rotation the next attempts,
including pending retries, are signed with the new secret (see <code>X-Service-Key-Version</code>); a request already in flight may use the old one.</p>
<p><strong>Destinations</strong> are created with <code>POST /api/integrations/webhooks</code> <code>{"url", "events"}</code> (see
<a href="#auth">management routes</a>), each with a signing secret shown once. <code>events</code> lists the types the destination receives, at least
one (an empty list is refused: there is no implicit "all"). <code>POST /api/integrations/webhooks/{id}/disable</code>, <code>…/delete</code> and
<code>…/rotate</code> (a new secret, shown once) manage it, and <code>GET /api/integrations/deliveries</code> shows the delivery history. The URL must
be HTTPS on port 443 with a public DNS name: no IP literal, user info, query or fragment, and no local, private, loopback, link-local, multicast
or reserved destination (every DNS answer must be public). Timeouts: DNS 3 s, socket 5 s, connection 8 s; no redirects, no proxies.
A disabled destination cannot be re-enabled: delete it and create a new one.</p>`;
}

/** GET /proof/developers: what a developer needs to integrate, rendered from the document. */
export function developersPage(document: Obj, s: ProofDocsSettings): string {
  const schemas = obj(obj(document['components'])['schemas']);
  const errors = (document['x-error-codes'] as Array<{ code: string; status: number; when: string }>)
    .slice()
    .sort((a, b) => a.status - b.status);
  const nav = [
    ['#auth', 'Authentication'],
    ['#idempotency', 'Idempotency'],
    ['#requests', 'Payment requests'],
    ['#invoices', 'Invoices'],
    ['#events', 'Events'],
    ['#webhooks', 'Webhooks'],
    ['#endpoints', 'Endpoints'],
    ['#errors', 'Errors'],
    ['#limits', 'Limits'],
    [OPENAPI_PATH, 'OpenAPI'],
  ] as const;
  return htmlPage(
    'Payment requests API /proof/v1: developer documentation',
    nav,
    `
<h1>Payment requests, invoices and webhooks</h1>
<p class="muted">Interface version ${PROOF_API_VERSION}, paths under <code>/proof/v1</code>. Machine-readable: <a href="${OPENAPI_PATH}"><code>${OPENAPI_PATH}</code></a>
(OpenAPI 3.1, with the webhooks). This page: <code>${DEVELOPERS_PATH}</code>.</p>
<p>Request payments in native USDC to your verified wallets, invoice your contacts, and learn about payments from signed webhooks or the event
log. A payment is confirmed only by the service's own matching of verified transfer evidence: no endpoint confirms a payment, changes an
invoice status or signs a transaction, and the service never holds funds.</p>
${pre(`# 1. GET  /proof/v1/me                                → your verified wallets (wallet_id)
# 2. POST /proof/v1/requests + Idempotency-Key        → 201 {"id":"${EXAMPLES.request}","url":"…/proof/pay/…","amount_atomic":"12500001", …}
# 3. send the payer the url; they pay exactly amount_atomic / 1,000,000 USDC
# 4. payment.confirmed arrives by webhook (or GET /proof/v1/events); GET /proof/v1/requests/{id} shows "PAID"`)}

<h2 id="auth">Authentication</h2>
<p>Send <code>Authorization: Bearer skp_…</code> on every <code>/proof/v1</code> request. A key is shown once, when it is created, and
stored hashed. A key has the scope <code>read</code> (GET), <code>write</code> (POST) or both (they are independent: a <code>write</code>-only
key cannot GET), and may expire. A missing, invalid,
revoked or expired key, and a key without the method's scope, answer <strong>401</strong>; a suspended account answers 403. After a downgrade
only the earliest keys your plan allows stay usable.</p>
<p class="note">This interface is for your server only: no cookies, no CSRF tokens, no CORS. Never put a key in a URL (it is refused with 401
<code>api_key_in_url</code>; revoke such a key), in a browser, in logs or in source control. Keys of the processing interface do not work here.</p>
<p id="management"><strong>Creating keys and webhook destinations.</strong> Sign in to the dashboard at <code>/dashboard</code>. Keys and destinations are managed by a
signed-in user of your account through the management routes under <code>/api/integrations</code>, which take the browser session of
<code>POST /api/integrations/session</code> (a cookie), an <code>X-CSRF-Token</code> header and an allowed <code>Origin</code> on every
mutation, and refuse any <code>Authorization</code> header (an API key cannot create keys). The service operator creates your users and can also
issue a key for you (<code>npm run admin -- keys:create --interface proof</code>).</p>
<table><tr><th>Route</th><th>Does</th></tr>
<tr><td><code>POST /api/integrations/keys</code> <code>{"name", "scopes", "expires_at"?}</code></td><td>Creates a key; the secret is in this answer only.</td></tr>
<tr><td><code>POST /api/integrations/keys/{id}/revoke</code> <code>{}</code></td><td>Revokes it at once.</td></tr>
<tr><td><code>POST /api/integrations/webhooks</code> <code>{"url", "events"}</code></td><td>Creates a destination (see <a href="#webhooks">Receiving webhooks</a>).</td></tr>
<tr><td><code>GET /api/integrations</code></td><td>Your keys (metadata only), destinations, event types and plan limits.</td></tr></table>

<h2 id="idempotency">Idempotency</h2>
<p>Every POST needs an <code>Idempotency-Key</code> header: ${esc(IDEMPOTENCY_RULES.proof.description)}. Generate one per new resource or action,
store it with your record, and reuse it unchanged when you retry after a timeout or a 5xx.</p>
<ul><li>Same key, same operation and payload: the original status and body are returned byte for byte (header <code>Idempotent-Replayed: true</code>);
nothing is created or consumed again.</li>
<li>Same key with another operation or payload: 409 <code>idempotency_conflict</code>. Keys are shared by all your API keys and all operations,
and never expire.</li>
<li>A rejected request (any 4xx or 5xx) stores and creates nothing: fix it and send it again, with the same key.</li>
<li>Up to ${RETAINED_RESPONSES_PER_ACCOUNT.toLocaleString('en-US')} stored responses per account (a fair-use bound); beyond it a new key answers 422 <code>quota_exceeded</code>.</li></ul>

<h2 id="pagination">Lists</h2>
<p>Lists return <code>{"data": [...], "next_cursor": ...}</code>, in descending id order (ids are random, so not by creation time). <code>limit</code> is 1 to 100
(default 50); pass the opaque <code>next_cursor</code> as <code>before</code> for the next page; it is null on the last page. There is no
unbounded list or export. The event log pages forward with the integer <code>after</code> instead.</p>

<h2 id="requests">Payment requests</h2>
<p>A request asks for an amount of native USDC, paid to one of your verified wallets on its network, within <code>valid_hours</code>
(default ${DEFAULT_VALID_HOURS}). The response's <strong><code>amount_atomic</code> is the exact amount to pay</strong>: your
<code>quoted_amount_atomic</code> plus a small unique matching delta (at most ${DELTA_MAX.toLocaleString('en-US')} atomic units, under one cent) that lets the payment be
recognised. Show and pay <code>amount_atomic / 1,000,000</code> with all six decimals, never a rounded amount. Send the payer the
<code>url</code>: the public payment page shows the amount, network, address, a QR code while payable, and the status.</p>
<p>Statuses of a payment request (<code>status</code>):</p>
${statusTable('request-statuses', REQUEST_STATUS_MEANINGS)}
<p>A successful checkout or HTTP call, <code>AWAITING</code> and <code>REVIEW</code> do not mean paid: only <code>PAID</code>, reported by
<code>payment.confirmed</code>.</p>
<p><strong>Body</strong> of <code>POST /proof/v1/requests</code>, for example <code>${esc(JSON.stringify(requestCreateExample))}</code>:</p>
${fieldTable(document, schemas['PaymentRequestCreate'], true)}
<p><strong>The payment request object:</strong></p>
${fieldTable(document, schemas['PaymentRequest'])}

<h2 id="invoices">Contacts and invoices</h2>
<p>A contact is a buyer (<code>POST /proof/v1/contacts</code>); there is no public update or delete.</p>
${fieldTable(document, schemas['ContactCreate'], true)}
<p>An invoice (<code>POST /proof/v1/invoices</code>) computes exact totals in integer atomic USDC, rounded half-up at 0.000001 USDC per line
and once on the tax, creates exactly one payment request for its total (<code>request_id</code>) and renders the invoice document once
(<code>document_sha256</code>). It sends no e-mail: after a person approved it, call <code>POST /proof/v1/invoices/{id}/send</code> with
<code>{"user_approved": true}</code>; the mail is queued. A voided invoice cannot be sent (409). An invoice consumes one payment-request and one
invoice allowance.</p>
<p>The API cannot change an invoice's status: it becomes <code>paid</code> when its payment request is paid, or <code>voided</code> when the
service operator voids it on your request (<code>invoice.voided</code>; its payment request becomes <code>VOIDED</code> and can no longer be paid;
a paid invoice cannot be voided; the allowance is not restored).</p>
<p>Statuses of an invoice (<code>status</code>):</p>
${statusTable('invoice-statuses', INVOICE_STATUS_MEANINGS)}
${fieldTable(document, schemas['InvoiceCreate'], true)}
<p>Each of <code>items</code>:</p>
${fieldTable(document, schemas['InvoiceItemInput'], true)}
<p class="muted">${md(obj(schemas['InvoiceCreate'])['description'])}</p>
<p><strong>The invoice object</strong> (buyer and issuer details are never returned):</p>
${fieldTable(document, schemas['Invoice'])}

${eventsSection(document)}

${webhooksSection()}

<h2 id="endpoints">Endpoints</h2>
<p class="muted"><code>$BASE_URL</code> is this server's address and <code>$API_KEY</code> your key.</p>
${renderEndpoints(document)}

<h2 id="errors">Errors</h2>
<p>Every error has the same JSON body; validation errors add <code>issues</code>, every problem at once. Messages never contain secrets.</p>
${pre(JSON.stringify({ error: 'Invalid request: amount_usdc: amount_usdc must be greater than zero', code: 'validation_failed', request_id: EXAMPLES.requestId, issues: [{ path: 'amount_usdc', message: 'amount_usdc must be greater than zero' }] }, null, 2))}
<table><tr><th>Status</th><th><code>code</code></th><th>When</th></tr>${errors.map((e) => `<tr><td>${e.status}</td><td><code>${e.code}</code></td><td>${md(e.when)}</td></tr>`).join('')}</table>
<p>Retry 429 after <code>Retry-After</code> seconds and 5xx with backoff, with the same <code>Idempotency-Key</code>.</p>

<h2 id="limits">Limits</h2>
<table><tr><th>Plan</th><th>Price (USDC per 30 days)</th><th>Requests / invoices per period</th><th>Keys</th><th>Destinations</th><th>Longest <code>valid_hours</code></th><th>Creations per hour</th></tr>
${PAID_PLANS.map((p) => planRow(p, PLAN_LIMITS[p], String(PLAN_PRICES_USDC[p]), s.rateLimits.proPerHour)).join('')}
${planRow('trial', PLAN_LIMITS.trial, `free, ${TRIAL_DAYS} days`, s.rateLimits.proPerHour)}</table>
<p>Periods are a rolling 30-day window (a trial: since its start); voiding does not restore an allowance. Throttles:
${s.rateLimits.perKeyPerMinute} requests per key and ${s.rateLimits.perIpPerMinute} per IP address per minute; pro accounts also
${s.rateLimits.proPerHour} payment-request creations in any 60 minutes (only creations count: a rejected call or a replay does not). JSON bodies up to ${esc(s.bodyLimitJson)}. Your current limits and usage:
<code>GET /proof/v1/me</code>.</p>

<h2 id="versioning">Versioning</h2>
<p>This is interface version <code>${PROOF_API_VERSION}</code> (<code>api_version</code> in <code>/proof/v1/me</code> and in every event) under the
path prefix <code>/v1</code>. Additive fields may appear at any time: ignore fields you do not know, and reject event versions you do not support.</p>`,
  );
}
