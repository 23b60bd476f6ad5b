import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { parsePaymentPayload } from '@x402/core/schemas';
import type { PaymentPayload } from '@x402/core/types';
import type { Logger } from '../../adapters/logging/logger.js';
import { DomainError } from '../../domain/errors.js';
import { jsonBody } from '../http/body.js';
import type { PublicCorsOptions } from '../http/cors.js';
import type { AppState } from '../http/context.js';
import { statusOf } from '../http/errors.js';
import { publicBase } from '../http/public-origin.js';
import { createRouter } from '../http/router.js';
import { paymentOutcome, type PaidCalls, type PresentedPayment } from '../../services/x402/paid-call.js';
import type { RawArgs } from '../../services/x402/paid-operations.js';
import { mcpHostGuard } from './host-guard.js';
import { answerOf, paymentRequiredResult, toolError, X402_PAYMENT_META, type McpTool } from './tools.js';
import type { PlatformMetrics } from '../../adapters/metrics/metrics.js';

export interface McpRouterDeps {
  logger: Logger;
  rateLimit: Middleware<AppState>;
  /** The paid tools (tools.ts mcpTools over services/x402/paid-operations.ts). */
  tools: Map<string, McpTool>;
  /** The transport-neutral x402 payment flow; null when payments are not configured (paid tools then refuse). */
  payments: PaidCalls | null;
  publicBaseUrl: string | undefined;
  version: string;
  /** The API's metrics: each paid tool call that reached the payment flow, by tool and outcome. */
  metrics?: Pick<PlatformMetrics, 'mcpToolCalls'> | undefined;
}

/** A JSON-RPC request body is small: the arguments of a tool and an x402 payment payload. */
const BODY_LIMIT = '64kb';

const INSTRUCTIONS =
  'Read-only inspection of native USDC transfers on seven networks and a public DNS/TLS check of a domain, paid per call ' +
  'with x402 v2 in native USDC on Base. A tool called without payment returns isError with an x402 PaymentRequired in ' +
  'structuredContent; an x402 wallet pays it and repeats the same call with the payment in params._meta["x402/payment"]. ' +
  'The settlement comes back in result._meta["x402/payment-response"]. Listing tools is free; adding this server authorizes no spending.';

/**
 * `{base_url}/mcp`: the public MCP server (Streamable HTTP, stateless: every POST carries whole JSON-RPC messages
 * and gets JSON back; no session, so any API process can answer any request). `initialize`, `ping`, `tools/list`
 * and `logging/setLevel` are free; `tools/call` of a paid tool follows the x402 MCP transport (paid-call.ts does
 * the payment; tools.ts renders the results). GET (a server-to-client stream) and DELETE (ending a session) answer
 * 405: a stateless server has neither.
 */
export function mcpRouter(deps: McpRouterDeps): Router<AppState> {
  const router = createRouter();
  const { tools } = deps;
  const parseBody = jsonBody(BODY_LIMIT);
  // Host and Origin are checked first (DNS rebinding): a refused request is neither counted nor read.
  const hostGuard = mcpHostGuard(deps.publicBaseUrl);

  router.post('/mcp', hostGuard, deps.rateLimit, async (ctx) => {
    // A body that is not JSON (or too large, or of another type) is refused in the JSON-RPC error shape (errors.ts).
    await parseBody(ctx, async () => undefined);
    // PUBLIC_BASE_URL, else the request's own host, which hostGuard has limited to a loopback name.
    const origin = publicBase(deps.publicBaseUrl, ctx);
    const server = new Server(
      {
        name: 'usdc-verification',
        title: 'Native USDC verification (x402)',
        version: deps.version,
        websiteUrl: `${origin}/x402/docs`,
      },
      { capabilities: { tools: { listChanged: false }, logging: {} }, instructions: INSTRUCTIONS },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...tools.values()].map((t) => t.definition) }));
    server.setRequestHandler(CallToolRequestSchema, (request) =>
      callTool(deps, tools, request.params, origin, ctx.state.requestId),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    ctx.respond = false;
    const done = new Promise<void>((resolve) => {
      ctx.res.once('close', resolve);
      ctx.res.once('finish', resolve);
    });
    try {
      await transport.handleRequest(ctx.req, ctx.res, ctx.request.body);
      await done;
    } finally {
      await transport.close().catch(() => undefined);
      await server.close().catch(() => undefined);
    }
  });
  const noStream: Middleware<AppState> = () => {
    throw new DomainError(
      'method_not_allowed',
      'Method not allowed: this MCP server is stateless (POST only; no server-to-client stream, no session)',
      { allow: 'POST' },
    );
  };
  router.get('/mcp', hostGuard, deps.rateLimit, noStream);
  router.delete('/mcp', hostGuard, deps.rateLimit, noStream);
  return router;
}

/** The payment a tool call presents in params._meta["x402/payment"]. */
function presentedPayment(meta: Record<string, unknown> | undefined): PresentedPayment {
  const raw = meta?.[X402_PAYMENT_META];
  if (raw === undefined || raw === null) return { kind: 'none' };
  // x402 v2 only (a v1 payload has no `accepted`): anything else is not a payment this server can take.
  const parsed = parsePaymentPayload(raw);
  return parsed.success && parsed.data.x402Version === 2
    ? { kind: 'payload', payload: parsed.data as PaymentPayload }
    : { kind: 'undecodable', reason: 'invalid_payment_payload' };
}

/** Arguments must be the declared ones, each a string (the HTTP route's query parameters). */
function argumentIssues(tool: McpTool, args: Record<string, unknown>): Array<{ param: string; message: string }> {
  const declared = (tool.definition.inputSchema.properties ?? {}) as Record<string, unknown>;
  const issues: Array<{ param: string; message: string }> = [];
  for (const [name, value] of Object.entries(args)) {
    if (!(name in declared)) issues.push({ param: name, message: `unknown argument ${name}` });
    else if (typeof value !== 'string') issues.push({ param: name, message: `${name} must be a string` });
  }
  return issues;
}

async function callTool(
  deps: McpRouterDeps,
  tools: Map<string, McpTool>,
  params: {
    name: string;
    arguments?: Record<string, unknown> | undefined;
    _meta?: Record<string, unknown> | undefined;
  },
  origin: string,
  requestId: string,
): Promise<CallToolResult> {
  const tool = tools.get(params.name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
  const args = params.arguments ?? {};
  // Invalid arguments are refused before any payment is asked (the HTTP routes' 422), never charged.
  const shape = argumentIssues(tool, args);
  if (shape.length) return toolError('validation_failed', 'Invalid arguments; see issues', { issues: shape });
  const parsed = tool.op.parse(args as RawArgs);
  if (!parsed.ok) return toolError('validation_failed', 'Invalid arguments; see issues', { issues: parsed.issues });
  if (!deps.payments)
    return toolError(
      'payments_not_configured',
      'Paid tools are unavailable: payments are not configured on this server',
    );

  const resourceUrl = tool.resourceUrl(origin);
  let refusal: DomainError | undefined;
  try {
    const payment = presentedPayment(params._meta);
    const outcome = await deps.payments.process({
      route: tool.payment,
      resourceUrl,
      args: parsed.value,
      payment,
      requestId,
      run: async () => {
        try {
          return { ok: true, answer: answerOf(await tool.op.execute(parsed.value), evidenceUri(origin, args)) };
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          refusal = err;
          return { ok: false, status: statusOf('x402', err.code) };
        }
      },
    });
    deps.metrics?.mcpToolCalls.inc({ tool: tool.name, outcome: paymentOutcome(outcome, payment.kind !== 'none') });
    switch (outcome.kind) {
      case 'delivered':
        return tool.render(outcome.answer, outcome.settlement);
      case 'refused':
        return paymentRequiredResult(outcome.paymentRequired, outcome.settlement);
      case 'pending':
        return toolError('payment_settlement_uncertain', outcome.message, {
          retry_after_seconds: outcome.retryAfterSeconds,
        });
      case 'not_run':
        return toolError(
          refusal?.code ?? 'internal_error',
          refusal?.message ?? 'The tool failed; you were not charged',
          { charged: false },
        );
    }
  } catch (err) {
    if (err instanceof DomainError) return toolError(err.code, err.message);
    deps.logger.error({ err, requestId, tool: tool.name }, 'mcp tool call failed');
    return toolError('internal_error', 'Internal error; you were not charged');
  }
}

/** The URI of the embedded evidence PDF: the HTTP route that serves the same document. */
function evidenceUri(origin: string, args: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const key of ['tx_hash', 'network']) if (typeof args[key] === 'string') q.set(key, args[key]);
  return `${origin}/x402/v1/usdc/evidence.pdf?${q.toString()}`;
}

/**
 * Cross-origin use of /mcp by browser-based MCP clients: credential-free (no key, no cookie), so any origin may
 * POST JSON-RPC with the MCP headers. The payment travels inside the JSON-RPC body, so no x402 header is needed.
 */
export function mcpCorsOptions(): PublicCorsOptions {
  return {
    paths: ['/mcp'],
    allowMethods: ['POST', 'GET', 'DELETE'],
    allowHeaders: ['Content-Type', 'Accept', 'Mcp-Protocol-Version', 'Mcp-Session-Id', 'Last-Event-ID', 'X-Request-Id'],
    exposeHeaders: [
      'Mcp-Session-Id',
      'Retry-After',
      'X-Request-Id',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
    ],
    maxAgeSeconds: 600,
  };
}
