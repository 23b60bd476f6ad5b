import http from 'node:http';
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
export async function standIn(scripts: Script[]): Promise<{ baseUrl: string; requests: Recorded[]; close(): Promise<void> }> {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: raw.toString('utf8'), raw };
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
        message: { role: 'assistant', content: typeof content === 'string' ? content : JSON.stringify(content), refusal: extra.refusal ?? null },
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
