import http from 'node:http';
import { expect } from 'vitest';
import type { AddressInfo } from 'node:net';

/**
 * A scripted stand-in for an OpenAI-compatible API (chat completions, audio transcriptions) on a free loopback port:
 * used only to inject failures and to record the requests the clients send (their shape is checked by the tests).
 */
export interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The body as UTF-8 text, and its bytes (a multipart upload). */
  body: string;
  raw: Buffer;
}
export type Script = (req: Recorded, res: http.ServerResponse) => void;

/** Answers each request with the next script (the last one repeats) and records every request. */
export async function standIn(
  scripts: Script[],
): Promise<{ baseUrl: string; requests: Recorded[]; close(): Promise<void> }> {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: raw.toString('utf8'),
        raw,
      };
      requests.push(recorded);
      scripts[Math.min(requests.length, scripts.length) - 1]!(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Script =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

/** A chat completion whose message content is `content` (a value is serialised as JSON). */
export function completion(content: unknown, extra: { finish_reason?: string; refusal?: string } = {}): unknown {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_790_000_000,
    model: 'gpt-4o-mini-2024-07-18',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: typeof content === 'string' ? content : JSON.stringify(content),
          refusal: extra.refusal ?? null,
        },
        finish_reason: extra.finish_reason ?? 'stop',
      },
    ],
    usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
  };
}

export const hang: Script = () => undefined;

export async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the condition');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * The errors a client under test threw, kept so that a file can check at its end that none of them carried the API key,
 * however the client failed.
 */
export function thrownErrors() {
  const errors: unknown[] = [];
  return {
    errors,
    /** The error `promise` rejects with (recorded for the key check); fails the test when it resolves. */
    async failure(promise: Promise<unknown>): Promise<Error> {
      try {
        await promise;
      } catch (e) {
        errors.push(e);
        return e as Error;
      }
      throw new Error('expected a failure');
    },
    /** No recorded error's message, stack, JSON or cause holds `secret` or its first 12 characters; at least `atLeast` were recorded. */
    expectNoneHolds(secret: string, atLeast: number): void {
      expect(errors.length).toBeGreaterThanOrEqual(atLeast);
      for (const e of errors) {
        const text =
          e instanceof Error
            ? `${e.message}\n${e.stack ?? ''}\n${JSON.stringify(e)}\n${String(e.cause ?? '')}`
            : String(e);
        expect(text).not.toContain(secret);
        expect(text).not.toContain(secret.slice(0, 12));
      }
    },
  };
}
