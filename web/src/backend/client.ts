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

export class ApiClient {
  /** The CSRF token of the current session (from sign-in or `GET /session`). */
  csrfToken: string | null = null;

  constructor(private readonly opts: ApiClientOptions) {}

  get prefix(): string {
    return this.opts.prefix;
  }

  get<T>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }

  post<T>(path: string, body: unknown = {}): Promise<T> {
    return this.request<T>('POST', path, body);
  }

  patch<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>('PATCH', path, body);
  }

  delete<T>(path: string): Promise<T> {
    return this.request<T>('DELETE', path);
  }

  /**
   * One request to `path` under the prefix (a path starting with `/v1/` is taken as it is: `POST /v1/webhooks` is a
   * company session route). `quietSessionEnd` leaves a `session_required` answer to the caller (the first `GET
   * /session` of a page load, where it only means "not signed in").
   */
  async request<T>(method: Method, path: string, body?: unknown, opts: { quietSessionEnd?: boolean } = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (MUTATIONS.has(method)) {
      if (this.csrfToken) headers['X-CSRF-Token'] = this.csrfToken;
      if (this.opts.idempotencyKeys) headers['Idempotency-Key'] = crypto.randomUUID();
    }
    const url = path.startsWith('/v1/') ? path : `${this.opts.prefix}${path}`;
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
