import type { Db } from '../connection.js';
import { toDelivery, toEndpoint, type WebhookDelivery, type WebhookEndpoint } from './webhooks.repo.js';

/** The channel every insert into `webhook_deliveries` notifies at commit (migration 20261124090000). */
export const DISPATCH_CHANNEL = 'webhook_dispatch';

/** A delivery claimed by a dispatcher: what to send, and the claim that fences what it writes back. */
export interface ClaimedDelivery {
  delivery: WebhookDelivery;
  endpoint: WebhookEndpoint;
  body: Buffer;
  /** `queued`: send the first attempt (`attemptId` is its row, already in flight); `handoff`: start the retries. */
  dispatch: 'queued' | 'handoff';
  attemptId: number | null;
  /** The claiming dispatcher's token: what it writes back is fenced by it (a row taken over has another). */
  claim: string;
  /** Test-only waits between attempts (`createDelivery`'s `delaysMs`), or null. */
  retryDelaysMs: number[] | null;
  /** The W3C `traceparent` of the work that queued the delivery (tracing on), or null. */
  traceParent: string | null;
}

/** How far into the queue (oldest first) a claim looks for destinations with a free slot. */
const CLAIM_WINDOW = 1000;

/** What a dispatcher may still take, given what it holds (docs/webhooks.md, "How a delivery is sent"). */
export interface ClaimBounds {
  /** The dispatcher's token: the rows are claimed under it. */
  claim: string;
  /** At most this many rows in all (the process's free slots). */
  limit: number;
  leaseMs: number;
  /** Rows one destination may hold, counting `inFlight`. */
  perEndpoint: number;
  /** Rows one tenant (a webhook destination's owner: company or merchant) may hold, counting `tenantsHeld`. */
  perTenant: number;
  /**
   * Rows that are not a tenant's first may take only this many slots: the rest of `limit` is kept for tenants that
   * hold nothing yet, so their first attempts never wait behind what other tenants hold, however slow.
   */
  shared: number;
  /** Rows the caller holds per destination (claimed, sending or waiting). */
  inFlight: ReadonlyMap<string, number>;
  /** Rows the caller holds per tenant (sending or waiting, as `inFlight`). */
  tenantsHeld: ReadonlyMap<string, number>;
  /** Ids of the rows the caller holds (never claimed again by it). */
  held: readonly string[];
}

/**
 * Claims up to `limit` deliveries queued for the dispatcher (oldest first) for `leaseMs` under the dispatcher's
 * token `claim`, skipping rows another dispatcher holds (and the ones in `held`, the caller's own), never giving
 * one destination more than `perEndpoint` nor one tenant more than `perTenant` (counting what the caller holds), and
 * giving rows beyond a tenant's first no more than `shared` slots. One statement: an expired claim (a dispatcher that
 * died mid-send) is taken over, its in-flight attempt closed as interrupted, and for each queued delivery its first
 * attempt row is written, in flight, with the endpoint's key version of the moment. Only the oldest `CLAIM_WINDOW`
 * waiting rows of destinations and tenants the caller can still take more of are looked at: a claim costs about the
 * same however long the queue grows, and a long backlog for slow destinations (their caps full) does not hide the
 * rows of others behind it.
 */
export async function claimDispatch(db: Db, opts: ClaimBounds): Promise<ClaimedDelivery[]> {
  const { rows } = await db.raw(
    `WITH busy AS (
       SELECT * FROM unnest(?::text[], ?::int[]) AS b(endpoint_id, n)
     ), busy_tenants AS (
       SELECT * FROM unnest(?::text[], ?::int[]) AS t(tenant_id, n)
     ), waiting AS (
       SELECT d.id, d.endpoint_id, e.tenant_id, d.created_at
         FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.dispatch IS NOT NULL AND (d.dispatch_until IS NULL OR d.dispatch_until < now())
          AND d.endpoint_id NOT IN (SELECT endpoint_id FROM busy WHERE n >= ?)
          -- a tenant at its cap gets nothing; with no shared slot left, neither does any tenant that holds rows
          AND e.tenant_id NOT IN (SELECT tenant_id FROM busy_tenants WHERE n >= ? OR ? <= 0)
        ORDER BY d.created_at
        LIMIT ${CLAIM_WINDOW}
     ), per_endpoint AS (
       SELECT w.id, w.tenant_id, w.created_at,
              row_number() OVER (PARTITION BY w.endpoint_id ORDER BY w.created_at) + coalesce(b.n, 0) AS slot
         FROM waiting w LEFT JOIN busy b ON b.endpoint_id = w.endpoint_id
     ), per_tenant AS (
       SELECT p.id, p.created_at, row_number() OVER (PARTITION BY p.tenant_id ORDER BY p.created_at) AS rank, coalesce(t.n, 0) AS holds
         FROM per_endpoint p LEFT JOIN busy_tenants t ON t.tenant_id = p.tenant_id
        WHERE p.slot <= ?
     ), eligible AS (
       SELECT id, holds = 0 AND rank = 1 AS first_of_tenant,
              count(*) FILTER (WHERE NOT (holds = 0 AND rank = 1)) OVER (ORDER BY created_at, id) AS shared_slot
         FROM per_tenant
        WHERE holds + rank <= ?
     ), picked AS (
       SELECT id FROM webhook_deliveries
        WHERE id IN (SELECT id FROM eligible WHERE first_of_tenant OR shared_slot <= ?)
          AND dispatch IS NOT NULL AND (dispatch_until IS NULL OR dispatch_until < now())
          AND NOT (id = ANY(?::text[]))
        ORDER BY created_at
        LIMIT ?
        FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE webhook_deliveries d SET dispatch_claim = ?, dispatch_until = now() + make_interval(secs => ?::int / 1000.0)
         FROM picked WHERE d.id = picked.id
       RETURNING d.*
     ), interrupted AS (
       UPDATE webhook_delivery_attempts a SET outcome = 'interrupted', error_class = 'worker_interrupted', finished_at = now()
         FROM claimed c WHERE a.delivery_id = c.id AND c.dispatch = 'queued' AND a.outcome = 'in_flight'
     ), started AS (
       INSERT INTO webhook_delivery_attempts (delivery_id, attempt_no, key_version, outcome)
       SELECT c.id, c.attempts + 1, e.key_version, 'in_flight'
         FROM claimed c JOIN webhook_endpoints e ON e.id = c.endpoint_id
        WHERE c.dispatch = 'queued' AND c.status = 'pending'
       RETURNING id, delivery_id
     )
     SELECT c.*, s.id AS attempt_id,
            e.id AS e_id, e.interface AS e_interface, e.tenant_id AS e_tenant_id, e.url AS e_url, e.events AS e_events,
            e.secret_sealed AS e_secret_sealed, e.key_version AS e_key_version, e.status AS e_status, e.created_at AS e_created_at
       FROM claimed c
       JOIN webhook_endpoints e ON e.id = c.endpoint_id
       LEFT JOIN started s ON s.delivery_id = c.id
      ORDER BY c.created_at`,
    [
      [...opts.inFlight.keys()],
      [...opts.inFlight.values()],
      [...opts.tenantsHeld.keys()],
      [...opts.tenantsHeld.values()],
      opts.perEndpoint,
      opts.perTenant,
      opts.shared,
      opts.perEndpoint,
      opts.perTenant,
      opts.shared,
      opts.held as string[],
      opts.limit,
      opts.claim,
      opts.leaseMs,
    ],
  );
  return (rows as Array<Record<string, unknown>>).map((r) => ({
    delivery: toDelivery(r),
    endpoint: toEndpoint({
      id: r['e_id'],
      interface: r['e_interface'],
      tenant_id: r['e_tenant_id'],
      url: r['e_url'],
      events: r['e_events'],
      secret_sealed: r['e_secret_sealed'],
      key_version: r['e_key_version'],
      status: r['e_status'],
      created_at: r['e_created_at'],
    }),
    body: r['body'] as Buffer,
    dispatch: r['dispatch'] as 'queued' | 'handoff',
    attemptId: r['attempt_id'] === null || r['attempt_id'] === undefined ? null : Number(r['attempt_id']),
    claim: r['dispatch_claim'] as string,
    retryDelaysMs: (r['retry_delays_ms'] as number[] | null) ?? null,
    traceParent: (r['trace_parent'] as string | null) ?? null,
  }));
}

/** What `finishDispatched` records for one dispatched attempt. */
export interface DispatchedResult {
  claimed: Pick<ClaimedDelivery, 'delivery' | 'claim'>;
  attemptId: number;
  result: {
    outcome: 'delivered' | 'retry' | 'terminal';
    statusCode: number | null;
    errorClass: string | null;
    durationMs: number;
  };
  state: 'delivered' | 'failed' | 'retrying';
  nextAttemptAt: Date | null;
}

/**
 * Records dispatched attempts' results and their deliveries' new states, any number in one statement (the dispatcher
 * groups the attempts that end while a previous write is in flight), each under its claim: a delivered or failed
 * delivery leaves the dispatcher; a retrying one becomes a `handoff` (still claimed) until its workflow is started.
 * Nothing changes on a delivery whose claim was lost (taken over after its lease); its attempt row still gets what
 * really happened. Returns the ids of the deliveries whose state was written.
 */
export async function finishDispatched(db: Db, results: readonly DispatchedResult[]): Promise<Set<string>> {
  if (results.length === 0) return new Set();
  const col = <T>(f: (r: DispatchedResult) => T) => results.map(f);
  const { rows } = await db.raw(
    `WITH f AS (
       SELECT * FROM unnest(?::bigint[], ?::text[], ?::text[], ?::int[], ?::text[], ?::int[], ?::text[], ?::timestamptz[], ?::text[])
         AS f(attempt_id, delivery_id, outcome, status_code, error_class, duration_ms, state, next_attempt_at, claim)
     ), attempt AS (
       UPDATE webhook_delivery_attempts a
          SET outcome = f.outcome, status_code = f.status_code, error_class = f.error_class, duration_ms = f.duration_ms, finished_at = now()
         FROM f WHERE a.id = f.attempt_id
     )
     UPDATE webhook_deliveries d
        SET status = f.state, attempts = GREATEST(d.attempts, 1), next_attempt_at = f.next_attempt_at,
            last_status_code = f.status_code, last_error_class = f.error_class,
            delivered_at = CASE WHEN f.state = 'delivered' THEN now() END,
            failed_at = CASE WHEN f.state = 'failed' THEN now() END,
            updated_at = now(),
            dispatch = CASE WHEN f.state = 'retrying' THEN 'handoff' END,
            dispatch_claim = CASE WHEN f.state = 'retrying' THEN d.dispatch_claim END,
            dispatch_until = CASE WHEN f.state = 'retrying' THEN d.dispatch_until END
       FROM f
      WHERE d.id = f.delivery_id AND d.dispatch = 'queued' AND d.dispatch_claim = f.claim
     RETURNING d.id`,
    // Typed columns; knex's RawBinding does not list arrays of nullable values.
    [
      col((r) => r.attemptId),
      col((r) => r.claimed.delivery.id),
      col((r) => r.result.outcome),
      col((r) => r.result.statusCode),
      col((r) => r.result.errorClass),
      col((r) => r.result.durationMs),
      col((r) => r.state),
      col((r) => r.nextAttemptAt),
      col((r) => r.claimed.claim),
    ] as unknown as string[],
  );
  return new Set((rows as Array<{ id: string }>).map((r) => r.id));
}

/**
 * The dispatcher lets go of a row it claimed: one that needs no send (settled meanwhile, e.g. by an operator), or one
 * whose retries now belong to its workflow. Only under its own claim.
 */
export async function releaseClaim(db: Db, claimed: Pick<ClaimedDelivery, 'delivery' | 'claim'>): Promise<void> {
  await db('webhook_deliveries')
    .where({ id: claimed.delivery.id, dispatch_claim: claimed.claim })
    .update({ dispatch: null, dispatch_claim: null, dispatch_until: null });
}

/** Extends the lease of the rows `ids` the dispatcher `claim` holds (one statement, while it runs). */
export async function renewClaims(db: Db, claim: string, ids: readonly string[], leaseMs: number): Promise<number> {
  return db('webhook_deliveries')
    .where({ dispatch_claim: claim })
    .whereIn('id', ids as string[])
    .whereNotNull('dispatch')
    .update({ dispatch_until: db.raw('now() + make_interval(secs => ?::int / 1000.0)', [leaseMs]) });
}
