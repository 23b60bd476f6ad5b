/**
 * The one way the dashboard talks to the server: a small typed fetch over a session interface (`/api/integrations`
 * for merchants, `/api/company` for /v1 companies). It sends the session's CSRF token on every mutation, an
 * Idempotency-Key where the interface asks for one, and turns every failure into an `ApiError` carrying the API's own
 * message (`{error}` on /api/integrations, `{detail}` on /api/company), code and request id. A `session_required`
 * answer (the session ended: idle, expired, signed out elsewhere) is reported once to `onSessionEnded`, which takes
 * the app back to the sign-in page with a message.
 */

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly requestId: string | null,
    readonly issues: ReadonlyArray<{ path?: string; message?: string }> = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const SESSION_ENDED = 'session_required';

export interface ApiClientOptions {
  /** The interface's path prefix, e.g. `/api/company`. */
  prefix: string;
  /** Mutations carry an `Idempotency-Key` (the /proof dialect of /api/integrations requires one). */
  idempotencyKeys: boolean;
  /** Called when a request finds the session gone. */
  onSessionEnded: (message: string) => void;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/*
 * Types of a call, read from the `paths` that openapi-typescript generates from the interface's OpenAPI document
 * (web/src/backend/generated/): the path template, its path and query parameters, the JSON body and the JSON answer
 * of the success status. A call site names a documented path and gets the documented answer, so a changed response
 * shape breaks the typecheck (`npx tsc -p web/tsconfig.json --noEmit`), not a browser journey.
 */
type Verb = 'get' | 'post' | 'patch' | 'delete';
/** The documented paths that have `verb`. */
export type PathsWith<P, V extends Verb> = {
  [K in keyof P]: P[K] extends { [v in V]: object } ? K : never;
}[keyof P] &
  string;
type Operation<P, K extends keyof P, V extends Verb> = P[K] extends { [v in V]: infer O } ? O : never;
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : undefined;
type Success<O> = O extends { responses: infer Rs } ? JsonOf<Rs[Extract<keyof Rs, 200 | 201 | 202 | 204>]> : never;
type PathParams<O> = O extends { parameters: { path: infer X } } ? ([X] extends [undefined] ? never : X) : never;
type QueryParams<O> = O extends { parameters: { query?: infer Q } } ? ([Q] extends [undefined] ? never : Q) : never;
type Body<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B | undefined
    : never;
/** What a call passes besides the path template: its path parameters, query and body, each only where documented. */
export type CallInit<O> = ([PathParams<O>] extends [never] ? { path?: never } : { path: PathParams<O> }) &
  ([QueryParams<O>] extends [never] ? { query?: never } : { query?: QueryParams<O> }) &
  ([Body<O>] extends [never] ? { body?: never } : undefined extends Body<O> ? { body?: Body<O> } : { body: Body<O> });
/** The init argument: optional when nothing in it is required. */
type InitArg<O> = Record<never, never> extends CallInit<O> ? [init?: CallInit<O>] : [init: CallInit<O>];
/** A call's init as the client reads it (its types were checked at the call site). */
type CallShape = { path?: object; query?: object; body?: unknown };
/** The documented JSON answer of a successful call. */
export type Answer<P, K extends keyof P, V extends Verb> = Success<Operation<P, K, V>>;

/** `/api/company/jobs/{job_id}` with `{job_id: 'job_…'}` and a query, as a URL path. */
export function fillPath(
  template: string,
  path: Record<string, string | number> = {},
  query: Record<string, string | number | boolean | undefined | null> = {},
): string {
  const filled = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = path[name];
    if (value === undefined) throw new Error(`${template}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) search.set(k, String(v));
  const q = search.toString();
  return q ? `${filled}?${q}` : filled;
}

const MUTATIONS = new Set<Method>(['POST', 'PATCH', 'DELETE']);

/** The API's error body, whichever of the two shapes it has. */
async function errorOf(res: Response): Promise<ApiError> {
  let body: Record<string, unknown> | null = null;
  try {
    body = (await res.json()) as Record<string, unknown>;
  } catch {
    body = null;
  }
  const message =
    typeof body?.['error'] === 'string'
      ? body['error']
      : typeof body?.['detail'] === 'string'
        ? body['detail']
        : `The server answered ${res.status} ${res.statusText}`.trim();
  const code = typeof body?.['code'] === 'string' ? body['code'] : 'http_error';
  const requestId = typeof body?.['request_id'] === 'string' ? body['request_id'] : res.headers.get('X-Request-Id');
  const issues = Array.isArray(body?.['issues']) ? (body['issues'] as Array<{ path?: string; message?: string }>) : [];
  return new ApiError(message, res.status, code, requestId, issues);
}

export class ApiClient<P = unknown> {
  /** The CSRF token of the current session (from sign-in or `GET /session`). */
  csrfToken: string | null = null;

  constructor(private readonly opts: ApiClientOptions) {}

  get prefix(): string {
    return this.opts.prefix;
  }

  get<K extends PathsWith<P, 'get'>>(path: K, ...init: InitArg<Operation<P, K, 'get'>>): Promise<Answer<P, K, 'get'>> {
    return this.call('GET', path, init[0] as CallShape | undefined);
  }

  post<K extends PathsWith<P, 'post'>>(
    path: K,
    ...init: InitArg<Operation<P, K, 'post'>>
  ): Promise<Answer<P, K, 'post'>> {
    return this.call('POST', path, init[0] as CallShape | undefined, {});
  }

  patch<K extends PathsWith<P, 'patch'>>(
    path: K,
    ...init: InitArg<Operation<P, K, 'patch'>>
  ): Promise<Answer<P, K, 'patch'>> {
    return this.call('PATCH', path, init[0] as CallShape | undefined);
  }

  delete<K extends PathsWith<P, 'delete'>>(
    path: K,
    ...init: InitArg<Operation<P, K, 'delete'>>
  ): Promise<Answer<P, K, 'delete'>> {
    return this.call('DELETE', path, init[0] as CallShape | undefined);
  }

  private call<T>(method: Method, template: string, init: CallShape | undefined, emptyBody?: object): Promise<T> {
    const url = fillPath(
      template,
      init?.path as Record<string, string> | undefined,
      init?.query as Record<string, string> | undefined,
    );
    return this.request<T>(method, url, init?.body ?? emptyBody);
  }

  /**
   * One request to `url`, a full path of the interface's document (`/api/company/…`, or `/v1/webhooks`, a company
   * session route). `quietSessionEnd` leaves a `session_required` answer to the caller (the first `GET /session` of a
   * page load, where it only means "not signed in").
   */
  async request<T>(method: Method, url: string, body?: unknown, opts: { quietSessionEnd?: boolean } = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (MUTATIONS.has(method)) {
      if (this.csrfToken) headers['X-CSRF-Token'] = this.csrfToken;
      if (this.opts.idempotencyKeys) headers['Idempotency-Key'] = crypto.randomUUID();
    }
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers,
        credentials: 'same-origin',
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch {
      throw new ApiError('Could not reach the server. Check your connection and try again.', 0, 'network_error', null);
    }
    if (!res.ok) {
      const error = await errorOf(res);
      if (error.code === SESSION_ENDED && !opts.quietSessionEnd) {
        this.csrfToken = null;
        this.opts.onSessionEnded('Your session has ended. Sign in again to continue.');
      }
      throw error;
    }
    if (res.status === 204) return undefined as T;
    return (await res.json()) as T;
  }
}
