/**
 * A small receiver for the payment-request interface's signed webhooks that follows every receiver rule of the
 * spec (section 6). Copy it, replace `applyEvent` with your own effect, and keep the order of the checks:
 *
 *   1. verify before parsing, with one of the two schemes every delivery carries under the same secret:
 *      - `standard` (the default): the Standard Webhooks headers `webhook-id`, `webhook-timestamp` and
 *        `webhook-signature`, verified by the official `standardwebhooks` package (`npm install standardwebhooks`),
 *        its verifier built from the secret with `{ format: 'raw' }` (the secret's characters are the HMAC key,
 *        `whsec_` prefix included; docs/webhooks.md). The package checks the 5-minute window with the system clock;
 *      - `x-service`: HMAC-SHA256 over `${X-Service-Timestamp}.${raw body}` with the signing secret, compared in
 *        constant time; the timestamp must be within 300 seconds of now;
 *   2. parse, then require the body's `id` to equal the event id header (`webhook-id` / `X-Service-Event-Id`, the
 *      same value);
 *   3. reject an unsupported `api_version` (accept unknown additive fields);
 *   4. deduplicate by event id durably, and commit the id together with the local effect;
 *   5. only then answer 2xx (any other answer makes the service retry; redirects are never followed).
 *
 * Run: `WEBHOOK_SECRET=whsec_… EVENT_LOG=./events.jsonl PORT=8787 npx tsx examples/webhook-receiver.ts`
 * (`WEBHOOK_SCHEME=x-service` for the X-Service headers).
 * The "local effect" here is one line appended (and fsync'ed) to an append-only log: the line is both the effect
 * and the dedupe record, so they commit together. In a database, insert the event id (unique) and your effect in
 * one transaction instead.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export const SUPPORTED_API_VERSIONS = ['1.0'];
const TOLERANCE_SECONDS = 300;
const MAX_BODY_BYTES = 1_000_000;

export interface ReceivedEvent {
  id: string;
  api_version: string;
  type: string;
  occurred_at: number;
  data: Record<string, unknown>;
}

/** Which signature headers the receiver verifies (every delivery carries both, under the same secret). */
export type SignatureScheme = 'standard' | 'x-service';

export interface ReceiverOptions {
  /** The endpoint's signing secret (shown once when the destination was created or rotated). */
  secret: string;
  /** Default `standard` (Standard Webhooks, verified by the `standardwebhooks` package). */
  scheme?: SignatureScheme;
  /** Append-only JSON-lines file: processed events, one per line. */
  eventLog: string;
  /** Seconds since the epoch, for the `x-service` window (injectable for tests; the package reads the system clock). */
  nowSeconds?: () => number;
}

/** `v1=` + hex HMAC-SHA256(secret, `${timestamp}.` + raw body), compared in constant time. */
export function signatureMatches(secret: string, timestamp: string, body: Buffer, header: string): boolean {
  const expected = Buffer.from(`v1=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

type Verified = { ok: true; eventId: string } | { ok: false; status: 400 | 401; text: string };

/** Verifies the raw body's signature headers by the chosen scheme; answers the event id they sign. */
export function createVerifier(
  opts: Pick<ReceiverOptions, 'secret' | 'scheme' | 'nowSeconds'>,
): (headers: http.IncomingHttpHeaders, body: Buffer) => Verified {
  if ((opts.scheme ?? 'standard') === 'standard') {
    // The secret's characters are the key (`whsec_` included), as for X-Service-Signature. In a library without a raw
    // option: new Webhook('whsec_' + base64(utf8(secret))).
    const wh = new Webhook(opts.secret, { format: 'raw' });
    return (headers, body) => {
      const [id, timestamp, signature] = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map(
        (h) => headers[h],
      );
      if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string')
        return { ok: false, status: 400, text: 'missing signature headers' };
      try {
        wh.verify(body, { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature });
      } catch (e) {
        if (e instanceof WebhookVerificationError)
          return { ok: false, status: 401, text: 'bad signature or timestamp' };
        throw e;
      }
      return { ok: true, eventId: id };
    };
  }
  const now = opts.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  return (headers, body) => {
    const timestamp = headers['x-service-timestamp'];
    const signature = headers['x-service-signature'];
    const eventId = headers['x-service-event-id'];
    if (typeof timestamp !== 'string' || typeof signature !== 'string' || typeof eventId !== 'string')
      return { ok: false, status: 400, text: 'missing signature headers' };
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now() - Number(timestamp)) > TOLERANCE_SECONDS)
      return { ok: false, status: 401, text: 'timestamp outside the 300 s window' };
    if (!signatureMatches(opts.secret, timestamp, body, signature))
      return { ok: false, status: 401, text: 'bad signature' };
    return { ok: true, eventId };
  };
}

/** The event log: the ids already processed (read once at start), and a durable append. */
class EventLog {
  private readonly seen = new Set<string>();

  constructor(private readonly path: string) {
    if (existsSync(path)) {
      for (const line of readFileSync(path, 'utf8').split('\n'))
        if (line.trim()) this.seen.add((JSON.parse(line) as { id: string }).id);
    }
  }

  has(id: string): boolean {
    return this.seen.has(id);
  }

  /** Commits the event and its effect as one line, on disk before returning. */
  commit(event: ReceivedEvent): void {
    const fd = openSync(this.path, 'a');
    try {
      writeSync(
        fd,
        `${JSON.stringify({ id: event.id, type: event.type, occurred_at: event.occurred_at, data: event.data })}\n`,
      );
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.seen.add(event.id);
  }
}

function readBody(req: http.IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The request handler; answers 200 after a durable commit, 4xx for anything that must not be retried as is. */
export function createWebhookReceiver(opts: ReceiverOptions): http.RequestListener {
  const log = new EventLog(opts.eventLog);
  const verify = createVerifier(opts);
  // One request at a time: a duplicate arriving during a commit sees the committed id.
  let queue: Promise<void> = Promise.resolve();

  return (req, res) => {
    const answer = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(text);
    };
    queue = queue
      .then(async () => {
        if (req.method !== 'POST') return answer(405, 'POST only');
        const body = await readBody(req);
        if (!body) return answer(413, 'body too large');
        const verified = verify(req.headers, body);
        if (!verified.ok) return answer(verified.status, verified.text);

        let event: ReceivedEvent;
        try {
          event = JSON.parse(body.toString('utf8')) as ReceivedEvent;
        } catch {
          return answer(400, 'not JSON');
        }
        if (event.id !== verified.eventId) return answer(400, 'body id differs from the event id header');
        if (!SUPPORTED_API_VERSIONS.includes(event.api_version))
          return answer(400, `unsupported api_version ${String(event.api_version)}`);
        if (!log.has(event.id)) log.commit(event);
        answer(200, 'ok');
      })
      .catch(() => answer(500, 'not stored; retry'));
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secret = process.env['WEBHOOK_SECRET'];
  if (!secret) {
    process.stderr.write('WEBHOOK_SECRET is required\n');
    process.exit(2);
  }
  const port = Number(process.env['PORT'] ?? 8787);
  http
    .createServer(
      createWebhookReceiver({
        secret,
        scheme: process.env['WEBHOOK_SCHEME'] === 'x-service' ? 'x-service' : 'standard',
        eventLog: process.env['EVENT_LOG'] ?? './events.jsonl',
      }),
    )
    .listen(port, () => {
      process.stdout.write(`webhook receiver listening on :${port}\n`);
    });
}
