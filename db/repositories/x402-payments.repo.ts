import { createHash } from 'node:crypto';
import type { Db } from '../connection.js';

/**
 * Durable record of every EIP-3009 authorization accepted on a paid /x402 route.
 *
 * Transitions (each one a conditional UPDATE, so it happens at most once even with several processes):
 *   verified    -> not_settled   the handler did not succeed: the payment is never settled
 *   verified    -> settling      the handler succeeded: this process (and only it) settles
 *   settling    -> settled       settlement confirmed (facilitator or chain state)
 *   settling    -> failed        settlement refused and the chain shows the fee was not paid
 *   settling    -> uncertain     the outcome is unknown (facilitator timeout/error, chain not yet showing it)
 *   uncertain   -> settled | failed   a later reconciliation from chain state
 */
export type X402PaymentStatus = 'verified' | 'not_settled' | 'settling' | 'settled' | 'failed' | 'uncertain';

export interface AuthorizationRef {
  network: string;
  asset: string;
  payer: string;
  nonce: string;
}

export interface X402PaymentClaim extends AuthorizationRef {
  payTo: string;
  amountAtomic: string;
  validBefore: Date;
  operation: string;
  resource: string;
  /** sha256 of the paid request (operation + canonical arguments): a re-presentation must be for the same request. */
  requestFingerprint: string;
  /** sha256 of the presented payment payload: a re-presentation must carry the same one. */
  payloadSha256: string;
}

/** A successful answer of a paid call, kept until its settlement is decided and it has been delivered. */
export interface KeptAnswer {
  status: number;
  contentType: string;
  /** Response headers to send again with it (e.g. Content-Disposition, X-Evidence-SHA256). */
  headers: Record<string, string>;
  body: Buffer;
}

export interface X402PaymentRecord extends Omit<X402PaymentClaim, 'requestFingerprint' | 'payloadSha256'> {
  id: string;
  status: X402PaymentStatus;
  reason: string | null;
  handlerStatus: number | null;
  transaction: string | null;
  requestFingerprint: string | null;
  payloadSha256: string | null;
  /** Whether an answer is kept (its body is read with loadKeptAnswer). */
  answerKept: boolean;
  /** When the first request answered without the kept answer (its settlement was undecided). */
  withheldAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const norm = (ref: AuthorizationRef) => ({
  network: ref.network,
  asset: ref.asset.toLowerCase(),
  payer: ref.payer.toLowerCase(),
  nonce: ref.nonce.toLowerCase(),
});

/** The row id of an authorization: sha256 of network|asset|payer|nonce (lower-case hex). */
export function authorizationId(ref: AuthorizationRef): string {
  const n = norm(ref);
  return createHash('sha256').update(`${n.network}|${n.asset}|${n.payer}|${n.nonce}`).digest('hex');
}

/** Whether this authorization was ever accepted here (whatever happened to it since). */
export async function isAuthorizationRecorded(db: Db, ref: AuthorizationRef): Promise<boolean> {
  const row = await db('x402_payments').where(norm(ref)).first('id');
  return row !== undefined;
}

/**
 * Records an accepted authorization in status `verified`. Returns false when it is already recorded (a replay,
 * or a concurrent presentation that won): the unique (network, asset, payer, nonce) decides, durably.
 */
export async function claimAuthorization(db: Db, claim: X402PaymentClaim): Promise<boolean> {
  const rows = await db('x402_payments')
    .insert({
      id: authorizationId(claim),
      ...norm(claim),
      pay_to: claim.payTo.toLowerCase(),
      amount_atomic: claim.amountAtomic,
      valid_before: claim.validBefore,
      operation: claim.operation,
      resource: claim.resource,
      request_fingerprint: claim.requestFingerprint,
      payload_sha256: claim.payloadSha256,
      status: 'verified',
    })
    // No conflict target: a racing insert of the same authorization collides on the primary key (derived from the
    // same four columns) as well as on the unique index, and either collision must mean "already claimed", not a 500.
    .onConflict()
    .ignore()
    .returning('id');
  return rows.length === 1;
}

/**
 * Moves a payment from one of `from` to `to`; returns false (and changes nothing) when it is not in `from`.
 * This is the only way a status changes.
 */
export async function transitionPayment(
  db: Db,
  id: string,
  from: readonly X402PaymentStatus[],
  to: X402PaymentStatus,
  facts: {
    reason?: string | null;
    handlerStatus?: number | null;
    transaction?: string | null;
    answer?: KeptAnswer | null;
  } = {},
): Promise<boolean> {
  const rows = await db('x402_payments')
    .where({ id })
    .whereIn('status', [...from])
    .update({
      status: to,
      ...(facts.reason !== undefined ? { reason: facts.reason?.slice(0, 200) ?? null } : {}),
      ...(facts.handlerStatus !== undefined ? { handler_status: facts.handlerStatus } : {}),
      ...(facts.transaction !== undefined ? { transaction: facts.transaction } : {}),
      ...(facts.answer !== undefined ? answerColumns(facts.answer) : {}),
      updated_at: db.fn.now(),
    })
    .returning('id');
  return rows.length === 1;
}

const answerColumns = (a: KeptAnswer | null) => ({
  answer_status: a?.status ?? null,
  answer_type: a?.contentType ?? null,
  answer_headers: a ? JSON.stringify(a.headers) : null,
  answer_body: a?.body ?? null,
});

/** Every column but the kept answer's body, and whether there is one. */
const RECORD_COLUMNS = [
  'id',
  'network',
  'asset',
  'payer',
  'nonce',
  'pay_to',
  'amount_atomic',
  'valid_before',
  'operation',
  'resource',
  'status',
  'reason',
  'handler_status',
  'transaction',
  'request_fingerprint',
  'payload_sha256',
  'withheld_at',
  'delivered_at',
  'created_at',
  'updated_at',
] as const;
const selectRecord = (db: Db) =>
  db('x402_payments').select([...RECORD_COLUMNS, db.raw('(answer_body IS NOT NULL) AS answer_kept')]);

function fromRow(row: Record<string, unknown>): X402PaymentRecord {
  return {
    id: row.id as string,
    network: row.network as string,
    asset: row.asset as string,
    payer: row.payer as string,
    nonce: row.nonce as string,
    payTo: row.pay_to as string,
    amountAtomic: String(row.amount_atomic),
    validBefore: row.valid_before as Date,
    operation: row.operation as string,
    resource: row.resource as string,
    status: row.status as X402PaymentStatus,
    reason: (row.reason as string | null) ?? null,
    handlerStatus: (row.handler_status as number | null) ?? null,
    transaction: (row.transaction as string | null) ?? null,
    requestFingerprint: (row.request_fingerprint as string | null) ?? null,
    payloadSha256: (row.payload_sha256 as string | null) ?? null,
    answerKept: row.answer_kept === true,
    withheldAt: (row.withheld_at as Date | null) ?? null,
    deliveredAt: (row.delivered_at as Date | null) ?? null,
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
  };
}

export async function findPayment(db: Db, ref: AuthorizationRef): Promise<X402PaymentRecord | null> {
  const row = await selectRecord(db).where(norm(ref)).first();
  return row ? fromRow(row) : null;
}

/** The kept answer of a payment, or null when none is kept (never stored, delivered, refused or purged). */
export async function loadKeptAnswer(db: Db, id: string): Promise<KeptAnswer | null> {
  const row = await db('x402_payments')
    .where({ id })
    .whereNotNull('answer_body')
    .first('answer_status', 'answer_type', 'answer_headers', 'answer_body');
  if (!row) return null;
  return {
    status: row.answer_status as number,
    contentType: row.answer_type as string,
    headers: row.answer_headers as Record<string, string>,
    body: row.answer_body as Buffer,
  };
}

/** Records that the first request answered without the kept answer: a re-presentation may now fetch it. */
export async function markAnswerWithheld(db: Db, id: string): Promise<void> {
  await db('x402_payments').where({ id }).whereNull('delivered_at').update({ withheld_at: db.fn.now() });
}

/** Records that a settled payment's answer reached its caller and drops the kept copy. */
export async function markAnswerDelivered(db: Db, id: string): Promise<void> {
  await db('x402_payments')
    .where({ id })
    .update({ ...answerColumns(null), delivered_at: db.fn.now() });
}

/**
 * Drops kept answers nobody came back for: those of settled payments last changed before `before`. Answers of
 * payments still open stay (their caller may yet re-present the authorization). Returns how many were dropped.
 */
export async function purgeKeptAnswers(db: Db, before: Date, limit: number): Promise<number> {
  const ids = db('x402_payments')
    .select('id')
    .whereNotNull('answer_body')
    .andWhere('status', 'settled')
    .andWhere('updated_at', '<', before)
    .limit(limit);
  return db('x402_payments').whereIn('id', ids).update(answerColumns(null));
}

/** Payments whose settlement outcome is still open, oldest first (for a reconciliation sweep). */
export async function listUncertainPayments(db: Db, limit = 100): Promise<X402PaymentRecord[]> {
  const rows = await selectRecord(db).where({ status: 'uncertain' }).orderBy('updated_at').limit(limit);
  return rows.map(fromRow);
}

/**
 * Payments whose settlement outcome is open: `uncertain`, or `settling` for longer than `staleBefore` (the
 * process died during its single settle call). Oldest first, for the maintenance reconciliation.
 */
export async function listPaymentsToReconcile(db: Db, staleBefore: Date, limit: number): Promise<X402PaymentRecord[]> {
  const rows = await selectRecord(db)
    .where((q) =>
      q
        .where({ status: 'uncertain' })
        .orWhere((o) => o.where({ status: 'settling' }).andWhere('updated_at', '<', staleBefore)),
    )
    .orderBy('updated_at')
    .limit(limit);
  return rows.map(fromRow);
}
