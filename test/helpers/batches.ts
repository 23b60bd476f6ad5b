import { expect } from 'vitest';
import type { ProcessingHarness } from './processing.js';
import type { BatchRecord } from '../../services/processing/records.js';

export type BatchJson = BatchRecord;

/** Batch routes of /v1 driven over HTTP, on a ProcessingHarness. */
export function batchClient(h: ProcessingHarness) {
  const json = { 'content-type': 'application/json' };
  const idem = () => `idem-${Math.random().toString(36).slice(2)}`;
  return {
    estimate: (key: string, body: unknown) =>
      fetch(`${h.app.url}/v1/batches/estimate`, {
        method: 'POST',
        headers: { ...h.auth(key), ...json },
        body: JSON.stringify(body),
      }),
    /** Resolves once the batch's workflow start, made while the 202 is sent, has settled (ProcessingHarness.submit). */
    submit: (key: string, body: unknown, idempotencyKey: string = idem()) =>
      h.settled(
        fetch(`${h.app.url}/v1/batches`, {
          method: 'POST',
          headers: { ...h.auth(key), ...json, 'Idempotency-Key': idempotencyKey },
          body: JSON.stringify(body),
        }),
      ),
    async submitOk(key: string, body: unknown): Promise<BatchJson> {
      const res = await this.submit(key, body);
      const out = (await res.json()) as BatchJson;
      expect(res.status, JSON.stringify(out)).toBe(202);
      return out;
    },
    get: (key: string, id: string, query = '') =>
      fetch(`${h.app.url}/v1/batches/${id}${query}`, { headers: h.auth(key) }),
    async getOk(key: string, id: string, query = ''): Promise<BatchJson> {
      const res = await this.get(key, id, query);
      const out = (await res.json()) as BatchJson;
      expect(res.status, JSON.stringify(out)).toBe(200);
      return out;
    },
    retryFailed: (key: string, id: string, idempotencyKey: string = idem()) =>
      h.settled(
        fetch(`${h.app.url}/v1/batches/${id}/retry-failed`, {
          method: 'POST',
          headers: { ...h.auth(key), 'Idempotency-Key': idempotencyKey },
        }),
      ),
    cancel: (key: string, id: string, body: unknown = undefined) =>
      fetch(`${h.app.url}/v1/batches/${id}/cancel`, {
        method: 'POST',
        headers: { ...h.auth(key), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    zip: (key: string, id: string) => fetch(`${h.app.url}/v1/batches/${id}/results.zip`, { headers: h.auth(key) }),
    /** Waits (watching the batches table, not the API's rate limit) until the batch has ended, then reads it. */
    async waitForBatch(key: string, id: string, timeoutMs = 300_000): Promise<BatchJson> {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const row = await h.tdb.db('batches').where({ id }).first('status');
        if (['completed', 'partial', 'failed'].includes(row?.status)) return this.getOk(key, id);
        if (Date.now() > until) throw new Error(`batch ${id} still ${row?.status} after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}
