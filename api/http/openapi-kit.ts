import type Router from '@koa/router';
import { z } from 'zod';
import type { AppState } from './context.js';
import type { ErrorCode } from '../../domain/errors.js';
import type { InterfaceName } from './context.js';
import { statusOf } from './errors.js';
import { escapeHtml, htmlPageHeaders } from './html.js';
import { REQUEST_ID_PATTERN } from './request-id.js';
import { idRegex } from '../../domain/ids.js';
import { routesOf } from './router.js';

/**
 * Pieces shared by the OpenAPI 3.1 documents of the interfaces (`/v1`, `/proof/v1`) and by the HTML pages
 * rendered from them: builders of schema, header, parameter and error-response objects, and the rendering
 * of a document's operations (curl request, example responses, error table) and schemas (field tables).
 */
export type Schema = { [key: string]: unknown };
export type Obj = Record<string, unknown>;
export const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

export const schemaRef = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const headerRef = (name: string): Schema => ({ $ref: `#/components/headers/${name}` });
export const responseRef = (name: string): Schema => ({ $ref: `#/components/responses/${name}` });

/**
 * The JSON Schema of a value as the server writes it (a response header, a binary body), or with `io: 'input'` as zod
 * reads it (a request header): zod's JSON Schema output, inlined, without a dialect. Headers and binary bodies are zod
 * schemas like every other part of the contract.
 */
export function outputJsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'output'): Schema {
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'throw',
  }) as Schema;
  return rest;
}

/** A response header: its value's zod schema (what the server sends) and whether every such response carries it. */
export const header = (description: string, schema: z.ZodType, required: boolean): Schema => ({
  description,
  required,
  schema: outputJsonSchema(schema),
});

/**
 * The values of the response headers every interface sends, written once: the request id (the client's when
 * well-formed, else a UUID: both match `REQUEST_ID_PATTERN`), the rate-limit figures and seconds to wait (whole
 * numbers), the replay marker of the idempotency layer (api/http/idempotency.ts) and the Bearer challenge.
 */
export const HEADER_VALUES = {
  requestId: z.string().regex(REQUEST_ID_PATTERN),
  limit: z.int().min(1),
  seconds: z.int().min(0),
  remaining: z.int().min(0),
  replayed: z.literal('true'),
  bearer: z.literal('Bearer'),
} as const;

/**
 * The `Idempotency-Key` request header of an interface: required, its value's rule as zod reads it (the interface's
 * `IDEMPOTENCY_RULES` pattern, domain/idempotency.ts, which its idempotency layer enforces).
 */
export const idempotencyKeyParameter = (description: string, pattern: RegExp, example?: string): Schema => ({
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  description,
  schema: outputJsonSchema(z.string().regex(pattern), 'input'),
  ...(example === undefined ? {} : { example }),
});

/** `Idempotent-Replayed`: sent only on the stored answer of an earlier request with the same key. */
export const replayedHeader = (description: string): Schema => header(description, HEADER_VALUES.replayed, false);

/**
 * `Location` of a created resource: `path` (a path on this server, letters and slashes) then the resource's id of
 * prefix `idPrefix`.
 */
export const locationHeader = (description: string, path: string, idPrefix: string): Schema => {
  if (!/^(\/[a-z0-9-]+)+$/.test(path)) throw new Error(`not a plain path: ${path}`);
  return header(description, z.string().regex(new RegExp(`^${path}/${idRegex(idPrefix).source.slice(1)}`)), true);
};

/** An HTML page (the documentation pages, the payment page): text, no JSON. */
export const htmlContent = (): Schema => ({ 'text/html': { schema: outputJsonSchema(z.string()) } });

/** A binary body of each media type: bytes, no JSON type (OpenAPI 3.1), named by `contentMediaType`. */
export const binaryContent = (...types: string[]): Schema =>
  Object.fromEntries(types.map((t) => [t, { schema: outputJsonSchema(z.string().meta({ contentMediaType: t })) }]));

export const pathParam = (name: string, schema: Schema, description: string, example?: string): Schema => ({
  name,
  in: 'path',
  required: true,
  description,
  schema,
  ...(example === undefined ? {} : { example }),
});

/** An `application/json` media type with named examples. */
export const json = (schema: Schema, examples: Record<string, Schema>): Schema => ({
  'application/json': {
    schema,
    examples: Object.fromEntries(Object.entries(examples).map(([k, v]) => [k, { value: v }])),
  },
});

/**
 * Error responses of one interface: the body is the `Error` component restricted to `codes`, and every code
 * must map to `status` in the interface's error middleware (`statusOf`), so the document cannot drift from it.
 */
export function errorResponses(iface: InterfaceName, headers: () => Schema) {
  return (
    status: number,
    codes: ErrorCode[],
    description: string,
    example: Schema,
    extraHeaders: Schema = {},
  ): Schema => {
    for (const c of codes)
      if (statusOf(iface, c) !== status) throw new Error(`${c} is ${statusOf(iface, c)} on ${iface}, not ${status}`);
    if (!codes.includes(example['code'] as ErrorCode))
      throw new Error(`example code ${String(example['code'])} is not one of ${codes.join(', ')}`);
    return {
      description,
      headers: { ...headers(), ...extraHeaders },
      content: json(
        { type: 'object', $ref: '#/components/schemas/Error', properties: { code: { type: 'string', enum: codes } } },
        { [String(example['code'])]: example },
      ),
    };
  };
}

/** Resolves a local `$ref` (`#/components/...`) of `document`; other nodes are returned as they are. */
export function deref(document: Obj, node: unknown): Obj {
  const ref = obj(node)['$ref'];
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return obj(node);
  return obj(
    ref
      .slice(2)
      .split('/')
      .reduce<unknown>((n, key) => obj(n)[key.replace(/~1/g, '/').replace(/~0/g, '~')], document),
  );
}

// ---------------------------------------------------------------------------------------------------------
// HTML

/** Escapes, then renders the `code` spans of the documents' Markdown-style descriptions. */
export const md = (s: unknown): string => escapeHtml(String(s ?? '')).replace(/`([^`]+)`/g, '<code>$1</code>');
export const pre = (s: string): string => `<pre>${escapeHtml(s)}</pre>`;

const DOCS_CSS = `
body{font:16px/1.55 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:56rem;margin:2rem auto;padding:0 1rem;color:#1c1c1c}
h1{font-size:1.7rem;margin-bottom:.2rem}h2{margin-top:2.2rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}h3{margin-top:1.8rem}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.88em;background:#f4f4f4;border-radius:4px}
code{padding:.05rem .3rem}pre{padding:.8rem;overflow:auto}table{border-collapse:collapse;width:100%;margin:.6rem 0}
th,td{border:1px solid #ddd;padding:.35rem .5rem;text-align:left;vertical-align:top}th{background:#fafafa}
.note{background:#fff8e1;border-left:4px solid #f0b400;padding:.5rem .8rem}.muted{color:#666}nav a{margin-right:1rem}
`;

/** Headers of the documentation pages (`htmlPage`): a CSP that lets only DOCS_CSS apply (api/http/html.ts). */
export const DOCS_PAGE_HEADERS = htmlPageHeaders([DOCS_CSS]);

/** A documentation page: the shared stylesheet, a navigation bar of `[href, label]` links, then `body` (HTML). */
export function htmlPage(title: string, nav: ReadonlyArray<readonly [string, string]>, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${DOCS_CSS}</style></head><body>
<nav>${nav.map(([href, label]) => `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`).join('')}</nav>
${body}
</body></html>`;
}

export interface EndpointDocsOptions {
  /** Values of path parameters in the curl examples (else the parameter's `example`, else its name). */
  exampleParams?: Record<string, string>;
  /** Further curl lines of an operation (e.g. multipart fields), inserted before a JSON body. */
  curlExtras?: (method: string, path: string, op: Obj) => string[];
  /** The example of a success response without JSON examples (default: status line and content type). */
  rawResponse?: (head: string, types: string[]) => string;
}

const REASONS: Record<string, string> = { '200': 'OK', '201': 'Created', '202': 'Accepted', '204': 'No Content' };
/** Single-quoted for a POSIX shell. */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A curl command of the operation: its path and query examples, key, example headers and first JSON body example. */
export function curlExample(
  document: Obj,
  method: string,
  path: string,
  op: Obj,
  opts: EndpointDocsOptions = {},
): string {
  const params = ((op['parameters'] as unknown[] | undefined) ?? []).map((p) => deref(document, p));
  const example = (p: Obj) => (p['example'] === undefined ? undefined : String(p['example']));
  const urlPath = path.replace(
    /\{(\w+)\}/g,
    (_, n: string) =>
      opts.exampleParams?.[n] ?? example(params.find((p) => p['in'] === 'path' && p['name'] === n) ?? {}) ?? n,
  );
  const query = params
    .filter((p) => p['in'] === 'query' && example(p) !== undefined)
    .map((p) => `${String(p['name'])}=${encodeURIComponent(example(p)!)}`);
  const lines = [`curl -X ${method.toUpperCase()} "$BASE_URL${urlPath}${query.length ? `?${query.join('&')}` : ''}"`];
  if (op['security'] === undefined || (op['security'] as unknown[]).length > 0)
    lines.push('  -H "Authorization: Bearer $API_KEY"');
  for (const p of params)
    if (p['in'] === 'header' && p['required'] === true && example(p) !== undefined)
      lines.push(`  -H "${String(p['name'])}: ${example(p)!}"`);
  lines.push(...(opts.curlExtras?.(method, path, op) ?? []));
  const body = obj(obj(obj(op['requestBody'])['content'])['application/json']);
  if (body['examples']) {
    const first = Object.values(obj(body['examples']))[0];
    lines.push(`  -H "Content-Type: application/json" -d ${shellQuote(JSON.stringify(obj(first)['value']))}`);
  }
  return lines.join(' \\\n');
}

export function exampleResponse(status: string, response: Obj, opts: EndpointDocsOptions = {}): string {
  const content = obj(response['content']);
  const jsonBody = obj(content['application/json']);
  const head = `HTTP/1.1 ${status} ${REASONS[status] ?? ''}`.trimEnd();
  if (jsonBody['examples']) {
    const examples = Object.entries(obj(jsonBody['examples']));
    return examples
      .map(
        ([name, ex]) =>
          `${examples.length > 1 ? `# ${name}\n` : ''}${head}\nContent-Type: application/json\n\n${JSON.stringify(obj(ex)['value'], null, 2)}`,
      )
      .join('\n\n');
  }
  const types = Object.keys(content);
  if (types.length === 0) return head;
  return opts.rawResponse?.(head, types) ?? `${head}\nContent-Type: ${types[0]!}`;
}

/** The error codes a response may carry (its `code` enum), if it lists them. */
const codesOf = (response: Obj): string[] =>
  (obj(obj(obj(obj(obj(response['content'])['application/json'])['schema'])['properties'])['code'])['enum'] as
    string[] | undefined) ?? [];

/**
 * Every operation of `document.paths`: heading (anchor = operationId), description and key scope, a curl
 * request, the success examples and a table of the other statuses with their codes.
 */
export function renderEndpoints(document: Obj, opts: EndpointDocsOptions = {}): string {
  const out: string[] = [];
  for (const [path, item] of Object.entries(obj(document['paths']))) {
    for (const [method, raw] of Object.entries(obj(item))) {
      const op = obj(raw);
      const responses = Object.entries(obj(op['responses'])).sort(([a], [b]) => a.localeCompare(b));
      const success = responses.filter(([s]) => s.startsWith('2'));
      const failures = responses.filter(([s]) => !s.startsWith('2'));
      const requirement = obj((op['security'] as unknown[] | undefined)?.[0]);
      const scope = (Object.values(requirement)[0] as string[] | undefined)?.[0];
      const failureRows = failures.map(([s, r]) => {
        const response = deref(document, r);
        const codes = codesOf(response)
          .map((c) => `<code>${escapeHtml(c)}</code>`)
          .join(' ');
        return `<tr><td>${s}</td><td>${codes}</td><td>${md(response['description'])}</td></tr>`;
      });
      out.push(`<h3 id="${escapeHtml(String(op['operationId']))}"><code>${method.toUpperCase()} ${escapeHtml(path)}</code> · ${escapeHtml(String(op['summary']))}</h3>
<p>${md(op['description'])} <span class="muted">${scope ? `Key scope: <code>${escapeHtml(scope)}</code>.` : 'Public.'}</span></p>
<p><strong>Request</strong></p>${pre(curlExample(document, method, path, op, opts))}
<p><strong>Response</strong></p>${pre(success.map(([s, r]) => exampleResponse(s, deref(document, r), opts)).join('\n\n'))}
${failures.length ? `<table><tr><th>Status</th><th><code>code</code></th><th>When</th></tr>${failureRows.join('')}</table>` : ''}`);
    }
  }
  return out.join('\n');
}

/** A short human form of a schema's type: `string (date-time) or null`, `array of Invoice`, enum values, bounds. */
export function typeOf(document: Obj, schema: unknown): string {
  const s = obj(schema);
  const ref = s['$ref'];
  if (typeof ref === 'string') {
    const target = deref(document, s);
    return target['type'] === 'object' || target['oneOf']
      ? `<code>${escapeHtml(ref.split('/').pop()!)}</code>`
      : typeOf(document, target);
  }
  if (s['const'] !== undefined) return `<code>${escapeHtml(JSON.stringify(s['const']))}</code>`;
  if (Array.isArray(s['enum']))
    return `one of ${s['enum'].map((v) => `<code>${escapeHtml(JSON.stringify(v))}</code>`).join(', ')}`;
  if (Array.isArray(s['oneOf'])) return s['oneOf'].map((v) => typeOf(document, v)).join(' or ');
  // zod writes a nullable schema with more than a type as `anyOf: [schema, {type: 'null'}]`.
  if (Array.isArray(s['anyOf']))
    return s['anyOf'].map((v) => (obj(v)['type'] === 'null' ? 'null' : typeOf(document, v))).join(' or ');
  const types = (Array.isArray(s['type']) ? s['type'] : [s['type'] ?? 'any']).map(String);
  const main = types
    .filter((t) => t !== 'null')
    .map((t) => {
      if (t === 'array')
        return `array of ${typeOf(document, s['items'])}${s['minItems'] !== undefined || s['maxItems'] !== undefined ? ` (${String(s['minItems'] ?? 0)} to ${String(s['maxItems'] ?? 'any')})` : ''}`;
      const format = s['format'] ? ` (${String(s['format'])})` : '';
      const bounds =
        t === 'integer' && (s['minimum'] !== undefined || s['maximum'] !== undefined)
          ? ` ${String(s['minimum'] ?? '…')} to ${String(s['maximum'] ?? '…')}`
          : '';
      const length =
        t === 'string' && s['maxLength'] !== undefined ? `, at most ${String(s['maxLength'])} characters` : '';
      return `${t}${format}${bounds}${length}`;
    });
  return `${main.join(' or ')}${types.includes('null') ? ' or null' : ''}`;
}

/**
 * A table of an object schema's properties: name, type, description. With `markRequired` (request bodies) the
 * required fields are marked; response objects, whose fields are all always present, leave it off.
 */
export function fieldTable(document: Obj, schema: unknown, markRequired = false): string {
  const s = deref(document, schema);
  const required = markRequired ? ((s['required'] as string[] | undefined) ?? []) : [];
  const rows = Object.entries(obj(s['properties'])).map(([name, p]) => {
    const description =
      obj(p)['description'] ?? (typeof obj(p)['$ref'] === 'string' ? deref(document, p)['description'] : undefined);
    return `<tr><td><code>${escapeHtml(name)}</code>${required.includes(name) ? ' <span class="muted">required</span>' : ''}</td><td>${typeOf(document, p)}</td><td>${md(description)}</td></tr>`;
  });
  return `<table><tr><th>Field</th><th>Type</th><th>Meaning</th></tr>${rows.join('')}</table>`;
}

/** Response headers every documented interface sends (request id, rate limits, Retry-After). */
export function standardHeaders(): Record<string, Schema> {
  return {
    'X-Request-Id': header(
      'Id of this request (yours when you send a well-formed `X-Request-Id`, else generated).',
      HEADER_VALUES.requestId,
      true,
    ),
    'RateLimit-Limit': header(
      'Requests allowed in any window (a sliding window: e.g. at most 120 in any 60 seconds) by the tightest limit; sent once the key is authenticated.',
      HEADER_VALUES.limit,
      false,
    ),
    'RateLimit-Remaining': header(
      "Requests left in the current window of that limit (other API processes' latest requests may not be in it yet).",
      HEADER_VALUES.remaining,
      false,
    ),
    'RateLimit-Reset': header(
      'Seconds until every request that window counts has left it (the whole limit is available again if nothing more is sent).',
      HEADER_VALUES.seconds,
      false,
    ),
    'Retry-After': header(
      'Seconds to wait before retrying (over a rate limit: until the window has room for one more request).',
      HEADER_VALUES.seconds,
      true,
    ),
  };
}

/** The route name of every served OpenAPI document: how `openApiDocumentPaths` finds them in an app. */
export const OPENAPI_DOCUMENT_ROUTE = 'openapi-document';

/**
 * Serves an interface's OpenAPI document (JSON) and its HTML page (an `htmlPage`), both built once, at paths relative to the
 * router's prefix. Mount before the router's key guards: both are public. The document route is named
 * `OPENAPI_DOCUMENT_ROUTE`, so tools (the schemathesis test) find every document an app serves.
 */
export function mountDocumentRoutes(
  router: Router<AppState>,
  routes: { documentPath: string; pagePath: string; document: Obj; page: string },
): void {
  const documentJson = JSON.stringify(routes.document);
  router.get(OPENAPI_DOCUMENT_ROUTE, routes.documentPath, (ctx) => {
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = documentJson;
  });
  router.get(routes.pagePath, (ctx) => {
    ctx.set(DOCS_PAGE_HEADERS);
    ctx.body = routes.page;
  });
}

/** The full paths of every OpenAPI document an app serves: its routes named `OPENAPI_DOCUMENT_ROUTE`. */
export function openApiDocumentPaths(app: object): string[] {
  return routesOf(app)
    .filter((r) => r.name === OPENAPI_DOCUMENT_ROUTE && r.method === 'GET')
    .map((r) => r.path);
}
