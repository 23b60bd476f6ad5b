/** Reading the answers of OpenAI-compatible HTTP APIs (transcription/openai-compatible.provider.ts, llm/openai-compatible-chat.ts). */

/** The body as text, or null when it exceeds `limit` bytes (the rest is not read). */
export async function readCapped(response: Response, limit: number): Promise<string | null> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.length;
    if (total > limit) {
      await response.body.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `error.code` and `error.param` of an OpenAI-style error body, only when they look like identifiers. */
export function errorDetail(text: string): { code?: string; param?: string } {
  const ident = (v: unknown) => (typeof v === 'string' && /^[A-Za-z0-9_.[\]-]{1,64}$/.test(v) ? v : undefined);
  try {
    const parsed = JSON.parse(text) as { error?: { code?: unknown; type?: unknown; param?: unknown } };
    const e = parsed && typeof parsed === 'object' ? parsed.error : undefined;
    if (!e || typeof e !== 'object') return {};
    return { code: ident(e.code) ?? ident(e.type), param: ident(e.param) };
  } catch {
    return {};
  }
}

/** Retry-After-Ms (OpenAI's), else Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(headers: Headers, now: () => number): number | undefined {
  const ms = headers.get('retry-after-ms')?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Math.ceil(Number(ms));
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}

/** The code of a fetch failure's cause (`ECONNREFUSED`, `UND_ERR_HEADERS_TIMEOUT`), when it looks like one. */
export function causeCode(error: Error): string | undefined {
  const cause = error.cause as { code?: unknown; name?: unknown } | undefined;
  const code = typeof cause?.code === 'string' ? cause.code : typeof cause?.name === 'string' ? cause.name : undefined;
  return code && /^[A-Za-z0-9_]{1,64}$/.test(code) ? code : undefined;
}

/** `error` with `scrub` applied to its message and stack, and to its causes' (in place; a frozen field is left). */
export function scrubError(error: unknown, scrub: (text: string) => string, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 5) return error;
  for (const field of ['message', 'stack'] as const) {
    const value = error[field];
    if (typeof value === 'string') {
      try {
        Object.defineProperty(error, field, { value: scrub(value), configurable: true, writable: true });
      } catch {
        /* a frozen error keeps its field */
      }
    }
  }
  if (error.cause !== undefined) scrubError(error.cause, scrub, depth + 1);
  return error;
}
