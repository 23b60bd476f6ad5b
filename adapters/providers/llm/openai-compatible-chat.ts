import { z } from 'zod';
import type { Logger } from '../../logging/logger.js';
import { ProviderUnusableError, ProviderUnavailableError } from '../provider-errors.js';
import { causeCode, errorDetail, readCapped, retryAfterMs, scrubError } from '../openai-http.js';

/**
 * A generic client of an OpenAI-compatible `POST {baseUrl}/chat/completions` that asks for a JSON answer under a
 * JSON Schema (`response_format: {type: 'json_schema', json_schema: {name, strict: true, schema}}`) and checks it
 * with the zod schema it came from. Used by the meeting summary (meeting-summary.ts) and, later, field extraction.
 *
 * Failures:
 * - 429, 5xx, 408, a time-out, a connection error → ProviderUnavailableError (retryAfterMs from Retry-After-Ms or
 *   Retry-After), not retried inside the call: the pipeline waits and tries the job again;
 * - 401/403, 404, a redirect, a 400/413/422 (the request, i.e. the model or a limit, is refused) →
 *   LanguageModelConfigError naming the variable to check (never its value);
 * - an answer that is not JSON, breaks the schema, is cut short or is a refusal → asked again, up to `attempts`
 *   requests, then LanguageModelAnswerError;
 * - the request's signal aborts it → an Error named AbortError.
 * The API key and the URL never appear in an error or a log line; request and answer bodies are never logged.
 */

/** The language model API refuses the configuration (key, base URL, model): an operator must fix it; not retried. */
export class LanguageModelConfigError extends ProviderUnusableError {
  constructor(message: string) {
    super(message);
    this.name = 'LanguageModelConfigError';
  }
}

/** The language model gave no usable answer in the allowed attempts (not JSON, off-schema, cut short, refused). */
export class LanguageModelAnswerError extends ProviderUnusableError {
  constructor(message: string) {
    super(message);
    this.name = 'LanguageModelAnswerError';
  }
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatJsonRequest<S extends z.ZodType> {
  messages: ChatMessage[];
  /** The schema's name for the API (`[A-Za-z0-9_-]{1,64}`). */
  schemaName: string;
  /** The answer's schema; sent as JSON Schema (z.toJSONSchema) and checked on the answer. Use nullable, not optional. */
  schema: S;
  signal?: AbortSignal;
}

export interface ChatJsonResult<T> {
  value: T;
  /** Requests made (1 when the first answer was usable). */
  attempts: number;
  /** Problems of the answers that were asked again (for warnings; no answer text). */
  rejected: string[];
}

export interface OpenAiCompatibleChatOptions {
  /** The API's base URL including its version path, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` and nowhere else. */
  apiKey: string;
  model: string;
  /** Time limit of one HTTP request. */
  timeoutMs: number;
  /** Requests made when answers are unusable (1 = no retry). Default 3. */
  attempts?: number;
  /** Largest answer read. Default 4 MB. */
  maxAnswerBytes?: number;
  /** Sampling temperature. Default 0 (as repeatable as the API allows). */
  temperature?: number;
  logger?: Logger;
  /** The clock Retry-After dates are measured against. Default Date.now. */
  now?: () => number;
  /** Variable names used in configuration errors. Default the LLM_API_* variables. */
  variables?: { baseUrl: string; apiKey: string; model: string };
}

const DEFAULT_VARIABLES = { baseUrl: 'LLM_API_BASE_URL', apiKey: 'LLM_API_KEY', model: 'LLM_API_MODEL' };

/** The parts of a chat completion this client reads. */
const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullable().optional(),
        message: z.object({ content: z.string().nullable().optional(), refusal: z.string().nullable().optional() }),
      }),
    )
    .min(1),
});

function abortError(): Error {
  const error = new Error('the language model request was aborted');
  error.name = 'AbortError';
  return error;
}

/** A JSON Schema the API takes: zod's, without `$schema` (some compatible servers refuse unknown top-level keys). */
export function responseJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'output' }) as Record<string, unknown>;
  return rest;
}

export class OpenAiCompatibleChatClient {
  readonly name = 'openai-compatible-chat';
  readonly model: string;
  readonly #apiKey: string;
  readonly #endpoint: string;
  readonly #scrub: (text: string) => string;
  private readonly opts: Omit<OpenAiCompatibleChatOptions, 'apiKey'>;

  constructor({ apiKey, ...opts }: OpenAiCompatibleChatOptions) {
    this.#apiKey = apiKey;
    this.opts = opts;
    this.model = opts.model;
    const base = new URL(opts.baseUrl);
    base.pathname = `${base.pathname.replace(/\/+$/, '')}/chat/completions`;
    this.#endpoint = base.toString();
    const secrets = [apiKey, opts.baseUrl, this.#endpoint, base.username, base.password].filter((s) => s.length >= 4);
    this.#scrub = (text) => secrets.reduce((t, s) => t.split(s).join('[redacted]'), text);
  }

  /** Asks for a JSON answer matching `schema`; see the class comment for failures. */
  async completeJson<S extends z.ZodType>(request: ChatJsonRequest<S>): Promise<ChatJsonResult<z.output<S>>> {
    try {
      return await this.run(request);
    } catch (error) {
      throw this.scrubbed(error);
    }
  }

  private async run<S extends z.ZodType>(request: ChatJsonRequest<S>): Promise<ChatJsonResult<z.output<S>>> {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(request.schemaName))
      throw new Error('schemaName must be 1 to 64 letters, digits, _ or -');
    const body = JSON.stringify({
      model: this.opts.model,
      messages: request.messages,
      temperature: this.opts.temperature ?? 0,
      response_format: {
        type: 'json_schema',
        json_schema: { name: request.schemaName, strict: true, schema: responseJsonSchema(request.schema) },
      },
    });
    const attempts = Math.max(1, Math.floor(this.opts.attempts ?? 3));
    const rejected: string[] = [];
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (request.signal?.aborted) throw abortError();
      const text = await this.post(body, request.signal);
      try {
        return { value: this.parse(text, request.schema), attempts: attempt, rejected };
      } catch (error) {
        if (!(error instanceof LanguageModelAnswerError)) throw error;
        rejected.push(this.#scrub(error.message));
        this.opts.logger?.warn(
          { provider: this.name, attempt, attempts, problem: rejected.at(-1) },
          'language model answer rejected',
        );
      }
    }
    throw new LanguageModelAnswerError(
      `the language model gave no usable answer in ${attempts} attempts (last: ${rejected.at(-1) ?? 'none'})`,
    );
  }

  private parse<S extends z.ZodType>(text: string, schema: S): z.output<S> {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new LanguageModelAnswerError('the answer is not JSON');
    }
    const completion = completionSchema.safeParse(raw);
    if (!completion.success)
      throw new LanguageModelAnswerError(`the answer is not a chat completion (${issuePaths(completion.error)})`);
    const choice = completion.data.choices[0]!;
    if (choice.message.refusal) throw new LanguageModelAnswerError('the model refused to answer');
    if (choice.finish_reason === 'length')
      throw new LanguageModelAnswerError('the answer was cut short (finish_reason length)');
    const content = choice.message.content;
    if (typeof content !== 'string' || content.trim() === '')
      throw new LanguageModelAnswerError('the answer has no content');
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch {
      throw new LanguageModelAnswerError("the answer's content is not JSON");
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success)
      throw new LanguageModelAnswerError(`the answer's content breaks the schema (${issuePaths(parsed.error)})`);
    return parsed.data;
  }

  /** One request; resolves with the raw body of a 2xx answer, throws a mapped error for anything else. */
  private async post(body: string, callerSignal: AbortSignal | undefined): Promise<string> {
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    const signal = callerSignal ? AbortSignal.any([timeout, callerSignal]) : timeout;
    const started = Date.now();
    try {
      const response = await fetch(this.#endpoint, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.#apiKey}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body,
        redirect: 'manual',
        signal,
      });
      const text = await readCapped(response, this.opts.maxAnswerBytes ?? 4 * 1024 * 1024);
      this.opts.logger?.debug(
        { provider: this.name, status: response.status, ms: Date.now() - started },
        'language model API answered',
      );
      if (response.ok) {
        // An oversized answer is unusable like a malformed one: an empty body fails as "not JSON" and is asked again.
        return text ?? '';
      }
      throw this.failure(response, text ?? '');
    } catch (error) {
      if (callerSignal?.aborted) throw abortError();
      if (timeout.aborted)
        throw new ProviderUnavailableError(`the language model API did not answer within ${this.opts.timeoutMs} ms`);
      if (error instanceof Error && error.name === 'TypeError') {
        const code = causeCode(error);
        throw new ProviderUnavailableError(`the language model API could not be reached${code ? ` (${code})` : ''}`);
      }
      throw error;
    }
  }

  /** The error for a non-2xx answer. The provider's own message is never passed on (a 401 may echo part of the key). */
  private failure(response: Response, text: string): Error {
    const status = response.status;
    const detail = errorDetail(text);
    const v = this.opts.variables ?? DEFAULT_VARIABLES;
    this.opts.logger?.warn(
      { provider: this.name, status, providerCode: detail.code, providerParam: detail.param },
      'language model API refused the request',
    );
    if (status === 429 || status === 408 || status >= 500) {
      return new ProviderUnavailableError(
        status === 429
          ? 'the language model API is rate limiting (HTTP 429)'
          : `the language model API is unavailable (HTTP ${status})`,
        retryAfterMs(response.headers, this.opts.now ?? Date.now),
      );
    }
    if (status === 401 || status === 403)
      return new LanguageModelConfigError(
        `the language model API refused the credentials (HTTP ${status}): check ${v.apiKey}`,
      );
    if (status === 404)
      return new LanguageModelConfigError(
        `the language model API has no such endpoint or model (HTTP 404): check ${v.baseUrl} and ${v.model}`,
      );
    if (status >= 300 && status < 400)
      return new LanguageModelConfigError(
        `the language model API answered with a redirect (HTTP ${status}): check ${v.baseUrl}`,
      );
    const what = [detail.code, detail.param].filter(Boolean).join(', ');
    return new LanguageModelConfigError(
      `the language model API refused the request (HTTP ${status}${what ? `: ${what}` : ''}): check ${v.model} (it must support structured outputs with a JSON schema)`,
    );
  }

  /** Defence in depth: whatever leaves this class is scrubbed of the key and the URLs (message, stack, causes). */
  private scrubbed(error: unknown): unknown {
    return scrubError(error, (text) => this.#scrub(text));
  }
}

/** Where a zod error points (paths only, never values: an answer may quote anything). */
function issuePaths(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.code}`)
    .join('; ');
}
