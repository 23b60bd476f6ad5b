import type { Middleware } from 'koa';
import type { Knex } from 'knex';
import { canonicalJson } from '../../domain/canonical-json.js';
import { DomainError } from '../../domain/errors.js';
import { IDEMPOTENCY_RULES, parseIdempotencyKey, type IdempotencyDialect } from '../../domain/idempotency.js';
import { sha256Hex } from '../../adapters/crypto/tokens.js';
import {
  claimKey,
  completeKey,
  completeKeyStatement,
  findStoredResponse,
  findStoredResponseAndRetained,
  isKeyTaken,
  storeKeyStatement,
  type KeyRef,
  type StoredResponse,
} from '../../db/repositories/idempotency.repo.js';
import { commitWith } from '../../db/commit-with.js';
import type { Db } from '../../db/connection.js';
import type { Logger } from '../../adapters/logging/logger.js';
import type { AppContext, AppState } from './context.js';
import { runAfterCommit, type AfterCommit } from '../../services/workflows/workflow-starts.js';

/**
 * What an idempotent handler is given, and all it may write through: the transaction the key is claimed in (every
 * effect of the request goes in it, or nothing is kept), the work to run once it has committed, and with
 * `claimAtCommit` the claim of the key with the handler's answer.
 */
export interface IdempotentWork {
  transaction: Knex.Transaction;
  /** Run after the commit (e.g. trying a workflow start the transaction queued); a failure there is logged. */
  afterCommit: AfterCommit;
  /**
   * Stores this answer (status, the body as it will be sent, the resource it names) with the key now, in the
   * transaction, instead of at the end; the response must then be this answer, byte for byte, and the result is true
   * (the key was claimed before the handler ran): a handler uses it to store its answer before a lock it takes last
   * (POST /v1/jobs). Unused by the handler, the key is stored with the response at the end. With `claimAtCommit` the
   * key is only ever stored with the COMMIT, and calling this is a programming error.
   */
  claim: AnswerClaim;
}

export type AnswerClaim = (status: number, body: unknown, resourceId: string | null) => Promise<boolean>;

/** A handler run at most once per (tenant, key): it sets ctx.status and ctx.body (and ctx.state.resourceId). */
export type IdempotentHandler = (ctx: AppContext, work: IdempotentWork) => Promise<void>;

export interface IdempotentOptions {
  db: Db;
  logger: Logger;
  dialect: IdempotencyDialect;
  /** Stable name of the operation, e.g. "requests.create"; part of the conflict check. */
  operation: string;
  /** Tenant the key is scoped to (company or merchant), from the authenticated request. */
  tenantOf: (ctx: AppContext) => string;
  /**
   * What identifies "the same request" (default: route params and body). A route whose body holds a secret
   * replaces it with a keyed digest here, so the stored hash cannot be used to guess the secret.
   */
  fingerprint?: (ctx: AppContext) => unknown;
  /**
   * With `fingerprint` digesting a secret: the request as fingerprinted under each previous secrets key. A stored
   * hash equal to one of them is the same request, so a SECRETS_KEY rotation does not turn a replay into a 409.
   */
  earlierFingerprints?: (ctx: AppContext) => unknown[];
  /**
   * What is kept for replays, when it must differ from the live body: a response that shows a secret once
   * stores a copy without it (spec: secrets are shown once; a replay returns the same status and metadata).
   */
  storedBody?: (body: unknown) => unknown;
  /**
   * Checked before a stored response is replayed, with the id of the resource the first request created: it throws
   * to refuse the replay when that answer no longer holds (e.g. the job it names was deleted, so its id is 404).
   */
  beforeReplay?: (ctx: AppContext, resourceId: string) => Promise<void>;
  /** At most this many stored responses per tenant; a new key past it is refused (422), replays still work. */
  retainedLimit?: number;
  /**
   * Claim the key with the stored response in the statement sent with the COMMIT (one round trip for both, and no
   * statement first): for a handler whose every effect is in `work.transaction` and that takes a lock a concurrent
   * request with the same key also takes (e.g. the merchant row), so the second waits for the first to commit, then
   * finds the key taken, and its work is rolled back with that statement; it replays the first answer. A refusal
   * (an error of the interface's shape, or a status of 400 or more) is checked against the key the same way, so a
   * same-key request that waited behind the first gets the first's answer, not a refusal of its own (e.g. the quota the
   * first just used up). Only for a dialect that keeps responses forever.
   */
  claimAtCommit?: boolean;
  now?: () => Date;
}

const MAX_CLAIM_ROUNDS = 5;

/**
 * Runs the handler at most once per (tenant, key). The handler's writes must go through `work.transaction`: the
 * key is claimed in that same transaction, so a concurrent request with the same key waits on the unique
 * index and then replays the stored response. Any error rolls everything back: nothing is stored or created.
 * The stored status and body bytes are replayed as they were, unless `beforeReplay` refuses (the resource they
 * name is gone). A key reused for another operation or payload is a conflict (409).
 */
export function idempotent(opts: IdempotentOptions, handler: IdempotentHandler): Middleware<AppState> {
  const now = opts.now ?? (() => new Date());
  const retention = IDEMPOTENCY_RULES[opts.dialect].retentionDays;
  // The bound counts responses kept forever (db: idempotency_retained); a dialect whose keys expire has none to count.
  if (opts.retainedLimit !== undefined && retention !== null)
    throw new Error(
      `idempotency: a retained-responses bound needs a dialect that keeps responses forever, not ${opts.dialect}`,
    );
  const bounded = opts.retainedLimit !== undefined;
  /** What a replay gets for an answer sent as `sent`: the same bytes, or `storedBody`'s copy of the answer. */
  const storedBytes = (answer: unknown, sent: Buffer) =>
    opts.storedBody ? Buffer.from(JSON.stringify(opts.storedBody(answer)), 'utf8') : sent;
  if (opts.claimAtCommit && retention !== null)
    throw new Error(`idempotency: claimAtCommit needs a dialect that keeps responses forever, not ${opts.dialect}`);
  /**
   * With `claimAtCommit`, after a refusal was rolled back: the answer a same-key request committed while this one
   * waited for its locks, replayed (true); false when the key is still free, and the refusal stands.
   */
  const replayIfTaken = async (ctx: AppContext, ref: KeyRef, requestHash: string): Promise<boolean> => {
    const stored = await findStoredResponse(opts.db, ref, now());
    if (!stored) return false;
    await replayStored(ctx, stored, requestHash);
    return true;
  };
  /** The stored answer of the same request, replayed; a conflict (409) when the key was used for another. */
  const replayStored = async (ctx: AppContext, stored: StoredResponse, requestHash: string): Promise<void> => {
    const earlier = () =>
      opts.earlierFingerprints ? opts.earlierFingerprints(ctx).map((f) => sha256Hex(canonicalJson(f))) : [];
    assertSameRequest(stored, opts.operation, requestHash, earlier);
    if (opts.beforeReplay && stored.resourceId !== null) await opts.beforeReplay(ctx, stored.resourceId);
    replay(ctx, stored);
  };
  return async (ctx) => {
    const key = parseIdempotencyKey(opts.dialect, ctx.get('Idempotency-Key') || undefined);
    const ref: KeyRef = { dialect: opts.dialect, tenantId: opts.tenantOf(ctx), key };
    const requestHash = sha256Hex(
      canonicalJson(
        opts.fingerprint ? opts.fingerprint(ctx) : { params: ctx.params ?? {}, body: ctx.request.body ?? null },
      ),
    );

    for (let round = 0; round < MAX_CLAIM_ROUNDS; round++) {
      const at = now();
      // First round: what the key statement already read for this key and tenant, if it did (no statement here).
      // Otherwise, with a bound, the stored response and the tenant's retained count come in one statement.
      const read = round === 0 ? readWithKey(ctx, ref) : null;
      const { stored, retained } =
        read ??
        (bounded
          ? await findStoredResponseAndRetained(opts.db, ref, at)
          : { stored: await findStoredResponse(opts.db, ref, at), retained: 0 });
      if (stored) return replayStored(ctx, stored, requestHash);
      if (opts.retainedLimit !== undefined && retained >= opts.retainedLimit) {
        throw new DomainError(
          'quota_exceeded',
          `This account has ${opts.retainedLimit} stored idempotent responses, the fair-use bound; contact support`,
        );
      }

      const trx = await opts.db.transaction();
      const afterCommit: AfterCommit = [];
      let committed = false;
      try {
        const expiresAt = retention === null ? null : new Date(at.getTime() + retention * 86_400_000);
        if (
          !opts.claimAtCommit &&
          !(await claimKey(trx, ref, { operation: opts.operation, requestHash, expiresAt }, at))
        ) {
          await trx.rollback();
          continue; // someone else held it: their response is committed now (or they rolled back)
        }
        let answered: { status: number; bytes: Buffer } | null = null;
        const claim: AnswerClaim = async (status, answer, resourceId) => {
          if (answered) throw new Error('idempotency: the handler claimed the key twice');
          if (opts.claimAtCommit)
            throw new Error('idempotency: with claimAtCommit the answer is stored with the commit, not claimed');
          const bytes = Buffer.from(JSON.stringify(answer), 'utf8');
          const response = {
            status,
            body: storedBytes(answer, bytes),
            contentType: 'application/json; charset=utf-8',
            resourceId,
          };
          // Claimed before the handler ran: the answer is stored now, in the transaction, instead of after it.
          await completeKey(trx, ref, response, { retained: retention === null });
          answered = { status, bytes };
          return true;
        };
        await handler(ctx, { transaction: trx, afterCommit, claim });
        const claimedWith = answered as { status: number; bytes: Buffer } | null;
        if (ctx.status >= 400) {
          await trx.rollback();
          if (opts.claimAtCommit) await replayIfTaken(ctx, ref, requestHash);
          return;
        }
        const body = Buffer.from(JSON.stringify(ctx.body ?? null), 'utf8');
        const response = {
          status: ctx.status,
          body: storedBytes(ctx.body ?? null, body),
          contentType: 'application/json; charset=utf-8',
          resourceId: ctx.state.resourceId ?? null,
        };
        if (claimedWith) {
          // What was stored is what is sent, byte for byte, or nothing is committed.
          if (claimedWith.status !== ctx.status || !claimedWith.bytes.equals(body))
            throw new Error('idempotency: the answer claimed with the key differs from the response');
          await trx.commit();
        } else if (opts.claimAtCommit) {
          try {
            await commitWith(trx, storeKeyStatement(trx, ref, { operation: opts.operation, requestHash }, response));
          } catch (e) {
            if (!isKeyTaken(e)) throw e;
            continue; // a request with the same key committed first (this COMMIT rolled back): replay its answer
          }
        } else {
          await commitWith(trx, completeKeyStatement(trx, ref, response, { retained: retention === null }));
        }
        committed = true;
        ctx.type = 'application/json; charset=utf-8';
        ctx.body = body;
      } catch (e) {
        if (!committed && !trx.isCompleted()) await trx.rollback();
        if (
          opts.claimAtCommit &&
          !committed &&
          e instanceof DomainError &&
          (await replayIfTaken(ctx, ref, requestHash))
        )
          return;
        throw e;
      }
      const failed = (err: unknown) =>
        opts.logger.error(
          { err, requestId: ctx.state.requestId, operation: opts.operation },
          'after-commit hook failed',
        );
      await runAfterCommit(afterCommit, opts.db, failed);
      return;
    }
    throw new DomainError(
      'idempotency_in_progress',
      'A request with this Idempotency-Key is still being processed; retry shortly',
    );
  };
}

/**
 * The lookup the authentication statement made for this request's key (AppState.idempotencyRead), taken once and only
 * when it is for the same dialect, tenant and key. It is a read like findStoredResponseAndRetained's, made a few
 * middlewares earlier: a same-key request that commits in between is found by the claim, as after any lookup.
 */
function readWithKey(ctx: AppContext, ref: KeyRef): { stored: StoredResponse | null; retained: number } | null {
  const read = ctx.state.idempotencyRead;
  ctx.state.idempotencyRead = undefined;
  if (!read || read.ref.dialect !== ref.dialect || read.ref.tenantId !== ref.tenantId || read.ref.key !== ref.key)
    return null;
  return { stored: read.stored, retained: read.retained };
}

function assertSameRequest(
  stored: StoredResponse,
  operation: string,
  requestHash: string,
  earlierHashes: () => string[],
): void {
  if (
    stored.operation !== operation ||
    (stored.requestHash !== requestHash && !earlierHashes().includes(stored.requestHash))
  ) {
    throw new DomainError(
      'idempotency_conflict',
      'This Idempotency-Key was already used for a different operation or payload; use a new key',
    );
  }
}

function replay(ctx: AppContext, stored: StoredResponse): void {
  // The resource the first answer named, for what wraps this middleware (e.g. the Location of a 202).
  if (stored.resourceId !== null) ctx.state.resourceId = stored.resourceId;
  ctx.status = stored.status;
  ctx.type = stored.contentType;
  ctx.body = stored.body;
  ctx.set('Idempotent-Replayed', 'true');
}
