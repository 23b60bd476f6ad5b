import { setTimeout as sleep } from 'node:timers/promises';
import type { JobRecord } from '../../services/processing/records.js';

/** A /v1 job record as the client receives it. */
export type JobJson = JobRecord;

/** One job as a client saw it: submitted, then polled until it was terminal. */
export interface PolledJob {
  job: JobJson;
  /** POST /v1/jobs sent -> terminal status seen (performance.now). */
  e2eMs: number;
  /** POST /v1/jobs sent -> 202 body read. */
  submitMs: number;
  /** Wall clock (Date.now) when the POST was sent and when the terminal status was seen, to line up with the job's timestamps. */
  sentAt: number;
  seenAt: number;
  /** GET /v1/jobs/{id} requests until the terminal status. */
  polls: number;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

async function expectJson<T>(res: Response, status: number, what: string): Promise<T> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** A /v1 client with one API key, as an integrator would write it (fetch, bearer key, JSON). */
export function v1Client(baseUrl: string, apiKey: string) {
  const auth = { Authorization: `Bearer ${apiKey}` };
  const getJob = async (id: string): Promise<JobJson> =>
    expectJson<JobJson>(await fetch(`${baseUrl}/v1/jobs/${id}`, { headers: auth }), 200, `GET /v1/jobs/${id}`);
  return {
    /** POST /v1/uploads with one file in the multipart field `files`; returns the upload id. */
    async upload(filename: string, bytes: Uint8Array): Promise<string> {
      const form = new FormData();
      form.append('files', new Blob([new Uint8Array(bytes)]), filename);
      const res = await fetch(`${baseUrl}/v1/uploads`, { method: 'POST', headers: auth, body: form });
      return (await expectJson<{ uploads: Array<{ id: string }> }>(res, 201, `upload ${filename}`)).uploads[0]!.id;
    },

    getJob,

    async download(path: string): Promise<Buffer> {
      const res = await fetch(`${baseUrl}${path}`, { headers: auth });
      if (res.status !== 200)
        throw new Error(`GET ${path}: expected 200, got ${res.status} ${(await res.text()).slice(0, 300)}`);
      return Buffer.from(await res.arrayBuffer());
    },

    /**
     * POST /v1/jobs (with an Idempotency-Key), then GET /v1/jobs/{id} every `pollMs` until the job is completed
     * or failed. The clock starts just before the POST is sent and stops when the terminal status is read.
     */
    async submitAndPoll(
      body: { operation: string; upload_ids: string[]; options: Record<string, unknown> },
      idempotencyKey: string,
      pollMs: number,
      signal: AbortSignal,
    ): Promise<PolledJob> {
      const sentAt = Date.now();
      const started = performance.now();
      const res = await fetch(`${baseUrl}/v1/jobs`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', 'Idempotency-Key': idempotencyKey },
        body: JSON.stringify(body),
      });
      let job = await expectJson<JobJson>(res, 202, `POST /v1/jobs ${body.operation}`);
      const submitMs = performance.now() - started;
      let polls = 0;
      while (!TERMINAL.has(job.status)) {
        await sleep(pollMs, undefined, { signal });
        job = await getJob(job.id);
        polls++;
      }
      return { job, e2eMs: performance.now() - started, submitMs, sentAt, seenAt: Date.now(), polls };
    },
  };
}

export type V1Client = ReturnType<typeof v1Client>;
