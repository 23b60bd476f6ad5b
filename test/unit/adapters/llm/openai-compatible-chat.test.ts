import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ProviderUnavailableError } from '../../../../adapters/providers/provider-errors.js';
import {
  LanguageModelAnswerError,
  LanguageModelConfigError,
  OpenAiCompatibleChatClient,
  type OpenAiCompatibleChatOptions,
} from '../../../../adapters/providers/llm/openai-compatible-chat.js';
import { capturingLogger } from '../../../helpers/logs.js';
import { startBlackHole, startConnectionDropper } from '../../../helpers/tcp-fault.js';
import { completion, hang, json, standIn, until, thrownErrors } from '../../../helpers/openai-stand-in.js';

/**
 * The OpenAI-compatible chat client against a scripted stand-in on a free port, used only to inject failures (429,
 * 5xx, a hang, 401/403/404, a redirect, malformed and schema-violating answers) and to check the request it sends.
 */

const API_KEY = 'sk-llm-test-5d2e8a1c7f3b9e0d4a6c';
/** A marker in the prompt: request bodies are never logged. */
const PROMPT_MARKER = 'prompt-marker-7c1f0e';

const Answer = z.object({
  title: z.string(),
  items: z.array(z.object({ name: z.string(), note: z.string().nullable() })),
});
const GOOD = { title: 'ok', items: [{ name: 'a', note: null }] };

describe('OpenAI-compatible chat client', () => {
  const log = capturingLogger();
  const thrown = thrownErrors();
  const failure = thrown.failure;
  let stub: Awaited<ReturnType<typeof standIn>> | null = null;

  afterEach(async () => {
    await stub?.close();
    stub = null;
  });

  afterAll(() => {
    // No thrown error and no logged line carried the key (however it failed), nor any request body.
    thrown.expectNoneHolds(API_KEY, 9);
    expect(log.lines.length).toBeGreaterThan(8);
    expect(log.text()).not.toContain(API_KEY.slice(0, 12));
    expect(log.text()).not.toContain(PROMPT_MARKER);
  });

  function client(baseUrl: string, extra: Partial<OpenAiCompatibleChatOptions> = {}) {
    return new OpenAiCompatibleChatClient({
      baseUrl,
      apiKey: API_KEY,
      model: 'gpt-4o-mini',
      timeoutMs: 10_000,
      logger: log.logger,
      ...extra,
    });
  }
  const ask = (c: OpenAiCompatibleChatClient, signal?: AbortSignal) =>
    c.completeJson({
      messages: [
        { role: 'system', content: 'Answer.' },
        { role: 'user', content: `data ${PROMPT_MARKER}` },
      ],
      schemaName: 'test_answer',
      schema: Answer,
      signal,
    });

  it('posts the documented request (model, messages, strict json_schema response format) and returns the checked value', async () => {
    stub = await standIn([json(200, completion(GOOD))]);
    const result = await ask(client(stub.baseUrl));
    expect(result).toEqual({ value: GOOD, attempts: 1, rejected: [] });
    expect(stub.requests).toHaveLength(1);
    const req = stub.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(req.headers['content-type']).toBe('application/json');
    const body = JSON.parse(req.body) as Record<string, unknown>;
    expect(body).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Answer.' },
        { role: 'user', content: `data ${PROMPT_MARKER}` },
      ],
      temperature: 0,
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'test_answer',
          strict: true,
          schema: {
            type: 'object',
            properties: {
              title: { type: 'string' },
              items: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: { name: { type: 'string' }, note: { type: ['string', 'null'] } },
                  required: ['name', 'note'],
                  additionalProperties: false,
                },
              },
            },
            required: ['title', 'items'],
            additionalProperties: false,
          },
        },
      },
    });
  });

  it('429 is a temporary outage carrying Retry-After (seconds, an HTTP date, or Retry-After-Ms), without retrying inside the call', async () => {
    stub = await standIn([
      json(
        429,
        { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
        { 'retry-after': '7' },
      ),
      json(429, {}, { 'retry-after': 'Wed, 21 Oct 2026 07:28:30 GMT' }),
      json(429, {}, { 'retry-after-ms': '1500', 'retry-after': '9' }),
      json(429, {}),
    ]);
    const c = client(stub.baseUrl, { now: () => Date.parse('Wed, 21 Oct 2026 07:28:00 GMT') });
    for (const expected of [7000, 30_000, 1500, undefined]) {
      const e = await failure(ask(c));
      expect(e).toBeInstanceOf(ProviderUnavailableError);
      expect((e as ProviderUnavailableError).retryAfterMs).toBe(expected);
      expect(e.message).toBe('the language model API is rate limiting (HTTP 429)');
    }
    expect(stub.requests).toHaveLength(4);
  });

  it('500, 503 and 408 are temporary outages', async () => {
    stub = await standIn([
      json(500, { error: { message: 'internal', type: 'server_error' } }),
      json(503, 'upstream down', { 'retry-after': '2' }),
      json(408, ''),
    ]);
    const c = client(stub.baseUrl);
    const e500 = await failure(ask(c));
    expect(e500).toBeInstanceOf(ProviderUnavailableError);
    expect((e500 as ProviderUnavailableError).retryAfterMs).toBeUndefined();
    const e503 = await failure(ask(c));
    expect(e503).toBeInstanceOf(ProviderUnavailableError);
    expect(e503.message).toBe('the language model API is unavailable (HTTP 503)');
    expect((e503 as ProviderUnavailableError).retryAfterMs).toBe(2000);
    expect(await failure(ask(c))).toBeInstanceOf(ProviderUnavailableError);
    expect(stub.requests).toHaveLength(3);
  });

  it('a request that hangs past its time limit is a temporary outage; so are a silent host and a dropped connection', async () => {
    stub = await standIn([hang]);
    const e = await failure(ask(client(stub.baseUrl, { timeoutMs: 300 })));
    expect(e).toBeInstanceOf(ProviderUnavailableError);
    expect(e.message).toBe('the language model API did not answer within 300 ms');
    expect(stub.requests).toHaveLength(1);

    const blackHole = await startBlackHole();
    const dropper = await startConnectionDropper();
    try {
      expect(await failure(ask(client(`http://127.0.0.1:${blackHole.port}/v1`, { timeoutMs: 300 })))).toBeInstanceOf(
        ProviderUnavailableError,
      );
      const dropped = await failure(ask(client(`http://127.0.0.1:${dropper.port}/v1`)));
      expect(dropped).toBeInstanceOf(ProviderUnavailableError);
      expect(dropped.message).toMatch(/could not be reached/);
    } finally {
      await blackHole.close();
      await dropper.close();
    }
  });

  it("honours the caller's AbortSignal mid-request", async () => {
    stub = await standIn([hang]);
    const controller = new AbortController();
    const pending = failure(ask(client(stub.baseUrl), controller.signal));
    await until(() => stub!.requests.length === 1);
    controller.abort();
    expect((await pending).name).toBe('AbortError');
  });

  it('401 and 403 are configuration errors naming the variable, never the key the provider echoes; so are 404, a redirect and a refused request', async () => {
    const echo = {
      error: {
        message: `Incorrect API key provided: ${API_KEY.slice(0, 12)}****. Full: ${API_KEY}`,
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      },
    };
    stub = await standIn([
      json(401, echo),
      json(403, echo),
      json(404, { error: { message: `The model does not exist ${API_KEY}`, code: 'model_not_found' } }),
      json(302, '', { location: `https://elsewhere.example/?k=${API_KEY}` }),
      json(400, {
        error: {
          message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
          type: 'invalid_request_error',
          param: 'response_format',
        },
      }),
    ]);
    const c = client(stub.baseUrl);
    for (const status of [401, 403]) {
      const e = await failure(ask(c));
      expect(e).toBeInstanceOf(LanguageModelConfigError);
      expect(e.message).toBe(`the language model API refused the credentials (HTTP ${status}): check LLM_API_KEY`);
    }
    const missing = await failure(ask(c));
    expect(missing).toBeInstanceOf(LanguageModelConfigError);
    expect(missing.message).toBe(
      'the language model API has no such endpoint or model (HTTP 404): check LLM_API_BASE_URL and LLM_API_MODEL',
    );
    const redirect = await failure(ask(c));
    expect(redirect).toBeInstanceOf(LanguageModelConfigError);
    expect(redirect.message).toMatch(/redirect \(HTTP 302\): check LLM_API_BASE_URL/);
    const refused = await failure(ask(c));
    expect(refused).toBeInstanceOf(LanguageModelConfigError);
    expect(refused.message).toMatch(/HTTP 400: invalid_request_error, response_format\): check LLM_API_MODEL/);
    expect(stub.requests).toHaveLength(5);
    expect(log.text()).toContain('invalid_api_key');
  });

  it('asks again after a malformed or schema-violating answer, a bounded number of times, then fails clearly', async () => {
    stub = await standIn([
      json(200, '{"choices": [{"message": {"content": "{\\"tit'),
      json(200, completion({ title: 3, items: [] })),
      json(200, completion(GOOD)),
    ]);
    const result = await ask(client(stub.baseUrl));
    expect(result.value).toEqual(GOOD);
    expect(result.attempts).toBe(3);
    expect(result.rejected).toEqual([
      'the answer is not JSON',
      "the answer's content breaks the schema (title: invalid_type)",
    ]);
    await stub.close();

    stub = await standIn([json(200, completion({ title: 'x', items: [{ name: 'a' }] }))]);
    const e = await failure(ask(client(stub.baseUrl, { attempts: 2 })));
    expect(e).toBeInstanceOf(LanguageModelAnswerError);
    expect(e.message).toBe(
      "the language model gave no usable answer in 2 attempts (last: the answer's content breaks the schema (items.0.note: invalid_type))",
    );
    expect(stub.requests).toHaveLength(2);
    await stub.close();

    for (const [answer, problem] of [
      [completion('not json at all'), "the answer's content is not JSON"],
      [
        completion(JSON.stringify(GOOD).slice(0, 20), { finish_reason: 'length' }),
        'the answer was cut short (finish_reason length)',
      ],
      [completion(null, { refusal: 'I cannot help with that.' }), 'the model refused to answer'],
      [{ choices: [] }, 'the answer is not a chat completion (choices: too_small)'],
      ['<html>gateway</html>', 'the answer is not JSON'],
      [completion({ ...GOOD, padding: 'x'.repeat(5000) }), 'the answer is not JSON'],
    ] as const) {
      stub = await standIn([json(200, answer)]);
      const err = await failure(ask(client(stub.baseUrl, { attempts: 1, maxAnswerBytes: 4000 })));
      expect(err).toBeInstanceOf(LanguageModelAnswerError);
      expect(err.message).toBe(`the language model gave no usable answer in 1 attempts (last: ${problem})`);
      await stub.close();
    }
    stub = null;
  });

  it('scrubs the key from answer problems, logs and errors even when an answer puts it where a problem is reported', async () => {
    // Leak injection: a schema whose error paths are the answer's own keys, and an answer keyed by the API key.
    const Scores = z.record(z.string(), z.number());
    stub = await standIn([json(200, completion({ [API_KEY]: 'high' })), json(200, completion({ ok: 1 }))]);
    const c = client(stub.baseUrl);
    const messages = [{ role: 'user' as const, content: PROMPT_MARKER }];
    const result = await c.completeJson({ messages, schemaName: 'scores', schema: Scores });
    expect(result.value).toEqual({ ok: 1 });
    expect(result.rejected).toEqual(["the answer's content breaks the schema ([redacted]: invalid_type)"]);
    await stub.close();
    stub = await standIn([json(200, completion({ [API_KEY]: 'high' }))]);
    const e = await failure(
      client(stub.baseUrl, { attempts: 1 }).completeJson({ messages, schemaName: 'scores', schema: Scores }),
    );
    expect(e.message).toContain('[redacted]: invalid_type');
  });

  it('keeps the key out of JSON and inspection of the client', async () => {
    const c = client('https://api.example.com/v1');
    expect(JSON.stringify(c)).not.toContain(API_KEY);
    expect((await import('node:util')).inspect(c, { depth: 5, showHidden: true })).not.toContain(API_KEY);
  });
});
