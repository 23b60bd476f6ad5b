import type Router from '@koa/router';
import { z } from 'zod';
import type { ErrorCode } from '../../domain/errors.js';
import type { AppState, InterfaceName } from './context.js';
import type { Contract } from './contract.js';
import { errorCodeRows, type ErrorRow } from './error-table.js';
import {
  header,
  HEADER_VALUES,
  headerRef,
  htmlPage,
  json,
  md,
  mountDocumentRoutes,
  renderEndpoints,
  type Obj,
  type Schema,
} from './openapi-kit.js';

/**
 * What the OpenAPI documents of the two browser-session interfaces share (`/api/company`, `/api/integrations`): the
 * cookie and CSRF security schemes, the common responses and headers, small schema builders, and the HTML page with its
 * error table. Each document keeps its own paths, schemas and error list.
 */

/** A closed object schema: these documents describe every field they answer. */
export const closedObject = (required: string[], properties: Record<string, Schema>, description?: string): Schema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
  ...(description ? { description } : {}),
});

/** `{}` or no body: the action routes. */
export const EMPTY_BODY = {
  required: false,
  content: json(
    { type: 'object', additionalProperties: false, maxProperties: 0, description: 'Nothing: `{}` (or no body).' },
    { empty: {} },
  ),
};

export const jsonBody = (schema: Schema, examples: Record<string, Schema>) => ({
  required: true,
  content: json(schema, examples),
});

export const SESSION = [{ session: [] }];
export const MUTATION = [{ session: [], csrf: [] }];

export const sessionHeaders = (): Record<string, Schema> => ({
  'X-Request-Id': header('Id of this request.', HEADER_VALUES.requestId, true),
  'Retry-After': header('Seconds to wait before retrying.', HEADER_VALUES.seconds, true),
});

export const plainHeaders = (): Schema => ({ 'X-Request-Id': headerRef('X-Request-Id') });

/** A success response with the request id header (and `extraHeaders`). */
export const okResponse = (
  description: string,
  schema: Schema,
  examples: Record<string, Schema>,
  status = '200',
  extraHeaders: Schema = {},
): Record<string, Schema> => ({
  [status]: { description, headers: { ...plainHeaders(), ...extraHeaders }, content: json(schema, examples) },
});

type ErrorBuilder = (status: number, codes: ErrorCode[], description: string, extraHeaders?: Schema) => Schema;

/** The security schemes and shared responses of a session document. */
export function sessionComponents(cookieName: string, signInPath: string, errors: ErrorBuilder) {
  return {
    securitySchemes: {
      session: {
        type: 'apiKey',
        in: 'cookie',
        name: cookieName,
        description: `The session cookie set by \`POST ${signInPath}\`.`,
      },
      csrf: {
        type: 'apiKey',
        in: 'header',
        name: 'X-CSRF-Token',
        description: "The session's CSRF token (`csrf_token` of the sign-in), on every mutation.",
      },
    },
    responses: {
      RateLimited: errors(429, ['rate_limited'], 'Over a request limit.', { 'Retry-After': headerRef('Retry-After') }),
      InternalError: errors(500, ['internal_error'], 'Unexpected server error.'),
      ServiceUnavailable: errors(503, ['service_unavailable'], 'Temporarily unavailable.', {
        'Retry-After': headerRef('Retry-After'),
      }),
    },
  };
}

/**
 * Serves a session document and its HTML page on the interface's router (before its guards): the description, every
 * endpoint, and the error table with each code's status from the error middleware.
 */
export function mountSessionDocs(
  router: Router<AppState>,
  spec: {
    iface: InterfaceName;
    prefix: string;
    documentPath: string;
    docsPath: string;
    title: string;
    document: Obj;
    errors: ReadonlyArray<ErrorRow>;
    note?: string;
  },
): void {
  const rows = errorCodeRows(spec.iface, spec.errors)
    .map((e) => `<tr><td>${e.status}</td><td><code>${e.code}</code></td><td>${md(e.when)}</td></tr>`)
    .join('');
  const nav = [
    ['#session', 'Session'],
    ['#endpoints', 'Endpoints'],
    ['#errors', 'Errors'],
    [spec.documentPath, 'OpenAPI'],
  ] as const;
  const page = htmlPage(
    `${spec.title}: documentation`,
    nav,
    `<h1>${spec.title}</h1>
<p class="muted">Machine-readable: <a href="${spec.documentPath}"><code>${spec.documentPath}</code></a> (OpenAPI 3.1).</p>
<h2 id="session">Session</h2>
<p>${md(String((spec.document['info'] as Obj)['description']))}</p>${spec.note ? `\n<p>${md(spec.note)}</p>` : ''}
<h2 id="endpoints">Endpoints</h2>
${renderEndpoints(spec.document)}
<h2 id="errors">Errors</h2>
<table><tr><th>Status</th><th>Code</th><th>When</th></tr>${rows}</table>`,
  );
  mountDocumentRoutes(router, {
    documentPath: spec.documentPath.slice(spec.prefix.length),
    pagePath: spec.docsPath.slice(spec.prefix.length),
    document: spec.document,
    page,
  });
}

/**
 * A whole session document: `info`, this server, the tags (with the session's and the documentation's around the
 * interface's own), the paths, the components (security schemes, shared responses, `schemas`, `headers`) and
 * `x-error-codes` with each code's status from the error middleware.
 */
export function sessionDocument(spec: {
  iface: InterfaceName;
  info: { title: string; version: string; summary: string; description: string };
  tags: ReadonlyArray<{ name: string; description: string }>;
  paths: Record<string, Schema>;
  schemas: Record<string, Schema>;
  headers: Record<string, Schema>;
  cookieName: string;
  signInPath: string;
  errors: ErrorBuilder;
  errorList: ReadonlyArray<ErrorRow>;
}): Schema {
  return {
    openapi: '3.1.0',
    info: spec.info,
    servers: [{ url: '/', description: 'This server' }],
    tags: [
      { name: 'Session', description: 'Sign-in and sign-out.' },
      ...spec.tags,
      { name: 'Documentation', description: 'This document and its page (public).' },
    ],
    paths: spec.paths,
    components: {
      ...sessionComponents(spec.cookieName, spec.signInPath, spec.errors),
      schemas: spec.schemas,
      headers: spec.headers,
    },
    'x-error-codes': errorCodeRows(spec.iface, spec.errorList),
  };
}

/**
 * One operation of a session document's route table: its prose and examples as metadata, its request body and
 * success answer as zod schemas named in the document's `Contract` (the response is the type the serializer returns),
 * and its error responses as the document's own builder makes them.
 */
export interface SessionRoute<E> {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** `session`: the cookie; `mutation`: the cookie and the CSRF token; `public`: nothing. */
  security: 'session' | 'mutation' | 'public';
  parameters?: Schema[];
  /** The JSON body: a zod schema of the contract (as `$ref`), or a JSON Schema; `empty` for `{}` or nothing. */
  body?: { schema: z.ZodType | Schema; examples: Record<string, Schema>; required?: false } | 'empty';
  /**
   * The success answer: a JSON `schema` of the contract with its examples, or a `content` map of other media types
   * (a PDF, a page), or neither (a 204).
   */
  response: {
    status?: '200' | '201' | '202' | '204';
    description: string;
    schema?: z.ZodType | Schema;
    examples?: Record<string, Schema>;
    content?: Schema;
    headers?: Schema;
  };
  /** What the operation is, for the document's error builder (`errorsOf`). */
  errors: E;
  /** Error responses that replace or add to those of `errors`, by status. */
  moreErrors?: Record<string, Schema>;
}

/**
 * What a route table says once for its rows: the tag, the prefix of its paths, the error flags of every row, and what
 * every mutation (a row whose method is not GET) carries: parameters added after the row's own (an Idempotency-Key),
 * response headers (its replay marker) and error flags.
 */
export interface RouteTableDefaults<E> {
  tag: string;
  prefix?: string;
  errors?: E;
  mutations?: { parameters?: Schema[]; headers?: Schema; errors?: E };
}

/**
 * A row of a route table: only what differs from its table. `tag` defaults to the table's, `security` to the
 * method's (GET: the session cookie; anything else: the cookie and the CSRF token), `errors` to the table's.
 */
export type RouteRow<E> = Omit<SessionRoute<E>, 'tag' | 'security' | 'errors'> &
  Partial<Pick<SessionRoute<E>, 'tag' | 'security' | 'errors'>>;

/** The routes of a table: each row completed with its table's defaults (`RouteTableDefaults`). */
export function routeTable<E extends object>(
  defaults: RouteTableDefaults<E>,
  rows: ReadonlyArray<RouteRow<E>>,
): SessionRoute<E>[] {
  return rows.map((row) => {
    const mutation = row.method === 'get' ? undefined : (defaults.mutations ?? {});
    const parameters = [...(row.parameters ?? []), ...(mutation?.parameters ?? [])];
    const headers = mutation?.headers ? { ...mutation.headers, ...row.response.headers } : row.response.headers;
    return {
      ...row,
      path: `${defaults.prefix ?? ''}${row.path}`,
      tag: row.tag ?? defaults.tag,
      security: row.security ?? (mutation ? 'mutation' : 'session'),
      ...(parameters.length ? { parameters } : {}),
      response: headers ? { ...row.response, headers } : row.response,
      errors: { ...defaults.errors, ...mutation?.errors, ...row.errors } as E,
    };
  });
}

/** The success response of a route: JSON of a schema, another content map, or no body. */
function successResponse(r: SessionRoute<unknown>['response'], schemaOf: (s: z.ZodType | Schema) => Schema) {
  const status = r.status ?? '200';
  if (r.schema !== undefined) return okResponse(r.description, schemaOf(r.schema), r.examples ?? {}, status, r.headers);
  return {
    [status]: {
      description: r.description,
      headers: { ...plainHeaders(), ...r.headers },
      ...(r.content === undefined ? {} : { content: r.content }),
    },
  };
}

/** A route's request body: `{}` or nothing, or JSON of a schema (required unless `required: false`). */
function requestBody(b: NonNullable<SessionRoute<unknown>['body']>, schemaOf: (s: z.ZodType | Schema) => Schema) {
  if (b === 'empty') return EMPTY_BODY;
  const body = jsonBody(schemaOf(b.schema), b.examples);
  return b.required === false ? { ...body, required: false } : body;
}

/** The `paths` of a route table, in its order: each route's operation under its path and method. */
export function routeTablePaths<E>(
  routes: ReadonlyArray<SessionRoute<E>>,
  contract: Contract,
  errorsOf: (e: E) => Record<string, Schema>,
): Record<string, Schema> {
  const schemaOf = (s: z.ZodType | Schema): Schema => (s instanceof z.ZodType ? contract.ref(s) : s);
  const paths: Record<string, Record<string, Schema>> = {};
  for (const r of routes) {
    const security = r.security === 'public' ? [] : r.security === 'mutation' ? MUTATION : SESSION;
    (paths[r.path] ??= {})[r.method] = {
      operationId: r.operationId,
      tags: [r.tag],
      summary: r.summary,
      security,
      ...(r.description === undefined ? {} : { description: r.description }),
      ...(r.parameters ? { parameters: r.parameters } : {}),
      ...(r.body === undefined ? {} : { requestBody: requestBody(r.body, schemaOf) }),
      responses: { ...successResponse(r.response, schemaOf), ...errorsOf(r.errors), ...r.moreErrors },
    };
  }
  return paths;
}
