import {
  x402ResourceServer,
  type FacilitatorClient,
  type HTTPAdapter,
  type HTTPRequestContext,
  type HTTPTransportContext,
} from '@x402/core/server';
import {
  SettleError,
  VerifyError,
  type PaymentPayload,
  type PaymentRequired,
  type PaymentRequirements,
  type SettleResponse,
  type VerifyResponse,
} from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { bazaarResourceServerExtension, declareDiscoveryExtension } from '@x402/extensions/bazaar';
import { z } from 'zod';
import { FEE_NETWORK } from '../../domain/networks.js';
import { FEE_NETWORK_ID } from './facilitator.js';

/** What the payment layer needs to know about a paid resource (services/x402/paid-route.ts extends it). */
export interface PaidResource {
  /** Fee in atomic USDC (digits only, > 0). */
  priceAtomic: string;
  description: string;
  mimeType: string;
  /** JSON Schema of the query parameters (an object schema: properties, required, ...). */
  inputSchema: object;
  /** JSON Schema of the successful response body. */
  outputSchema: object;
  /** Optional example query for discovery catalogs. */
  inputExample?: Record<string, string>;
  /** Optional example response for discovery catalogs (default `{}`; bazaar only publishes the output schema beside an example). */
  outputExample?: unknown;
  /** Set for an MCP tool: its bazaar declaration is the MCP one (tool name, Streamable HTTP) instead of an HTTP query. */
  mcpToolName?: string;
}

/** A framework-neutral view of the HTTP request (the Koa middleware builds it). */
export interface RequestView {
  method: string;
  /** Full URL as received. */
  url: string;
  path: string;
  header(name: string): string | undefined;
  query: Record<string, string | string[]>;
}

/** The EIP-3009 authorization inside an `exact` EVM payment payload, validated. */
export interface Eip3009Authorization {
  from: `0x${string}`;
  to: `0x${string}`;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: `0x${string}`;
}

const addr = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .transform((v) => v as `0x${string}`);
const uint = z.string().regex(/^\d{1,78}$/);
const eip3009Payload = z.object({
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]+$/)
    .optional(),
  authorization: z.object({
    from: addr,
    to: addr,
    value: uint,
    validAfter: uint,
    validBefore: uint,
    nonce: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/)
      .transform((v) => v as `0x${string}`),
  }),
});

/** The authorization of an EIP-3009 `exact` payload, or null for any other (or malformed) payload. */
export function eip3009AuthorizationOf(payload: PaymentPayload): Eip3009Authorization | null {
  const parsed = eip3009Payload.safeParse(payload.payload);
  return parsed.success ? parsed.data.authorization : null;
}

export type MatchResult =
  | { ok: true; requirements: PaymentRequirements }
  | { ok: false; reason: 'no_matching_requirements' | 'extension_echo_mismatch' | 'unsupported_x402_version' };

/**
 * The resource-server side of x402 v2 for /x402 fees, built on @x402/core's x402ResourceServer with the
 * @x402/evm `exact` scheme on Base and the @x402/extensions bazaar discovery extension. Transport-neutral:
 * the Koa middleware (api/x402/payment.middleware.ts) decides statuses and bodies.
 */
export interface X402PaymentServer {
  /** Fetches the facilitator's supported kinds once (retried on the next call after a failure). */
  ready(): Promise<void>;
  /** The PaymentRequired challenge of a resource (the PAYMENT-REQUIRED header content). */
  paymentRequired(
    resource: PaidResource,
    resourceUrl: string,
    error?: string,
    request?: RequestView,
  ): Promise<PaymentRequired>;
  /** The advertised requirement a payload was signed for, after checking its extension echoes. */
  match(paymentRequired: PaymentRequired, payload: PaymentPayload): MatchResult;
  /** The facilitator's verdict; throws only when there is none (unreachable, timeout, malformed answer). */
  verify(
    payload: PaymentPayload,
    requirements: PaymentRequirements,
    paymentRequired: PaymentRequired,
    request?: RequestView,
  ): Promise<VerifyResponse>;
  /** The facilitator's settlement answer; throws only when there is none (the outcome is then unknown). */
  settle(
    payload: PaymentPayload,
    requirements: PaymentRequirements,
    paymentRequired: PaymentRequired,
    request?: RequestView,
  ): Promise<SettleResponse>;
}

export function createX402PaymentServer(opts: {
  facilitator: FacilitatorClient;
  payTo: `0x${string}`;
  maxTimeoutSeconds: number;
  /** Wait this long before asking an unreachable facilitator again. Default 5 s. */
  retryAfterFailureMs?: number;
}): X402PaymentServer {
  const server = new x402ResourceServer(opts.facilitator);
  server.register(FEE_NETWORK_ID, new ExactEvmScheme());
  server.registerExtension(bazaarResourceServerExtension);
  let init: Promise<void> | undefined;
  let failedAt = 0;

  // HTTP resources carry their request (or a GET of the resource URL); an MCP tool's resource (mcp://...) has none.
  const transport = (request: RequestView | undefined, url: string): HTTPTransportContext | undefined =>
    request || /^https?:/.test(url) ? { request: httpContext(request, url) } : undefined;

  return {
    ready() {
      if (!init || (failedAt && Date.now() - failedAt >= (opts.retryAfterFailureMs ?? 5_000))) {
        failedAt = 0;
        init = server.initialize().catch((err: unknown) => {
          failedAt = Date.now();
          throw err;
        });
      }
      return init;
    },
    async paymentRequired(resource, resourceUrl, error, request) {
      await this.ready();
      if (!/^[1-9]\d*$/.test(resource.priceAtomic))
        throw new Error(`x402: priceAtomic must be a positive integer, got ${resource.priceAtomic}`);
      const requirements = await server.buildPaymentRequirements({
        scheme: 'exact',
        network: FEE_NETWORK_ID,
        payTo: opts.payTo,
        maxTimeoutSeconds: opts.maxTimeoutSeconds,
        price: { asset: FEE_NETWORK.usdc, amount: resource.priceAtomic, extra: { name: 'USD Coin', version: '2' } },
      });
      // An MCP tool call has no HTTP request of its own to describe.
      const context = resource.mcpToolName ? undefined : transport(request, resourceUrl);
      const extensions = context
        ? server.enrichExtensions(discoveryDeclaration(resource), context.request)
        : discoveryDeclaration(resource);
      return server.createPaymentRequiredResponse(
        requirements,
        { url: resourceUrl, description: resource.description, mimeType: resource.mimeType },
        error,
        extensions,
        context,
      );
    },
    match(paymentRequired, payload) {
      if (payload.x402Version !== 2) return { ok: false, reason: 'unsupported_x402_version' };
      const requirements = server.findMatchingRequirements(paymentRequired.accepts, payload);
      if (!requirements) return { ok: false, reason: 'no_matching_requirements' };
      const echo = server.validateExtensions(paymentRequired, payload);
      if (!echo.valid) return { ok: false, reason: 'extension_echo_mismatch' };
      return { ok: true, requirements };
    },
    // A remote facilitator answers a refusal with an HTTP error carrying the verdict (VerifyError /
    // SettleError): that is an answer, not an outage. Anything else thrown means the outcome is unknown.
    async verify(payload, requirements, paymentRequired, request) {
      try {
        return await server.verifyPayment(
          payload,
          requirements,
          paymentRequired.extensions,
          transport(request, paymentRequired.resource.url),
        );
      } catch (err) {
        if (err instanceof VerifyError)
          return { isValid: false, invalidReason: err.invalidReason ?? 'invalid_payment', payer: err.payer };
        throw err;
      }
    },
    async settle(payload, requirements, paymentRequired, request) {
      try {
        return await server.settlePayment(
          payload,
          requirements,
          paymentRequired.extensions,
          transport(request, paymentRequired.resource.url),
        );
      } catch (err) {
        if (err instanceof SettleError) {
          return {
            success: false,
            errorReason: err.errorReason ?? 'settlement_failed',
            transaction: err.transaction,
            network: err.network,
            payer: err.payer,
          };
        }
        throw err;
      }
    },
  };
}

/** The bazaar discovery declaration of a GET resource (query-parameter schema) or an MCP tool, with its output schema. */
function discoveryDeclaration(resource: PaidResource): Record<string, unknown> {
  if (resource.mcpToolName) {
    return declareDiscoveryExtension({
      toolName: resource.mcpToolName,
      description: resource.description,
      transport: 'streamable-http',
      inputSchema: resource.inputSchema as Record<string, unknown>,
      ...(resource.inputExample ? { example: resource.inputExample } : {}),
      output: { example: resource.outputExample ?? {}, schema: resource.outputSchema as Record<string, unknown> },
    });
  }
  const declaration = declareDiscoveryExtension({
    input: resource.inputExample ?? {},
    inputSchema: resource.inputSchema as Record<string, unknown>,
    output: { example: resource.outputExample ?? {}, schema: resource.outputSchema as Record<string, unknown> },
  });
  // The declaration always says `output.type: "json"`; a binary answer (the evidence PDF) says what it is.
  const output = (declaration['bazaar'] as { info: { output?: Record<string, unknown> } }).info.output;
  if (output && !/^application\/json\b/.test(resource.mimeType))
    Object.assign(output, { type: 'binary', format: resource.mimeType });
  return declaration;
}

/** The @x402/core HTTP request context of a request (or of a GET on the resource URL, when there is none). */
function httpContext(request: RequestView | undefined, resourceUrl: string): HTTPRequestContext {
  const view: RequestView = request ?? {
    method: 'GET',
    url: resourceUrl,
    path: new URL(resourceUrl).pathname,
    header: () => undefined,
    query: {},
  };
  const adapter: HTTPAdapter = {
    getHeader: (name) => view.header(name),
    getMethod: () => view.method,
    getPath: () => view.path,
    getUrl: () => view.url,
    getAcceptHeader: () => view.header('accept') ?? '',
    getUserAgent: () => view.header('user-agent') ?? '',
    getQueryParams: () => view.query,
    getQueryParam: (name) => view.query[name],
  };
  // Paid routes are GET; a HEAD is challenged exactly like its GET (the bazaar declaration names the method).
  const method = view.method === 'HEAD' ? 'GET' : view.method;
  return { adapter, path: view.path, method, paymentHeader: view.header('payment-signature') };
}
