import { createHash } from 'node:crypto';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { PaymentRequired, SettleResponse } from '@x402/core/types';
import { formatUsdc } from '../../domain/money.js';
import { FEE_NETWORK } from '../../domain/networks.js';
import type { KeptAnswer, PaidCalls } from '../../services/x402/paid-call.js';
import { manifestEntry, type ManifestResource } from '../../services/x402/discovery.js';
import type { PaidRouteSpec } from '../../services/x402/paid-route.js';
import type { OperationResult, PaidOperation } from '../../services/x402/paid-operations.js';

/** `_meta` keys of the x402 MCP transport (x402-foundation/x402 `specs/transports-v2/mcp.md`). */
export const X402_PAYMENT_META = 'x402/payment';
export const X402_PAYMENT_RESPONSE_META = 'x402/payment-response';

/** JSON Schema of an x402 v2 PaymentRequired: the structured content of a tool result that asks for payment. */
export const PAYMENT_REQUIRED_SCHEMA = {
  type: 'object',
  description:
    'x402 v2 PaymentRequired (with isError: true): pay one of `accepts` and call the tool again with the payment in params._meta["x402/payment"]',
  required: ['x402Version', 'resource', 'accepts'],
  properties: {
    x402Version: { const: 2 },
    error: { type: 'string' },
    resource: {
      type: 'object',
      required: ['url'],
      properties: { url: { type: 'string' }, description: { type: 'string' }, mimeType: { type: 'string' } },
    },
    accepts: { type: 'array', minItems: 1, items: { type: 'object' } },
    extensions: { type: 'object' },
  },
} as const;

/** Structured content of the evidence PDF tool (the PDF itself is the embedded resource). */
export const PDF_TOOL_OUTPUT_SCHEMA = {
  type: 'object',
  required: ['filename', 'mime_type', 'size_bytes', 'sha256', 'evidence_sha256', 'resource_uri'],
  properties: {
    filename: { type: 'string' },
    mime_type: { const: 'application/pdf' },
    size_bytes: { type: 'integer', minimum: 1 },
    sha256: {
      type: 'string',
      pattern: '^[0-9a-f]{64}$',
      description: 'SHA-256 of the PDF bytes (the embedded resource)',
    },
    evidence_sha256: {
      type: 'string',
      pattern: '^[0-9a-f]{64}$',
      description: 'SHA-256 of evidence.json, the Verify JSON attached inside the PDF',
    },
    resource_uri: { type: 'string', description: 'URI of the embedded PDF resource' },
  },
} as const;

/** One paid MCP tool: the operation it runs and how it appears in tools/list and in its x402 challenge. */
export interface McpTool {
  name: string;
  op: PaidOperation;
  /** The payment spec of the tool's challenge (fee, description, bazaar MCP declaration). */
  payment: PaidRouteSpec;
  definition: Tool;
  /** The tool's x402 resource URL on this server (`mcp://{host}/tools/{name}`). */
  resourceUrl(origin: string): string;
  /** The result of a paid, settled call. */
  render(answer: KeptAnswer, settlement: SettleResponse): CallToolResult;
}

/** The argument schema of a tool: the route's query schema, closed (unknown arguments are refused). */
const toolInputSchema = (schema: object) => ({
  ...(schema as Record<string, unknown>),
  type: 'object' as const,
  additionalProperties: false,
});

/** Builds the tools of the paid operations: one table (paid-operations.ts) behind the HTTP routes and the tools. */
export function mcpTools(ops: readonly PaidOperation[]): Map<string, McpTool> {
  const tools = new Map<string, McpTool>();
  for (const op of ops) {
    const isPdf = op.spec.mimeType === 'application/pdf';
    const success = isPdf ? PDF_TOOL_OUTPUT_SCHEMA : op.spec.outputSchema;
    const inputSchema = toolInputSchema(op.spec.inputSchema);
    const price = {
      amount_atomic: op.spec.priceAtomic,
      amount_usdc: formatUsdc(BigInt(op.spec.priceAtomic)),
      asset: FEE_NETWORK.usdc,
      network: FEE_NETWORK.caip2,
      scheme: 'exact',
    };
    const payment: PaidRouteSpec = {
      ...op.spec,
      path: '/mcp',
      description: op.tool.description,
      mimeType: isPdf ? 'application/json' : op.spec.mimeType,
      inputSchema,
      outputSchema: success,
      ...(isPdf ? { outputExample: PDF_OUTPUT_EXAMPLE } : {}),
      mcpToolName: op.tool.name,
    };
    tools.set(op.tool.name, {
      name: op.tool.name,
      op,
      payment,
      resourceUrl: (origin) => `mcp://${new URL(origin).host}/tools/${op.tool.name}`,
      definition: {
        name: op.tool.name,
        title: op.tool.title,
        description: `${op.tool.description} Unpaid, the call returns isError with an x402 PaymentRequired in structuredContent.`,
        inputSchema: inputSchema as Tool['inputSchema'],
        // The structured content is the result, or (isError) the x402 PaymentRequired of the MCP transport.
        outputSchema: { type: 'object', anyOf: [success, PAYMENT_REQUIRED_SCHEMA] } as Tool['outputSchema'],
        annotations: {
          title: op.tool.title,
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: true,
        },
        _meta: { 'x402/price': price },
      },
      render: (answer, settlement) => ({
        ...(isPdf ? pdfContent(answer) : jsonContent(answer)),
        _meta: { [X402_PAYMENT_RESPONSE_META]: settlement },
      }),
    });
  }
  return tools;
}

const PDF_OUTPUT_EXAMPLE = {
  filename: 'usdc-evidence-base-0x3f1c9a6e5b7d2c4a.pdf',
  mime_type: 'application/pdf',
  size_bytes: 48211,
  sha256: '9c1185a5c5e9fc54612808977ee8f548b2258d31e9d6e2f3a4c1b0f2e7d8a9b0',
  evidence_sha256: '4e07408562bedb8b60ce05c1decfe3ad16b72230967de01f640b7e4729b49fce',
  resource_uri: 'https://pay.example.com/x402/v1/usdc/evidence.pdf?tx_hash=0x3f1c9a6e5b7d2c4a&network=base',
};

function jsonContent(answer: KeptAnswer): Pick<CallToolResult, 'content' | 'structuredContent'> {
  const text = answer.body.toString('utf8');
  return { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) as Record<string, unknown> };
}

function pdfContent(answer: KeptAnswer): Pick<CallToolResult, 'content' | 'structuredContent'> {
  const filename = /filename="([^"]+)"/.exec(answer.headers['Content-Disposition'] ?? '')?.[1] ?? 'usdc-evidence.pdf';
  const sha256 = createHash('sha256').update(answer.body).digest('hex');
  const uri = answer.headers['X-Resource-URI'] ?? `urn:usdc-evidence:${filename}`;
  const structured = {
    filename,
    mime_type: 'application/pdf',
    size_bytes: answer.body.length,
    sha256,
    evidence_sha256: answer.headers['X-Evidence-SHA256'] ?? '',
    resource_uri: uri,
  };
  return {
    content: [
      { type: 'resource', resource: { uri, mimeType: 'application/pdf', blob: answer.body.toString('base64') } },
      {
        type: 'text',
        text: `USDC transfer evidence PDF ${filename}, ${answer.body.length} bytes, SHA-256 ${sha256}. It is evidence, not a tax invoice.`,
      },
    ],
    structuredContent: structured,
  };
}

/** The kept answer of an operation's result (the same bytes the HTTP route sends), with what MCP needs to render it. */
export function answerOf(result: OperationResult, resourceUri: string): KeptAnswer {
  if (result.kind === 'json') {
    return {
      status: 200,
      contentType: 'application/json; charset=utf-8',
      headers: {},
      body: Buffer.from(JSON.stringify(result.value)),
    };
  }
  return {
    status: 200,
    contentType: 'application/pdf',
    headers: {
      'Content-Disposition': `inline; filename="${result.filename}"`,
      'X-Evidence-SHA256': result.evidenceSha256,
      'X-Resource-URI': resourceUri,
    },
    body: Buffer.from(result.pdf),
  };
}

/** A tool result asking for payment (or refusing one): the x402 PaymentRequired as structured content and as text. */
export function paymentRequiredResult(paymentRequired: PaymentRequired, settlement?: SettleResponse): CallToolResult {
  return {
    isError: true,
    structuredContent: paymentRequired as unknown as Record<string, unknown>,
    content: [{ type: 'text', text: JSON.stringify(paymentRequired) }],
    ...(settlement ? { _meta: { [X402_PAYMENT_RESPONSE_META]: settlement } } : {}),
  };
}

/** A tool error a model can act on: `{error, code, ...}` as text, nothing charged. */
export function toolError(code: string, message: string, extra: Record<string, unknown> = {}): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: message, code, ...extra }) }] };
}

/**
 * The discovery manifest's entries of the paid tools (type "mcp"): the MCP endpoint, the tool name and transport;
 * complete with the tool's live `accepts` when payments answer, else a bare pointer (services/x402/discovery.ts).
 */
export function mcpManifestEntries(
  tools: Map<string, McpTool>,
  origin: string,
  calls: PaidCalls | null,
): Promise<ManifestResource[]> {
  return Promise.all(
    [...tools.values()].map((tool) =>
      manifestEntry(
        { url: `${origin}/mcp`, method: 'POST', description: tool.op.tool.description },
        {
          mimeType: 'application/json',
          extras: {
            type: 'mcp',
            transport: 'streamable-http',
            toolName: tool.name,
            operation: tool.op.spec.operation,
            inputSchema: tool.definition.inputSchema,
            outputSchema: tool.payment.outputSchema,
          },
        },
        calls ? async () => (await calls.challenge(tool.payment, tool.resourceUrl(origin))).accepts : undefined,
      ).then((entry) => ({ type: 'mcp', toolName: tool.name, ...entry })),
    ),
  );
}
