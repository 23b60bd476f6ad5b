import { createRouter } from '../../api/http/router.js';
import type { Db } from '../../db/connection.js';
import type { Logger } from '../../adapters/logging/logger.js';
import { refuseKeyInQuery, requireApiKey } from '../../api/http/auth.js';
import { idempotent } from '../../api/http/idempotency.js';
import { jsonBody } from '../../api/http/body.js';
import { perIp, perKey, rateLimit } from '../../api/http/rate-limit.js';
import { DomainError } from '../../domain/errors.js';
import { newId } from '../../adapters/crypto/tokens.js';

/** A table the test routes create rows in, so "exactly one effect" can be counted. */
export async function createThingsTable(db: Db): Promise<void> {
  await db.raw(`CREATE TABLE IF NOT EXISTS test_things (
    id text PRIMARY KEY, tenant_id text NOT NULL, name text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
}

/**
 * Routes built only from the shared platform middlewares (auth, rate limits, JSON body, idempotency), mounted
 * under /v1 and /proof/v1 the way later issues mount real resources.
 */
export function testRouters(opts: {
  db: Db;
  logger: Logger;
  perKeyPerMinute?: number;
  perIpPerMinute?: number;
  bodyLimit?: string;
  slowEffectMs?: number;
  now?: () => Date;
}) {
  const { db, logger } = opts;
  const make = (prefix: '/v1' | '/proof/v1', dialect: 'v1' | 'proof') => {
    const router = createRouter({ prefix });
    router.use(
      refuseKeyInQuery(),
      requireApiKey(db, dialect),
      rateLimit(
        db,
        [
          perKey(`${dialect}:test:key:min`, opts.perKeyPerMinute ?? 1000, 60),
          perIp(`${dialect}:test:ip:min`, opts.perIpPerMinute ?? 1000, 60),
        ],
        opts.now,
      ),
      jsonBody(opts.bodyLimit ?? '1kb'),
    );
    router.get('/test-things', async (ctx) => {
      const rows = await db('test_things').where({ tenant_id: ctx.state.apiKey!.tenantId }).orderBy('id');
      ctx.body = { data: rows.map((r) => ({ id: r.id, name: r.name })) };
    });
    router.post(
      '/test-things',
      idempotent(
        { db, logger, dialect, operation: 'things.create', tenantOf: (ctx) => ctx.state.apiKey!.tenantId },
        async (ctx, { transaction }) => {
          const body = ctx.request.body as { name?: unknown } | undefined;
          if (!body || typeof body.name !== 'string' || body.name.length === 0) {
            throw new DomainError('validation_failed', 'name is required');
          }
          const id = newId('thing');
          await transaction('test_things').insert({ id, tenant_id: ctx.state.apiKey!.tenantId, name: body.name });
          if (opts.slowEffectMs) await new Promise((r) => setTimeout(r, opts.slowEffectMs));
          if (body.name === 'explode-after-insert')
            throw new DomainError('validation_failed', 'rejected after the insert');
          ctx.state.resourceId = id;
          ctx.status = 201;
          ctx.body = { id, name: body.name, created: new Date().toISOString() };
        },
      ),
    );
    router.post(
      '/test-other',
      idempotent(
        { db, logger, dialect, operation: 'other.create', tenantOf: (ctx) => ctx.state.apiKey!.tenantId },
        async (ctx) => {
          ctx.status = 201;
          ctx.body = { ok: true };
        },
      ),
    );
    return router;
  };
  return [make('/v1', 'v1'), make('/proof/v1', 'proof')];
}
