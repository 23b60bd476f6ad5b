import { expect } from 'vitest';
import { createDb, type Db } from '../../db/connection.js';
import { obj, type Conformance, type Obj } from './openapi-conformance.js';
import { startConnectionDropper } from './tcp-fault.js';
import { capturingLogger } from './logs.js';
import { newIdem } from './proof.js';

/** A Db whose server closes every connection at once: every query fails as "database unavailable", quickly. */
export async function unreachableDb(): Promise<{ db: Db; close(): Promise<void> }> {
  const dropper = await startConnectionDropper();
  const db = createDb(`postgres://paycore:unused@127.0.0.1:${dropper.port}/paycore`, {
    poolMax: 2,
    applicationName: 'paycore-unreachable-test',
    timeouts: { connectMs: 5_000, statementMs: 5_000, acquireMs: 30_000 },
    logger: capturingLogger().logger,
  });
  return {
    db,
    async close() {
      await db.destroy();
      await dropper.close();
    },
  };
}

/**
 * Every operation of an OpenAPI document as a request line: path parameters filled with their example, a well-formed
 * id of the prefix their description names (`job_…`), or 0 for an integer.
 */
export function everyOperation(doc: Obj): Array<{ key: string; method: string; path: string }> {
  return Object.entries(obj(doc['paths'])).flatMap(([template, item]) =>
    Object.entries(obj(item)).map(([method, op]) => {
      const params = (obj(op)['parameters'] as unknown[] | undefined) ?? [];
      const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
        const p = params.map(obj).find((x) => x['name'] === name && x['in'] === 'path') ?? {};
        if (typeof p['example'] === 'string') return p['example'];
        if (obj(p['schema'])['type'] === 'integer') return '0';
        const prefix = /`([a-z]+)_…`/.exec(String(p['description'] ?? ''))?.[1] ?? 'id';
        return `${prefix}_${'A'.repeat(20)}`;
      });
      return { key: `${method.toUpperCase()} ${template}`, method: method.toUpperCase(), path };
    }),
  );
}

/**
 * Sends every operation of the document to an app whose database is unreachable (with a key of `bearer`):
 * an operation documenting a 503 answers it with `service_unavailable` (checked against the document, Retry-After
 * included); one that documents none reads no database and answers 200.
 */
export async function expectDocumented503s(c: Conformance, appUrl: string, bearer: string): Promise<void> {
  for (const op of everyOperation(c.doc)) {
    const post = op.method === 'POST';
    const res = await fetch(`${appUrl}${op.path}`, {
      method: op.method,
      headers: {
        Authorization: `Bearer ${bearer}`,
        ...(post ? { 'Idempotency-Key': newIdem(), 'content-type': 'application/json' } : {}),
      },
      ...(post ? { body: '{}' } : {}),
    });
    if (!('503' in obj(c.operation(op.key)['responses']))) {
      expect(res.status, `${op.key} reads no database`).toBe(200);
      await res.body?.cancel();
      continue;
    }
    expect(res.status, op.key).toBe(503);
    expect(obj(await c.check(op.key, res))['code'], op.key).toBe('service_unavailable');
  }
}
