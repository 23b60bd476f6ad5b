import { z } from 'zod';
import { EVM, EVM_NETWORKS, NETWORKS, isNetwork, type EvmNetwork, type Network } from '../domain/networks.js';
import { RETAINED_RESPONSES_PER_ACCOUNT } from '../domain/proof/plans.js';
import { decodeSecretsKey } from '../domain/secrets-key.js';
import { DEFAULT_VIDEO_MAX_PIXEL_FRAMES } from '../domain/media-work.js';
import { DEFAULT_OCR_LANGUAGES } from '../domain/validation/processing-request.js';
import {
  DEFAULT_CREDIT_PACKS,
  DEFAULT_PLAN_PRICES_USDC,
  parseCreditPacks,
  parsePlanPrices,
  parsePlatformWallets,
  type SelfServiceConfig,
} from '../domain/self-service.js';
import type { SignInLimits } from '../domain/sign-in.js';
import type { DbTimeouts } from '../db/connection.js';
import { parseDnsServer } from '../adapters/domain-audit/dns.js';
import { parsePrivateDestinations } from '../adapters/webhooks/url-policy.js';
import type { SpeechCpuKernels } from '../adapters/providers/transcription/whisper-worker-process.js';

/** How much one worker process takes on at once (Temporal WorkerOptions); docs/operations.md "Worker tuning". */
export interface WorkerTuning {
  /** maxConcurrentWorkflowTaskExecutions */
  readonly workflowTasks: number;
  /** maxConcurrentActivityTaskExecutions */
  readonly activities: number;
  /** maxConcurrentLocalActivityExecutions */
  readonly localActivities: number;
  /** maxCachedWorkflows (the sticky cache; 0 turns sticky execution off) */
  readonly cachedWorkflows: number;
  /** maxConcurrentWorkflowTaskPolls (sticky and normal queue together), at most workflowTasks */
  readonly workflowPollers: number;
  /** nonStickyToStickyPollRatio: the share of the workflow pollers that poll the normal (not sticky) queue */
  readonly nonStickyPollRatio: number;
  /** maxConcurrentActivityTaskPolls, at most activities */
  readonly activityPollers: number;
}

/**
 * The whole environment of the platform, validated once at start-up.
 * Only entry points (api/main.ts, workers/main.ts, cli/*) call loadConfig; everything else receives
 * the frozen Config (or the part it needs) as an argument.
 */

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max).default(def);

const optionalPositiveInt = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === '') return undefined;
    if (!/^\d{1,7}$/.test(v.trim()) || Number(v) < 1) {
      ctx.addIssue({ code: 'custom', message: 'a positive integer' });
      return z.NEVER;
    }
    return Number(v);
  });

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** PUBLIC_BASE_URL normalized (lower-case origin, no trailing slash), or null when it is not a usable base URL. */
function publicBaseUrlOf(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    !url.hostname ||
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    value.includes('?') ||
    value.includes('#')
  )
    return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('127.0.0.1'),
  PORT: int(8080, 0, 65535),
  /**
   * The API's public URL as clients see it (e.g. https://pay.example.com): payment-page links, x402 resource URLs
   * and the management routes' allowed Origin are built from it. Required in production; unset elsewhere, they
   * follow the request's Host (or X-Forwarded-Host from a trusted proxy), which a client chooses.
   */
  PUBLIC_BASE_URL: optionalString.transform((v, ctx) => {
    if (v === undefined) return undefined;
    const url = publicBaseUrlOf(v);
    if (url === null) {
      ctx.addIssue({
        code: 'custom',
        message: 'an absolute http(s) URL such as https://pay.example.com, without user info, query or fragment',
      });
      return z.NEVER;
    }
    return url;
  }),
  TRUST_PROXY: bool.default(false),
  /**
   * With TRUST_PROXY: how many reverse proxies of yours stand in front of the API, each appending to
   * X-Forwarded-For. The client is that many entries from the right; what it wrote further left is ignored.
   */
  TRUST_PROXY_HOPS: int(1, 1, 20),
  BODY_LIMIT_JSON: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i, 'a size such as 1mb or 256kb')
    .default('1mb'),
  SHUTDOWN_GRACE_SECONDS: int(30, 1, 3600),
  /**
   * Prometheus metrics (docs/operations.md "Metrics"), never public by default: METRICS_PORT starts a listener of its
   * own on METRICS_HOST (loopback by default) serving `GET /metrics` for this process (an API or a worker); METRICS_TOKEN
   * (at least 32 characters) requires `Authorization: Bearer <token>` there and also serves `GET /metrics` on the API's
   * own listener. Neither set: no metrics are served.
   */
  METRICS_PORT: optionalPositiveInt.refine((v) => v === undefined || v <= 65535, 'a port from 1 to 65535'),
  METRICS_HOST: z.string().default('127.0.0.1'),
  /**
   * A worker's Temporal SDK metrics (its core's own Prometheus exporter, `temporal_*`) on this port of METRICS_HOST. That
   * exporter takes no token: keep it on a private address.
   */
  METRICS_TEMPORAL_PORT: optionalPositiveInt.refine((v) => v === undefined || v <= 65535, 'a port from 1 to 65535'),
  METRICS_TOKEN: optionalString.refine((v) => v === undefined || v.length >= 32, 'at least 32 characters'),
  /**
   * OpenTelemetry traces (docs/observability.md), off unless these name an exporter: OTEL_TRACES_EXPORTER (`otlp`,
   * `console`, comma-separated; `none` is off) or an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT, or
   * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT). The SDK reads the other OTEL_* variables (headers, timeouts, sampler) itself.
   */
  OTEL_TRACES_EXPORTER: optionalString.refine(
    (v) => v === undefined || /^\s*(otlp|console|none)\s*(,\s*(otlp|console|none)\s*)*$/i.test(v),
    'otlp, console or none (comma-separated)',
  ),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalString,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalString,
  OTEL_SERVICE_NAME: optionalString,
  OTEL_SDK_DISABLED: optionalString,

  DATA_DIR: z.string().default('var'),
  DATABASE_URL: optionalString,
  DATABASE_POOL_MAX: int(10, 2, 200),
  /** Opening one PostgreSQL connection (TCP, TLS, authentication). docs/operations.md explains the defaults. */
  DATABASE_CONNECT_TIMEOUT_MS: int(5_000, 100, 600_000),
  /** Server-side statement_timeout of every session; 0 keeps the server's own. Migrations run without it. */
  DATABASE_STATEMENT_TIMEOUT_MS: int(30_000, 0, 86_400_000),
  /** Waiting for a pooled connection, including opening one. */
  DATABASE_ACQUIRE_TIMEOUT_MS: int(10_000, 100, 600_000),
  EMBEDDED_PG_PORT: int(54329, 1, 65535),

  TEMPORAL_ADDRESS: optionalString,
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('platform'),
  TEMPORAL_CLI_PATH: optionalString,
  TEMPORAL_DEV_PORT: int(7233, 1, 65535),
  TEMPORAL_UI_PORT: int(8233, 1, 65535),
  /** Optional path of a prebuilt workflow bundle (npm run build:workflows); otherwise bundled at worker start. */
  TEMPORAL_WORKFLOW_BUNDLE: optionalString,
  /** Worker tuning (docs/operations.md "Worker tuning"): slots, sticky cache and pollers of each worker process. */
  TEMPORAL_WORKER_WORKFLOW_TASKS: int(40, 2, 10_000),
  TEMPORAL_WORKER_ACTIVITIES: int(100, 1, 10_000),
  TEMPORAL_WORKER_LOCAL_ACTIVITIES: int(100, 1, 10_000),
  TEMPORAL_WORKER_CACHED_WORKFLOWS: int(1000, 0, 1_000_000),
  TEMPORAL_WORKER_WORKFLOW_POLLERS: int(20, 2, 1000),
  TEMPORAL_WORKER_NONSTICKY_POLL_RATIO: z.coerce.number().gt(0).max(1).default(0.5),
  TEMPORAL_WORKER_ACTIVITY_POLLERS: int(10, 1, 1000),

  /**
   * 32 bytes, base64: seals webhook signing secrets and PDF passwords at rest. Generated under DATA_DIR when unset
   * outside production. SECRETS_KEYS_PREVIOUS: comma-separated earlier keys, read only (docs/operations.md
   * "Rotating SECRETS_KEY").
   */
  SECRETS_KEY: optionalString,
  SECRETS_KEYS_PREVIOUS: optionalString,

  RATE_LIMIT_V1_PER_KEY_PER_MINUTE: int(120, 1),
  RATE_LIMIT_V1_PER_IP_PER_MINUTE: int(600, 1),
  RATE_LIMIT_PROOF_PER_KEY_PER_MINUTE: int(60, 1),
  RATE_LIMIT_PROOF_PER_IP_PER_MINUTE: int(120, 1),
  RATE_LIMIT_PROOF_PRO_PER_HOUR: int(300, 1),
  /** Stored idempotent responses per /proof account, a fair-use bound (spec section 8). */
  PROOF_RETAINED_RESPONSES_PER_ACCOUNT: int(RETAINED_RESPONSES_PER_ACCOUNT, 1),
  RATE_LIMIT_X402_PER_IP_PER_MINUTE: int(120, 1),
  RATE_LIMIT_INTEGRATIONS_PER_IP_PER_MINUTE: int(120, 1),
  /** Failed API-key authentications per client IP per minute, /v1 and /proof/v1 together; past it 429 before any lookup. */
  RATE_LIMIT_AUTH_FAILURES_PER_IP_PER_MINUTE: int(30, 1),
  /**
   * Failed sign-ins (both browser sessions) in any 15 minutes (domain/sign-in.ts): per client address and account; per
   * client address, for any accounts; and per account from every address, past which each address may fail once for it.
   */
  RATE_LIMIT_SIGN_IN_FAILURES_PER_IP_ACCOUNT_PER_15_MINUTES: int(5, 1),
  RATE_LIMIT_SIGN_IN_FAILURES_PER_IP_PER_15_MINUTES: int(30, 1),
  RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT_PER_15_MINUTES: int(20, 1),
  /**
   * Hits an API process reserves at most from one shared rate-limit counter in one statement (api/http/shared-counters.ts);
   * 1 = one upsert per request.
   */
  RATE_LIMIT_RESERVE_MAX: int(64, 1),
  /**
   * Origins allowed to make management (`/api/integrations`) mutations, comma-separated, e.g.
   * https://dashboard.example.com. Unset: the origin of PUBLIC_BASE_URL, else the origin the request was sent to.
   */
  DASHBOARD_ORIGINS: optionalString.pipe(
    z
      .string()
      .optional()
      .refine(
        (v) => v === undefined || v.split(',').every((o) => /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(o.trim())),
        'a comma-separated list of origins such as https://dashboard.example.com',
      ),
  ),
  /** Absolute lifetime of a dashboard session, and how long it may sit idle. */
  SESSION_TTL_HOURS: int(12, 1, 720),
  SESSION_IDLE_MINUTES: int(30, 1, 1440),
  /** How long a company invitation (`POST /api/company/invitations`) can be accepted. */
  COMPANY_INVITATION_TTL_HOURS: int(72, 1, 720),

  // Chain RPC endpoints: a comma-separated list means failover in that order.
  RPC_URL_BASE: z.string().default('https://mainnet.base.org'),
  RPC_URL_POLYGON: z.string().default('https://polygon-rpc.com'),
  RPC_URL_ARBITRUM: z.string().default('https://arb1.arbitrum.io/rpc'),
  RPC_URL_OPTIMISM: z.string().default('https://mainnet.optimism.io'),
  RPC_URL_ETHEREUM: z.string().default('https://ethereum-rpc.publicnode.com'),
  RPC_URL_AVALANCHE: z.string().default('https://api.avax.network/ext/bc/C/rpc'),
  RPC_URL_SOLANA: z.string().default('https://api.mainnet-beta.solana.com'),
  /** Per RPC call, in milliseconds. */
  RPC_TIMEOUT_MS: int(8000, 100, 120_000),
  /** Retries per endpoint before failing over to the next one. */
  RPC_RETRIES: int(1, 0, 5),
  // Required confirmations per EVM chain (defaults and reasons: docs/x402.md).
  CONFIRMATIONS_BASE: optionalPositiveInt,
  CONFIRMATIONS_POLYGON: optionalPositiveInt,
  CONFIRMATIONS_ARBITRUM: optionalPositiveInt,
  CONFIRMATIONS_OPTIMISM: optionalPositiveInt,
  CONFIRMATIONS_ETHEREUM: optionalPositiveInt,
  CONFIRMATIONS_AVALANCHE: optionalPositiveInt,

  /** Payee of every /x402 fee (an EVM address on Base). Paid routes answer 503 until it is set. */
  X402_PAY_TO: optionalString,
  /** `remote` (X402_FACILITATOR_URL) or `self` (in-process facilitator signing with X402_FACILITATOR_PRIVATE_KEY). */
  X402_FACILITATOR: z.enum(['remote', 'self', '']).optional(),
  X402_FACILITATOR_URL: optionalString,
  /** Secret: the self-hosted facilitator's signer key (0x + 64 hex); it pays gas to settle on Base. */
  X402_FACILITATOR_PRIVATE_KEY: optionalString,
  /** How long a payment requirement stays valid (x402 maxTimeoutSeconds). */
  X402_PAYMENT_TIMEOUT_SECONDS: int(300, 10, 3600),
  /**
   * How long a paid call waits for its settlement before answering 503 payment_settlement_uncertain (the settlement
   * goes on; the caller re-presents the same authorization to fetch the kept answer). Well under client timeouts.
   */
  X402_SETTLEMENT_WAIT_SECONDS: int(15, 1, 60),

  /** Folder of uploaded sources and job results (addressed by id, never by a client path). */
  STORAGE_DIR: optionalString,
  UPLOAD_MAX_FILES: int(100, 1, 10_000),
  /** Per upload request, in MB (1 MB = 1,000,000 bytes). */
  UPLOAD_MAX_REQUEST_MB: int(500, 1, 100_000),
  /** Live sources per company, in MB. */
  COMPANY_STORAGE_MB: int(2000, 1, 10_000_000),
  /** The media engines run as programs: their paths (looked up in PATH by default) and qpdf's time limit. */
  QPDF_PATH: z.string().min(1).default('qpdf'),
  QPDF_TIMEOUT_MS: int(60_000, 100, 3_600_000),
  FFPROBE_PATH: z.string().min(1).default('ffprobe'),
  /**
   * OCR (docs/processing.md, "OCR"): the Tesseract language packs installed here (Debian `tesseract-ocr-<code>`),
   * comma-separated; the first is the default `language`. Checked against `tesseract --list-langs` when a worker starts.
   * Default: the seven the setup installs (DEFAULT_OCR_LANGUAGES), English first.
   */
  OCR_LANGUAGES: z
    .string()
    .default(DEFAULT_OCR_LANGUAGES.join(','))
    .transform((v) =>
      v
        .split(',')
        .map((l) => l.trim())
        .filter(Boolean),
    )
    .refine(
      (list) => list.length > 0 && list.every((l) => /^[a-z]{3}(_[a-z]{2,8})?$/.test(l)),
      'Tesseract language codes separated by commas, e.g. eng,deu',
    ),
  /** Pages OCRed at once by one worker process (all its jobs together); each Tesseract runs on one thread. */
  OCR_CONCURRENCY: int(2, 1, 64),
  /** Time limit of one engine run (Tesseract, ocrmypdf, pdftoppm) on one page. */
  OCR_PAGE_TIMEOUT_MS: int(180_000, 1000, 3_600_000),
  TESSERACT_PATH: z.string().min(1).default('tesseract'),
  OCRMYPDF_PATH: z.string().min(1).default('ocrmypdf'),
  /** ffmpeg (audio and video tools, exact durations) and its time limit per run (under the job activity's 30 minutes). */
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  FFMPEG_TIMEOUT_MS: int(1_500_000, 1000, 1_740_000),
  /**
   * The most work a video tool takes on one source, in pixel-frames (frames encoded × pixels per frame; docs/processing.md,
   * "Audio and video tools"): more is refused at the estimate and at submission (422), so no accepted job runs into
   * FFMPEG_TIMEOUT_MS. The default fits the reference 2-core worker; raise it with the worker's cores.
   */
  VIDEO_MAX_PIXEL_FRAMES: int(DEFAULT_VIDEO_MAX_PIXEL_FRAMES, 1_000_000, 1e15),

  /** Test-only: let webhook deliveries reach http://127.0.0.1 / localhost receivers. Refused in production. */
  WEBHOOK_TEST_ALLOW_LOOPBACK: bool.default(false),
  /**
   * Origins of on-premise webhook receivers deliveries may reach beside the public destination policy, comma-separated:
   * `http(s)://<private or loopback IP address>[:<port>]` (docs/webhooks.md "Private destinations"). Empty (the
   * default): only public HTTPS destinations. Allowed in production; the processes log the list at start.
   */
  WEBHOOK_PRIVATE_DESTINATIONS: z.string().default(''),
  /**
   * The worker's webhook dispatcher (docs/webhooks.md, "How a delivery is sent"): first attempts in flight at once per
   * worker process, at most this many of them to one destination, and deliveries one tenant holds at once over all its
   * destinations (unset: half of WEBHOOK_DISPATCH_CONCURRENCY).
   */
  WEBHOOK_DISPATCH_CONCURRENCY: int(32, 1, 1000),
  WEBHOOK_DISPATCH_PER_DESTINATION: int(8, 1, 1000),
  WEBHOOK_DISPATCH_PER_TENANT: optionalPositiveInt,

  /**
   * The offline speech engine (engines/transcription/README.md): its Python and model folder (default: what
   * scripts/setup.sh installs in the tool cache), worker processes (= transcriptions at once; more queue) and the
   * time limit of one transcription, past which its worker is killed and replaced.
   */
  TRANSCRIPTION_PYTHON: optionalString,
  TRANSCRIPTION_MODEL_DIR: optionalString,
  /** The speaker encoder's weights (CAM++'s `campplus.pt`, or Resemblyzer's `pretrained.pt`); default: CAM++ as scripts/setup.sh installs it in the tool cache. */
  TRANSCRIPTION_SPEAKER_MODEL: optionalString,
  TRANSCRIPTION_CONCURRENCY: int(1, 1, 16),
  TRANSCRIPTION_TIMEOUT_MS: int(900_000, 1000, 86_400_000),
  /**
   * CPU threads of each speech worker (0: the machine's cores divided among the workers), and the CPU kernels it
   * computes with: `native`, the fastest this CPU has (Intel MKL on Intel CPUs, oneDNN up to AVX-512 on others), or
   * `portable`, oneDNN capped at AVX2 on every x86-64 CPU, so machines of different CPUs give the same transcript of
   * the same audio (the tests run so). engines/transcription/README.md ("Same audio, same transcript").
   */
  TRANSCRIPTION_CPU_THREADS: int(0, 0, 64),
  TRANSCRIPTION_CPU_KERNELS: z.enum(['native', 'portable']).default('native'),
  /**
   * Which engine transcribes: `offline` (the speech engine above) or `openai`, an OpenAI-compatible
   * `/audio/transcriptions` API at TRANSCRIPTION_API_BASE_URL (with its version path, e.g. https://api.openai.com/v1)
   * with the secret TRANSCRIPTION_API_KEY and a model that gives word timestamps; the time limit is per HTTP request
   * (at most 300 s, Node's fetch waits no longer for an answer's headers).
   */
  TRANSCRIPTION_PROVIDER: z.enum(['offline', 'openai', '']).default('offline'),
  TRANSCRIPTION_API_BASE_URL: optionalString,
  TRANSCRIPTION_API_KEY: optionalString,
  TRANSCRIPTION_API_MODEL: optionalString.transform((v) => v ?? 'whisper-1'),
  TRANSCRIPTION_API_TIMEOUT_MS: int(300_000, 1000, 300_000),
  /**
   * Long audio is transcribed in chunks cut on silences near this length (seconds; each chunk between half of it, at
   * most 30 s, and twice it, at most 10 minutes): one activity per chunk, the unit of progress a crashed worker loses.
   */
  TRANSCRIPTION_CHUNK_SECONDS: int(300, 10, 600),
  /**
   * Chunks of one job transcribed at once: activities any worker process may take, so several workers share a long
   * file; each worker still runs at most TRANSCRIPTION_CONCURRENCY transcriptions (more wait in its queue).
   */
  TRANSCRIPTION_CHUNKS_AT_ONCE: int(2, 1, 16),

  /**
   * The language model that summarises meetings (docs/processing.md, "Meeting"): `none` (an extractive summary, and
   * the document says so) or `openai`, an OpenAI-compatible `/chat/completions` API at LLM_API_BASE_URL (with its
   * version path) with the secret LLM_API_KEY and a model that supports structured outputs (a strict JSON schema);
   * the time limit is per HTTP request.
   */
  LLM_PROVIDER: z.enum(['none', 'openai', '']).default('none'),
  LLM_API_BASE_URL: optionalString,
  LLM_API_KEY: optionalString,
  LLM_API_MODEL: optionalString.transform((v) => v ?? 'gpt-4o-mini'),
  LLM_API_TIMEOUT_MS: int(120_000, 1000, 300_000),
  /**
   * The engine of document field extraction (`flow-extract`, docs/processing.md "Field extraction"): `offline`, the
   * deterministic engine of this repository, or `openai`, a chat model over the same LLM_API_* settings as meeting
   * summaries (chosen separately: sending invoices to a model is a decision of its own).
   */
  EXTRACTION_PROVIDER: z.enum(['offline', 'openai', '']).default('offline'),

  /**
   * The DNS/TLS audit (MCP tool domain_dns_tls_audit, docs/x402.md): the resolvers it asks, comma-separated IP
   * addresses with an optional port (`1.1.1.1`, `1.1.1.1:53`, `[2606:4700:4700::1111]:53`), in failover order.
   */
  DOMAIN_AUDIT_RESOLVERS: z
    .string()
    .default('1.1.1.1,8.8.8.8')
    .transform((v) =>
      v
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean),
    )
    .refine(
      (list) => list.length > 0 && list.every((v) => parseDnsServer(v) !== null),
      'IP addresses, each with an optional :port, separated by commas',
    ),
  /** Test-only, refused in production: a DNS server `ip:port` used instead of DOMAIN_AUDIT_RESOLVERS; loopback answers allowed. */
  DOMAIN_AUDIT_TEST_RESOLVER: optionalString.refine(
    (v) => v === undefined || parseDnsServer(v) !== null,
    'an IP address with an optional :port',
  ),
  /** Test-only, refused in production: the TLS port audited instead of 443. */
  DOMAIN_AUDIT_TEST_TLS_PORT: optionalPositiveInt.refine((v) => v === undefined || v <= 65535, 'a port, 1 to 65535'),
  /** Test-only, refused in production: a PEM file of extra CA certificates the audit trusts. */
  DOMAIN_AUDIT_TEST_CA_FILE: optionalString,

  /**
   * Outgoing e-mail, invoices (the worker) and company invitations (the API): `smtp://user:pass@host:587` (STARTTLS) or
   * `smtps://user:pass@host:465`. Unset: the invoice mail outbox only queues, nothing is sent, and companies cannot
   * invite (503). The password is a secret: never logged or echoed.
   */
  SMTP_URL: optionalString,
  /** Sender of invoice and invitation e-mail (`billing@example.com` or `Example Billing <billing@example.com>`); required with SMTP_URL. */
  MAIL_FROM: optionalString,
  /** Bound on connecting, the greeting and each SMTP reply, in milliseconds. */
  SMTP_TIMEOUT_MS: int(30_000, 1000, 120_000),

  /**
   * Networks whose payment watcher (`watch:<network>`) the worker keeps running, comma-separated, e.g.
   * `base,polygon,solana`. Empty (the default): no watcher runs, so a development machine never polls public RPCs.
   */
  WATCHER_NETWORKS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean),
    )
    .refine((list) => list.every((n) => isNetwork(n)), `WATCHER_NETWORKS: networks among ${NETWORKS.join(', ')}`),
  /** Wait between watcher scans once caught up with the final height. */
  WATCHER_POLL_SECONDS: int(5, 1, 3600),

  /**
   * The platform's own receiving wallets for self-service purchases (merchant plans, credit packs), as
   * `network:address` pairs, e.g. `base:0x…,solana:…`. Unset: self-service purchases are refused (operators grant).
   */
  PLATFORM_RECEIVING_WALLETS: z.string().default(''),
  /** Prices of the /proof plans per 30 days, in USDC. */
  PLAN_PRICES_USDC: z.string().default(DEFAULT_PLAN_PRICES_USDC),
  /** /v1 credit packs sold for USDC, as `credits:price` pairs. */
  CREDIT_PACKS: z.string().default(DEFAULT_CREDIT_PACKS),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  readonly env: Env['NODE_ENV'];
  readonly logLevel: Env['LOG_LEVEL'];
  readonly http: {
    readonly host: string;
    readonly port: number;
    readonly publicBaseUrl: string | undefined;
    readonly trustProxy: boolean;
    /** Trusted reverse proxies in front of the API (0 when TRUST_PROXY is off): see api/http/proxy.ts. */
    readonly trustProxyHops: number;
    readonly bodyLimitJson: string;
  };
  readonly shutdownGraceMs: number;
  /** METRICS_*: where this process serves `GET /metrics` (docs/operations.md "Metrics"). */
  readonly metrics: {
    readonly port: number | undefined;
    readonly host: string;
    readonly token: string | undefined;
    /** METRICS_TEMPORAL_PORT: the Temporal SDK's own exporter (workers/temporal-runtime.ts). */
    readonly temporalPort: number | undefined;
  };
  /** OTEL_*: what adapters/tracing reads to decide whether (and where) this process exports traces. */
  readonly tracing: Readonly<Record<string, string | undefined>>;
  readonly dataDir: string;
  readonly database: {
    readonly url: string | undefined;
    readonly poolMax: number;
    readonly embeddedPort: number;
    readonly timeouts: DbTimeouts;
  };
  readonly temporal: {
    readonly address: string | undefined;
    readonly namespace: string;
    readonly taskQueue: string;
    readonly cliPath: string | undefined;
    readonly devPort: number;
    readonly uiPort: number;
    readonly workflowBundlePath: string | undefined;
    readonly worker: WorkerTuning;
  };
  readonly secretsKey: string | undefined;
  /** Earlier secrets keys: they open values sealed before a rotation, never seal. */
  readonly secretsKeysPrevious: readonly string[];
  readonly rateLimits: {
    readonly v1PerKeyPerMinute: number;
    readonly v1PerIpPerMinute: number;
    readonly proofPerKeyPerMinute: number;
    readonly proofPerIpPerMinute: number;
    readonly proofProPerHour: number;
    readonly proofRetainedResponsesPerAccount: number;
    readonly x402PerIpPerMinute: number;
    readonly integrationsPerIpPerMinute: number;
    readonly authFailuresPerIpPerMinute: number;
    /** Hits one process reserves at most from a shared counter in one statement (RATE_LIMIT_RESERVE_MAX). */
    readonly reserveMax: number;
  };
  readonly webhooks: {
    readonly allowLoopbackForTests: boolean;
    /** WEBHOOK_PRIVATE_DESTINATIONS, as origins (adapters/webhooks/url-policy.ts parsePrivateDestinations). */
    readonly privateDestinations: readonly string[];
    /** The dispatcher's attempts in flight per worker process, per destination, and rows held per tenant. */
    readonly dispatch: { readonly concurrency: number; readonly perEndpoint: number; readonly perTenant: number };
  };
  /** Options of createDomainAuditor (adapters/domain-audit); the test* ones are never set in production. */
  readonly domainAudit: {
    readonly resolvers: readonly string[];
    readonly testResolver: string | undefined;
    readonly testTlsPort: number | undefined;
    readonly testCaFile: string | undefined;
  };
  readonly dashboard: {
    /** Allowed Origin values of management mutations; empty: PUBLIC_BASE_URL's origin, else the request's own. */
    readonly origins: readonly string[];
    readonly sessionTtlMs: number;
    readonly sessionIdleMs: number;
    /** Failed sign-ins allowed in 15 minutes (domain/sign-in.ts). */
    readonly signIn: SignInLimits;
    /** How long a company invitation can be accepted. */
    readonly invitationTtlMs: number;
  };
  readonly chains: {
    /** RPC endpoints per network, in failover order. */
    readonly rpcUrls: Readonly<Record<Network, readonly string[]>>;
    readonly rpcTimeoutMs: number;
    readonly rpcRetries: number;
    /** Required confirmations per EVM network (defaults from domain/networks.ts unless overridden). */
    readonly requiredConfirmations: Readonly<Record<EvmNetwork, number>>;
  };
  readonly storage: {
    readonly dir: string;
    readonly maxFilesPerUpload: number;
    readonly maxUploadBytes: number;
    readonly companyQuotaBytes: number;
  };
  readonly media: {
    readonly qpdfPath: string;
    readonly qpdfTimeoutMs: number;
    readonly ffprobePath: string;
    readonly ocr: {
      readonly languages: readonly string[];
      readonly concurrency: number;
      readonly pageTimeoutMs: number;
      readonly tesseractPath: string;
      readonly ocrmypdfPath: string;
    };
    readonly ffmpegPath: string;
    readonly ffmpegTimeoutMs: number;
    /** VIDEO_MAX_PIXEL_FRAMES. */
    readonly videoMaxPixelFrames: number;
  };
  /** E-mail through SMTP (invoices from the worker, company invitations from the API); null when SMTP_URL is unset. */
  readonly mail: MailConfig | null;
  /**
   * The transcription engine: `offline` (undefined paths mean the ones scripts/setup.sh installs) or `openai`, whose
   * API settings are in `api` (only then).
   */
  readonly transcription: {
    readonly provider: 'offline' | 'openai';
    readonly python?: string;
    readonly modelDir?: string;
    readonly speakerModel?: string;
    readonly concurrency: number;
    readonly timeoutMs: number;
    /** CPU threads of each offline worker; absent: the machine's cores divided among the workers. */
    readonly cpuThreads?: number;
    readonly cpuKernels: SpeechCpuKernels;
    readonly api?: TranscriptionApiConfig;
    /** Target chunk length of long audio, seconds. */
    readonly chunkSeconds: number;
    /** Chunks of one job at once. */
    readonly chunksAtOnce: number;
  };
  /** The language model of meeting summaries: `none`, or `openai` with its API settings in `api` (only then). */
  readonly llm: { readonly provider: 'none' | 'openai'; readonly api?: LlmApiConfig };
  /** The field extraction engine: `offline`, or `openai` with the LLM_API_* settings in `api` (only then). */
  readonly extraction: { readonly provider: 'offline' | 'openai'; readonly api?: LlmApiConfig };
  /** The payment watchers the worker keeps running. */
  readonly watcher: { readonly networks: readonly Network[]; readonly pollSeconds: number };
  /** Self-service purchases paid to the platform's receiving wallets (domain/self-service.ts). */
  readonly selfService: SelfServiceConfig;
  readonly x402: {
    readonly payTo: `0x${string}` | undefined;
    readonly facilitator:
      | { readonly kind: 'remote'; readonly url: string }
      | { readonly kind: 'self'; readonly privateKey: `0x${string}` }
      | { readonly kind: 'none' };
    readonly paymentTimeoutSeconds: number;
    readonly settlementWaitSeconds: number;
  };
}

/** The SMTP connection and sender, parsed from SMTP_URL and MAIL_FROM. `password` is a secret. */
export interface MailConfig {
  readonly host: string;
  /** true for smtps:// (TLS from the first byte); otherwise STARTTLS when the server offers it. */
  readonly secure: boolean;
  readonly port: number;
  readonly user: string | undefined;
  /** Not enumerable (absent from JSON and inspection); read it only to authenticate. */
  readonly password: string | undefined;
  /** The sender as written in MAIL_FROM, and its bare address. */
  readonly from: string;
  readonly fromAddress: string;
  readonly timeoutMs: number;
}

/** An OpenAI-compatible HTTP API (transcription, language model). `apiKey` is a secret. */
export interface OpenAiCompatibleApiConfig {
  /** Normalized: no trailing slash. */
  readonly baseUrl: string;
  readonly model: string;
  readonly timeoutMs: number;
  /** Not enumerable (absent from JSON and inspection); read it only to authenticate. */
  readonly apiKey: string;
}
/** The OpenAI-compatible transcription API. */
export type TranscriptionApiConfig = OpenAiCompatibleApiConfig;
/** The OpenAI-compatible chat API of meeting summaries. */
export type LlmApiConfig = OpenAiCompatibleApiConfig;

/**
 * `<PREFIX>_PROVIDER=openai` and its `<PREFIX>_API_*` settings (TRANSCRIPTION, LLM). Problems are reported by variable
 * name only: the key is never echoed (nor the URL, which may hold credentials: user info, query and fragment are
 * refused, the key has its own variable).
 */
function parseOpenAiApi(
  prefix: 'TRANSCRIPTION' | 'LLM',
  e: Env,
  issues: string[],
  selectors: readonly ('TRANSCRIPTION_PROVIDER' | 'LLM_PROVIDER' | 'EXTRACTION_PROVIDER')[] = [`${prefix}_PROVIDER`],
): OpenAiCompatibleApiConfig | undefined {
  const by = selectors.filter((s) => e[s] === 'openai').map((s) => `${s}=openai`);
  if (by.length === 0) return undefined;
  const required = `required with ${by.join(' or ')}`;
  const raw = e[`${prefix}_API_BASE_URL`];
  let url: URL | null = null;
  try {
    url = raw ? new URL(raw) : null;
  } catch {
    url = null;
  }
  const urlOk =
    !!url &&
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    !!url.hostname &&
    !url.username &&
    !url.password &&
    !url.search &&
    !url.hash &&
    !raw!.includes('?') &&
    !raw!.includes('#');
  if (!urlOk)
    issues.push(
      `${prefix}_API_BASE_URL: ${required}; an http(s) URL with the API's version path (e.g. https://api.openai.com/v1), without credentials, query or fragment`,
    );
  const key = e[`${prefix}_API_KEY`];
  if (!key || !/^[\x21-\x7e]{1,4096}$/.test(key))
    issues.push(`${prefix}_API_KEY: ${required}; printable characters without spaces`);
  if (!urlOk || !key) return undefined;
  const api = {
    baseUrl: `${url!.origin}${url!.pathname.replace(/\/+$/, '')}`,
    model: e[`${prefix}_API_MODEL`],
    timeoutMs: e[`${prefix}_API_TIMEOUT_MS`],
  };
  // Not enumerable: a serialized or inspected Config never shows the key.
  return Object.defineProperty(api, 'apiKey', { value: key, enumerable: false }) as OpenAiCompatibleApiConfig;
}

/** SECRETS_KEY's shape and SECRETS_KEYS_PREVIOUS as a list; issues name the item, never its value. */
function parseSecretsKeys(current: string | undefined, previousList: string | undefined, issues: string[]): string[] {
  const currentBytes = current === undefined ? null : decodeSecretsKey(current);
  if (current !== undefined && !currentBytes)
    issues.push('SECRETS_KEY: 32 random bytes encoded as base64 (e.g. openssl rand -base64 32)');
  if (previousList === undefined) return [];
  const items = previousList.split(',').map((k) => k.trim());
  const seen: Buffer[] = [];
  items.forEach((item, i) => {
    const n = i + 1;
    const bytes = item === '' ? null : decodeSecretsKey(item);
    if (item === '') issues.push(`SECRETS_KEYS_PREVIOUS: item ${n} is empty (a comma too many?)`);
    else if (!bytes) issues.push(`SECRETS_KEYS_PREVIOUS: item ${n} is not 32 random bytes encoded as base64`);
    else if (currentBytes?.equals(bytes))
      issues.push(`SECRETS_KEYS_PREVIOUS: item ${n} is the same key as SECRETS_KEY`);
    else if (seen.some((b) => b.equals(bytes)))
      issues.push(`SECRETS_KEYS_PREVIOUS: item ${n} repeats item ${seen.findIndex((b) => b.equals(bytes)) + 1}`);
    seen.push(bytes ?? Buffer.alloc(0));
  });
  return items;
}

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`invalid configuration:\n  ${issues.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/** Validates an environment (process.env by default) into a frozen Config. Values are never echoed in errors. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  rejectTestSettingsInProduction(e);
  const issues: string[] = [];
  const rpcUrls = parseRpcUrls(e, issues);
  if (e.X402_PAY_TO !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(e.X402_PAY_TO))
    issues.push('X402_PAY_TO: an EVM address (0x + 40 hex)');
  const facilitator = parseFacilitator(e, issues);
  const mail = parseMailConfig(e, issues);
  const selfService: SelfServiceConfig = {
    platformWallets: parsePlatformWallets(e.PLATFORM_RECEIVING_WALLETS, issues),
    planPricesAtomic: parsePlanPrices(e.PLAN_PRICES_USDC, issues),
    creditPacks: parseCreditPacks(e.CREDIT_PACKS, issues),
  };
  const transcriptionApi = parseOpenAiApi('TRANSCRIPTION', e, issues);
  const llmApi = parseOpenAiApi('LLM', e, issues, ['LLM_PROVIDER', 'EXTRACTION_PROVIDER']);
  const secretsKeysPrevious = parseSecretsKeys(e.SECRETS_KEY, e.SECRETS_KEYS_PREVIOUS, issues);
  const privateDestinations = parsePrivateDestinations(e.WEBHOOK_PRIVATE_DESTINATIONS);
  if ('issues' in privateDestinations) issues.push(...privateDestinations.issues);
  requireInProduction(e, issues);
  if (issues.length) throw new ConfigError(issues);
  const config: Config = {
    ...serverConfig(e),
    temporal: temporalConfig(e),
    secretsKey: e.SECRETS_KEY,
    secretsKeysPrevious,
    ...limitsConfig(e, 'origins' in privateDestinations ? privateDestinations.origins : []),
    ...mediaConfig(e),
    chains: {
      rpcUrls,
      rpcTimeoutMs: e.RPC_TIMEOUT_MS,
      rpcRetries: e.RPC_RETRIES,
      requiredConfirmations: requiredConfirmations(e),
    },
    mail,
    ...enginesConfig(e, transcriptionApi, llmApi),
    watcher: { networks: e.WATCHER_NETWORKS as Network[], pollSeconds: e.WATCHER_POLL_SECONDS },
    selfService,
    x402: {
      payTo: e.X402_PAY_TO as `0x${string}` | undefined,
      facilitator,
      paymentTimeoutSeconds: e.X402_PAYMENT_TIMEOUT_SECONDS,
      settlementWaitSeconds: e.X402_SETTLEMENT_WAIT_SECONDS,
    },
  };
  return deepFreeze(config);
}

/** Test-only settings are refused outright in production (before any other check). */
function rejectTestSettingsInProduction(e: Env): void {
  if (e.NODE_ENV === 'production' && e.WEBHOOK_TEST_ALLOW_LOOPBACK) {
    throw new ConfigError(['WEBHOOK_TEST_ALLOW_LOOPBACK: must not be enabled in production']);
  }
  const auditTestSettings = (
    ['DOMAIN_AUDIT_TEST_RESOLVER', 'DOMAIN_AUDIT_TEST_TLS_PORT', 'DOMAIN_AUDIT_TEST_CA_FILE'] as const
  ).filter((k) => e[k] !== undefined);
  if (e.NODE_ENV === 'production' && auditTestSettings.length) {
    throw new ConfigError(auditTestSettings.map((k) => `${k}: test only, must not be set in production`));
  }
}

/** What production cannot run without (beside the parsed values' own checks). */
function requireInProduction(e: Env, issues: string[]): void {
  if (e.NODE_ENV === 'production' && !e.SECRETS_KEY)
    issues.push('SECRETS_KEY: required in production (32 random bytes, base64)');
  if (e.NODE_ENV === 'production' && !e.PUBLIC_BASE_URL) {
    issues.push(
      "PUBLIC_BASE_URL: required in production (the public URL of the API, e.g. https://pay.example.com): without it links and the Origin check would follow the request's Host header",
    );
  }
}

/** RPC_URL_<NETWORK>: one or more http(s) URLs separated by commas, per network. */
function parseRpcUrls(e: Env, issues: string[]): Record<Network, string[]> {
  const rpcUrls = {} as Record<Network, string[]>;
  for (const [network, raw] of [
    ['base', e.RPC_URL_BASE],
    ['polygon', e.RPC_URL_POLYGON],
    ['arbitrum', e.RPC_URL_ARBITRUM],
    ['optimism', e.RPC_URL_OPTIMISM],
    ['ethereum', e.RPC_URL_ETHEREUM],
    ['avalanche', e.RPC_URL_AVALANCHE],
    ['solana', e.RPC_URL_SOLANA],
  ] as const) {
    const urls = raw
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean);
    if (urls.length === 0 || urls.some((u) => !/^https?:\/\/[^\s]+$/.test(u))) {
      issues.push(`RPC_URL_${network.toUpperCase()}: one or more http(s) URLs separated by commas`);
    }
    rpcUrls[network] = urls;
  }
  return rpcUrls;
}

/** Required confirmations per EVM chain: CONFIRMATIONS_<CHAIN>, else the chain's default (docs/x402.md). */
function requiredConfirmations(e: Env): Record<EvmNetwork, number> {
  const confirmations = {
    base: e.CONFIRMATIONS_BASE,
    polygon: e.CONFIRMATIONS_POLYGON,
    arbitrum: e.CONFIRMATIONS_ARBITRUM,
    optimism: e.CONFIRMATIONS_OPTIMISM,
    ethereum: e.CONFIRMATIONS_ETHEREUM,
    avalanche: e.CONFIRMATIONS_AVALANCHE,
  };
  return Object.fromEntries(
    EVM_NETWORKS.map((n) => [n, confirmations[n] ?? EVM[n].defaultRequiredConfirmations]),
  ) as Record<EvmNetwork, number>;
}

/** X402_FACILITATOR (or a remote one implied by X402_FACILITATOR_URL) and its settings. */
function parseFacilitator(e: Env, issues: string[]): Config['x402']['facilitator'] {
  const facilitatorKind = e.X402_FACILITATOR || (e.X402_FACILITATOR_URL ? 'remote' : 'none');
  let facilitator: Config['x402']['facilitator'] = { kind: 'none' };
  if (facilitatorKind === 'remote') {
    if (!e.X402_FACILITATOR_URL || !/^https?:\/\/\S+$/.test(e.X402_FACILITATOR_URL))
      issues.push('X402_FACILITATOR_URL: required (an http(s) URL) for a remote facilitator');
    else facilitator = { kind: 'remote', url: e.X402_FACILITATOR_URL };
  } else if (facilitatorKind === 'self') {
    if (!e.X402_FACILITATOR_PRIVATE_KEY || !/^0x[0-9a-fA-F]{64}$/.test(e.X402_FACILITATOR_PRIVATE_KEY)) {
      issues.push('X402_FACILITATOR_PRIVATE_KEY: required (0x + 64 hex) for X402_FACILITATOR=self');
    } else facilitator = { kind: 'self', privateKey: e.X402_FACILITATOR_PRIVATE_KEY as `0x${string}` };
  }
  return facilitator;
}

function serverConfig(
  e: Env,
): Pick<Config, 'env' | 'logLevel' | 'http' | 'shutdownGraceMs' | 'metrics' | 'tracing' | 'dataDir' | 'database'> {
  return {
    env: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    http: {
      host: e.HOST,
      port: e.PORT,
      publicBaseUrl: e.PUBLIC_BASE_URL,
      trustProxy: e.TRUST_PROXY,
      trustProxyHops: e.TRUST_PROXY ? e.TRUST_PROXY_HOPS : 0,
      bodyLimitJson: e.BODY_LIMIT_JSON,
    },
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    metrics: {
      port: e.METRICS_PORT,
      host: e.METRICS_HOST,
      token: e.METRICS_TOKEN,
      temporalPort: e.METRICS_TEMPORAL_PORT,
    },
    tracing: {
      OTEL_TRACES_EXPORTER: e.OTEL_TRACES_EXPORTER,
      OTEL_EXPORTER_OTLP_ENDPOINT: e.OTEL_EXPORTER_OTLP_ENDPOINT,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
      OTEL_SERVICE_NAME: e.OTEL_SERVICE_NAME,
      OTEL_SDK_DISABLED: e.OTEL_SDK_DISABLED,
    },
    dataDir: e.DATA_DIR,
    database: {
      url: e.DATABASE_URL,
      poolMax: e.DATABASE_POOL_MAX,
      embeddedPort: e.EMBEDDED_PG_PORT,
      timeouts: {
        connectMs: e.DATABASE_CONNECT_TIMEOUT_MS,
        statementMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
        acquireMs: e.DATABASE_ACQUIRE_TIMEOUT_MS,
      },
    },
  };
}

function temporalConfig(e: Env): Config['temporal'] {
  return {
    address: e.TEMPORAL_ADDRESS,
    namespace: e.TEMPORAL_NAMESPACE,
    taskQueue: e.TEMPORAL_TASK_QUEUE,
    cliPath: e.TEMPORAL_CLI_PATH,
    devPort: e.TEMPORAL_DEV_PORT,
    uiPort: e.TEMPORAL_UI_PORT,
    workflowBundlePath: e.TEMPORAL_WORKFLOW_BUNDLE,
    worker: {
      workflowTasks: e.TEMPORAL_WORKER_WORKFLOW_TASKS,
      activities: e.TEMPORAL_WORKER_ACTIVITIES,
      localActivities: e.TEMPORAL_WORKER_LOCAL_ACTIVITIES,
      cachedWorkflows: e.TEMPORAL_WORKER_CACHED_WORKFLOWS,
      workflowPollers: Math.min(e.TEMPORAL_WORKER_WORKFLOW_POLLERS, e.TEMPORAL_WORKER_WORKFLOW_TASKS),
      nonStickyPollRatio: e.TEMPORAL_WORKER_NONSTICKY_POLL_RATIO,
      activityPollers: Math.min(e.TEMPORAL_WORKER_ACTIVITY_POLLERS, e.TEMPORAL_WORKER_ACTIVITIES),
    },
  };
}

function limitsConfig(
  e: Env,
  privateDestinations: readonly string[],
): Pick<Config, 'rateLimits' | 'webhooks' | 'domainAudit' | 'dashboard'> {
  return {
    rateLimits: {
      v1PerKeyPerMinute: e.RATE_LIMIT_V1_PER_KEY_PER_MINUTE,
      v1PerIpPerMinute: e.RATE_LIMIT_V1_PER_IP_PER_MINUTE,
      proofPerKeyPerMinute: e.RATE_LIMIT_PROOF_PER_KEY_PER_MINUTE,
      proofPerIpPerMinute: e.RATE_LIMIT_PROOF_PER_IP_PER_MINUTE,
      proofProPerHour: e.RATE_LIMIT_PROOF_PRO_PER_HOUR,
      proofRetainedResponsesPerAccount: e.PROOF_RETAINED_RESPONSES_PER_ACCOUNT,
      x402PerIpPerMinute: e.RATE_LIMIT_X402_PER_IP_PER_MINUTE,
      integrationsPerIpPerMinute: e.RATE_LIMIT_INTEGRATIONS_PER_IP_PER_MINUTE,
      authFailuresPerIpPerMinute: e.RATE_LIMIT_AUTH_FAILURES_PER_IP_PER_MINUTE,
      reserveMax: e.RATE_LIMIT_RESERVE_MAX,
    },
    webhooks: {
      allowLoopbackForTests: e.WEBHOOK_TEST_ALLOW_LOOPBACK,
      privateDestinations,
      dispatch: {
        concurrency: e.WEBHOOK_DISPATCH_CONCURRENCY,
        perEndpoint: Math.min(e.WEBHOOK_DISPATCH_PER_DESTINATION, e.WEBHOOK_DISPATCH_CONCURRENCY),
        perTenant: Math.min(
          e.WEBHOOK_DISPATCH_PER_TENANT ?? Math.ceil(e.WEBHOOK_DISPATCH_CONCURRENCY / 2),
          e.WEBHOOK_DISPATCH_CONCURRENCY,
        ),
      },
    },
    domainAudit: {
      resolvers: e.DOMAIN_AUDIT_RESOLVERS,
      testResolver: e.DOMAIN_AUDIT_TEST_RESOLVER,
      testTlsPort: e.DOMAIN_AUDIT_TEST_TLS_PORT,
      testCaFile: e.DOMAIN_AUDIT_TEST_CA_FILE,
    },
    dashboard: {
      origins: e.DASHBOARD_ORIGINS ? e.DASHBOARD_ORIGINS.split(',').map((o) => o.trim().toLowerCase()) : [],
      sessionTtlMs: e.SESSION_TTL_HOURS * 3_600_000,
      sessionIdleMs: e.SESSION_IDLE_MINUTES * 60_000,
      signIn: {
        perIpAccount: e.RATE_LIMIT_SIGN_IN_FAILURES_PER_IP_ACCOUNT_PER_15_MINUTES,
        perIp: e.RATE_LIMIT_SIGN_IN_FAILURES_PER_IP_PER_15_MINUTES,
        perAccount: e.RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT_PER_15_MINUTES,
      },
      invitationTtlMs: e.COMPANY_INVITATION_TTL_HOURS * 3_600_000,
    },
  };
}

function mediaConfig(e: Env): Pick<Config, 'storage' | 'media'> {
  return {
    storage: {
      dir: e.STORAGE_DIR ?? `${e.DATA_DIR}/storage`,
      maxFilesPerUpload: e.UPLOAD_MAX_FILES,
      maxUploadBytes: e.UPLOAD_MAX_REQUEST_MB * 1_000_000,
      companyQuotaBytes: e.COMPANY_STORAGE_MB * 1_000_000,
    },
    media: {
      qpdfPath: e.QPDF_PATH,
      qpdfTimeoutMs: e.QPDF_TIMEOUT_MS,
      ffprobePath: e.FFPROBE_PATH,
      ffmpegPath: e.FFMPEG_PATH,
      ffmpegTimeoutMs: e.FFMPEG_TIMEOUT_MS,
      videoMaxPixelFrames: e.VIDEO_MAX_PIXEL_FRAMES,
      ocr: {
        languages: e.OCR_LANGUAGES,
        concurrency: e.OCR_CONCURRENCY,
        pageTimeoutMs: e.OCR_PAGE_TIMEOUT_MS,
        tesseractPath: e.TESSERACT_PATH,
        ocrmypdfPath: e.OCRMYPDF_PATH,
      },
    },
  };
}

function enginesConfig(
  e: Env,
  transcriptionApi: OpenAiCompatibleApiConfig | undefined,
  llmApi: OpenAiCompatibleApiConfig | undefined,
): Pick<Config, 'transcription' | 'llm' | 'extraction'> {
  return {
    transcription: {
      provider: e.TRANSCRIPTION_PROVIDER || 'offline',
      python: e.TRANSCRIPTION_PYTHON,
      modelDir: e.TRANSCRIPTION_MODEL_DIR,
      speakerModel: e.TRANSCRIPTION_SPEAKER_MODEL,
      concurrency: e.TRANSCRIPTION_CONCURRENCY,
      timeoutMs: e.TRANSCRIPTION_TIMEOUT_MS,
      ...(e.TRANSCRIPTION_CPU_THREADS > 0 ? { cpuThreads: e.TRANSCRIPTION_CPU_THREADS } : {}),
      cpuKernels: e.TRANSCRIPTION_CPU_KERNELS,
      ...(transcriptionApi ? { api: transcriptionApi } : {}),
      chunkSeconds: e.TRANSCRIPTION_CHUNK_SECONDS,
      chunksAtOnce: e.TRANSCRIPTION_CHUNKS_AT_ONCE,
    },
    llm: { provider: e.LLM_PROVIDER || 'none', ...(llmApi && e.LLM_PROVIDER === 'openai' ? { api: llmApi } : {}) },
    extraction: {
      provider: e.EXTRACTION_PROVIDER || 'offline',
      ...(llmApi && e.EXTRACTION_PROVIDER === 'openai' ? { api: llmApi } : {}),
    },
  };
}

const EMAIL_ADDRESS =
  /^[^\s@<>()",;:\\[\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

/**
 * SMTP_URL and MAIL_FROM into a MailConfig (null when SMTP_URL is unset). Problems are reported by variable
 * name only: the URL holds a password and is never echoed.
 */
function parseMailConfig(e: Env, issues: string[]): MailConfig | null {
  if (!e.SMTP_URL) {
    if (e.MAIL_FROM !== undefined && !parseSender(e.MAIL_FROM))
      issues.push('MAIL_FROM: an e-mail address, optionally as `Name <address>`');
    return null;
  }
  let url: URL | null = null;
  try {
    url = new URL(e.SMTP_URL);
  } catch {
    url = null;
  }
  const urlProblem =
    'SMTP_URL: smtp://[user:password@]host[:port] or smtps://…, without path or query (percent-encode special characters of the password)';
  if (
    !url ||
    (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') ||
    !url.hostname ||
    (url.pathname !== '' && url.pathname !== '/') ||
    url.search ||
    url.hash
  ) {
    issues.push(urlProblem);
  }
  let user: string | undefined;
  let password: string | undefined;
  try {
    user = url?.username ? decodeURIComponent(url.username) : undefined;
    password = url?.password ? decodeURIComponent(url.password) : undefined;
  } catch {
    issues.push(urlProblem);
  }
  if (password !== undefined && user === undefined) issues.push('SMTP_URL: a password needs a user name');
  const sender = e.MAIL_FROM === undefined ? null : parseSender(e.MAIL_FROM);
  if (!sender) issues.push('MAIL_FROM: required with SMTP_URL; an e-mail address, optionally as `Name <address>`');
  if (!url || !sender || issues.length) return null;
  const secure = url.protocol === 'smtps:';
  const mail = {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    secure,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    user,
    from: e.MAIL_FROM!,
    fromAddress: sender,
    timeoutMs: e.SMTP_TIMEOUT_MS,
  };
  // Not enumerable: a serialized or inspected Config never shows the password.
  return Object.defineProperty(mail, 'password', { value: password, enumerable: false }) as MailConfig;
}

/** The bare address of `addr@example.com` or `Display Name <addr@example.com>`; null if neither. */
function parseSender(raw: string): string | null {
  if (/[\r\n]/.test(raw)) return null;
  const named = /^[^<>\r\n]*<([^<>\s]+)>$/.exec(raw);
  const address = named ? named[1]! : raw;
  return EMAIL_ADDRESS.test(address) ? address : null;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
