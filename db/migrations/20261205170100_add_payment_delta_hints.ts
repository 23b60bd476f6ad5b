import type { Knex } from 'knex';
import { up as createDestinationsFunction } from './20261205160000_insert_payment_request_destinations.js';

export const name = '20261205170100_add_payment_delta_hints';

const SIGNATURE = `paycore_insert_payment_request(boolean, text, text, text, numeric, text, text, text, int,
       text, timestamptz, timestamptz, bigint, bigint, timestamptz, int)`;

/**
 * Where the search for a free matching delta starts, per receiving address and quote, and generic plans for the
 * creation's statements (issue 31 item 5; bench/README.md, "Issue 31 item 5, session 15").
 *
 * Before, every creation read every open amount at its quote (`taken`) and tested each delta from 1 against them, so
 * a creation's locked section grew with the address's open requests at one price; and every call planned its whole
 * statement again (`force_custom_plan`, migration 20261205130000), which cost more than running it.
 *
 * `payment_delta_hints.next_delta` is a lower bound of the free deltas at (network, address_key, quote): every delta
 * below it is held by an open request at that address, except the ones this creation's own `expired` frees, which it
 * also tries (`near`: those and the hint's own delta, each checked by one probe of the open-amount index). Who keeps
 * the bound true:
 * - a creation that took the hint's delta moves the hint one up; one that had to search (`full_search`, the search it
 *   did before, used when the hint's delta is held) moves it past the delta it found, the smallest free one;
 * - an open request that stops being open (paid, expired, cancelled, deleted: any status outside AWAITING/REVIEW)
 *   lowers the hint of every quote whose range holds its amount (quotes amount - 9,999 to amount - 1; 9,999 is
 *   DELTA_MAX of domain/proof/matching-delta.ts), in its own transaction (trigger below; for the rows a creation
 *   expires it fires after the creation's statement). The trigger never waits for a hint's row lock: a hint another
 *   transaction holds (a creation at that quote, another freeing) is skipped, and a reset row is written for it
 *   instead (`payment_delta_hint_resets`, an insert that waits for no one); the next creation at that quote deletes
 *   the resets, starts from the smallest delta and so does the full search, which puts the hint right. So freeing
 *   never waits inside a creation's lock order, and no two transactions wait for each other's hints;
 * - a hint another transaction moved between this creation's read and its write (its `version`) is only ever lowered
 *   by the creation's write, never raised.
 * The hint is only a starting point: a wrong hint costs a search, never uniqueness (the partial unique index stays the
 * guarantee). A quote gets a row only once a creation there takes delta 5 or more (up to four open requests are
 * found by the search cheaply), so one-off invoice totals write no hint.
 *
 * Generic plans: with the hint the statement no longer needs its values to be planned well (the range read that did
 * is now the rare fallback), so it is planned once per connection (`force_generic_plan`) instead of on every call.
 * The receiving address's wallets are read once with the lock (`v_at_address`) rather than joined in every part.
 * `enable_seqscan = off`: each read here is bounded by one address (or one merchant's hour); a generic plan cannot see
 * how few rows that is, and on a small table it would scan the table whole (the expiry's `expires_at <= $now` alone is
 * estimated at a third of the rows).
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE TABLE payment_delta_hints (
      network text NOT NULL,
      address_key text NOT NULL,
      quoted_amount_atomic numeric(38, 0) NOT NULL,
      next_delta bigint NOT NULL,
      version bigint NOT NULL DEFAULT 1,
      PRIMARY KEY (network, address_key, quoted_amount_atomic)
    )`);
  await db.raw(`
    CREATE TABLE payment_delta_hint_resets (
      network text NOT NULL,
      address_key text NOT NULL,
      quoted_amount_atomic numeric(38, 0) NOT NULL
    )`);
  await db.raw(
    'CREATE INDEX payment_delta_hint_resets_key ON payment_delta_hint_resets (network, address_key, quoted_amount_atomic)',
  );
  await db.raw(`
    CREATE FUNCTION paycore_free_payment_delta() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      WITH stale AS (
        SELECT h.network, h.address_key, h.quoted_amount_atomic
          FROM payment_delta_hints h JOIN merchant_wallets w ON h.network = w.network AND h.address_key = w.address_key
         WHERE w.id = OLD.wallet_id
           AND h.quoted_amount_atomic BETWEEN OLD.amount_atomic - 9999 AND OLD.amount_atomic - 1
           AND h.next_delta > OLD.amount_atomic - h.quoted_amount_atomic),
      free_to_lower AS (
        SELECT h.network, h.address_key, h.quoted_amount_atomic FROM payment_delta_hints h
         WHERE (h.network, h.address_key, h.quoted_amount_atomic) IN (SELECT * FROM stale)
           FOR UPDATE SKIP LOCKED),
      lowered AS (
        UPDATE payment_delta_hints h
           SET next_delta = LEAST(h.next_delta, OLD.amount_atomic - h.quoted_amount_atomic), version = h.version + 1
          FROM free_to_lower f
         WHERE (h.network, h.address_key, h.quoted_amount_atomic) = (f.network, f.address_key, f.quoted_amount_atomic)
        RETURNING 1)
      INSERT INTO payment_delta_hint_resets (network, address_key, quoted_amount_atomic)
      SELECT * FROM stale
       WHERE (network, address_key, quoted_amount_atomic) NOT IN (SELECT * FROM free_to_lower);
      RETURN NULL;
    END
    $fn$`);
  await db.raw(`
    CREATE TRIGGER payment_requests_free_delta AFTER UPDATE OF status ON payment_requests FOR EACH ROW
      WHEN (OLD.status IN ('AWAITING', 'REVIEW') AND NEW.status NOT IN ('AWAITING', 'REVIEW'))
      EXECUTE FUNCTION paycore_free_payment_delta()`);
  await db.raw(`
    CREATE TRIGGER payment_requests_free_delta_on_delete AFTER DELETE ON payment_requests FOR EACH ROW
      WHEN (OLD.status IN ('AWAITING', 'REVIEW'))
      EXECUTE FUNCTION paycore_free_payment_delta()`);
  await db.raw(`DROP FUNCTION ${SIGNATURE}`);
  // The function of migration 20261205160000 with `near`, `full_search` and `hinted` in place of `free` and the
  // address's wallets read with the lock; the rest is unchanged (its comments there and in 20261205130000).
  await db.raw(`
    CREATE FUNCTION paycore_insert_payment_request(
      p_lock boolean, p_merchant text, p_wallet text, p_id text, p_quoted numeric, p_description text,
      p_customer_label text, p_expected_payer text, p_valid_hours int, p_invoice text, p_expires_at timestamptz,
      p_now timestamptz, p_delta_min bigint, p_delta_max bigint, p_hourly_since timestamptz, p_hourly_offset int)
    RETURNS TABLE (merchant json, wallet json, request json, destinations json, nth_newest_since timestamptz)
    LANGUAGE plpgsql VOLATILE SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $fn$
    #variable_conflict use_column
    DECLARE
      v_merchant json;
      v_wallet json;
      v_wallet_id text;
      v_network text;
      v_address text;
      v_address_key text;
      v_at_address text[];
    BEGIN
      IF p_lock THEN
        SELECT to_json(m), to_json(w), w.id, w.network, w.address, w.address_key,
               ARRAY(SELECT a.id FROM merchant_wallets a WHERE a.network = w.network AND a.address_key = w.address_key)
          INTO v_merchant, v_wallet, v_wallet_id, v_network, v_address, v_address_key, v_at_address
          FROM merchants m JOIN merchant_wallets w ON w.merchant_id = m.id
         WHERE m.id = p_merchant AND w.id = p_wallet AND w.verified_at IS NOT NULL AND w.held_reason IS NULL
           FOR UPDATE OF m, w;
      ELSE
        SELECT to_json(w), w.id, w.network, w.address, w.address_key,
               ARRAY(SELECT a.id FROM merchant_wallets a WHERE a.network = w.network AND a.address_key = w.address_key)
          INTO v_wallet, v_wallet_id, v_network, v_address, v_address_key, v_at_address
          FROM merchant_wallets w WHERE w.id = p_wallet;
      END IF;
      IF NOT FOUND THEN
        RETURN;
      END IF;
      RETURN QUERY
      WITH expired AS (
        UPDATE payment_requests SET status = 'EXPIRED'
         WHERE payment_requests.wallet_id = ANY (v_at_address) AND payment_requests.status = 'AWAITING'
           AND payment_requests.expires_at <= p_now
        RETURNING payment_requests.amount_atomic),
      reset AS (
        DELETE FROM payment_delta_hint_resets r
         WHERE r.network = v_network AND r.address_key = v_address_key AND r.quoted_amount_atomic = p_quoted
        RETURNING 1),
      hint AS (
        SELECT CASE WHEN EXISTS (SELECT 1 FROM reset) THEN p_delta_min
                    ELSE GREATEST(p_delta_min, COALESCE(h.next_delta, p_delta_min)) END AS s, h.version
          FROM (SELECT 1) AS one
          LEFT JOIN payment_delta_hints h
            ON h.network = v_network AND h.address_key = v_address_key AND h.quoted_amount_atomic = p_quoted),
      near AS (
        SELECT c.d FROM (
          SELECT e.amount_atomic - p_quoted AS d FROM expired e
           WHERE e.amount_atomic BETWEEN p_quoted + p_delta_min AND p_quoted + p_delta_max
          UNION ALL
          SELECT hint.s FROM hint WHERE hint.s <= p_delta_max) AS c
         WHERE NOT EXISTS (
           SELECT 1 FROM payment_requests t
            WHERE t.wallet_id = ANY (v_at_address) AND t.amount_atomic = p_quoted + c.d
              AND t.status IN ('AWAITING', 'REVIEW') AND NOT (t.status = 'AWAITING' AND t.expires_at <= p_now))
         ORDER BY c.d LIMIT 1),
      taken AS (
        SELECT t.amount_atomic FROM payment_requests t
         WHERE t.wallet_id = ANY (v_at_address) AND t.status IN ('AWAITING', 'REVIEW')
           AND NOT (t.status = 'AWAITING' AND t.expires_at <= p_now)
           AND t.amount_atomic BETWEEN p_quoted + p_delta_min AND p_quoted + p_delta_max),
      full_search AS (
        SELECT d FROM generate_series(p_delta_min, LEAST(p_delta_max, p_delta_min + (SELECT count(*) FROM taken))) AS d
         WHERE p_quoted + d NOT IN (SELECT amount_atomic FROM taken)
         ORDER BY d LIMIT 1),
      free AS (
        SELECT n.d, false AS searched FROM near n
        UNION ALL
        SELECT f.d, true FROM full_search f WHERE NOT EXISTS (SELECT 1 FROM near)
        LIMIT 1),
      inserted AS (
        INSERT INTO payment_requests (id, merchant_id, wallet_id, network, pay_to, quoted_amount_atomic, description,
                                      customer_label, expected_payer, valid_hours, status, invoice_id, expires_at,
                                      created_at, amount_atomic)
        SELECT p_id, p_merchant, v_wallet_id, v_network, v_address, p_quoted, p_description,
               p_customer_label, p_expected_payer, p_valid_hours, 'AWAITING', p_invoice, p_expires_at, p_now,
               p_quoted + free.d
          FROM free
        RETURNING *),
      hinted AS (
        INSERT INTO payment_delta_hints AS h (network, address_key, quoted_amount_atomic, next_delta)
        SELECT v_network, v_address_key, p_quoted, x.next_delta
          FROM (SELECT CASE WHEN free.searched THEN free.d + 1
                            WHEN free.d = hint.s THEN hint.s + 1
                            ELSE hint.s END AS next_delta, hint.version
                  FROM free, hint) AS x
         WHERE x.version IS NOT NULL OR x.next_delta > p_delta_min + 4
        ON CONFLICT (network, address_key, quoted_amount_atomic) DO UPDATE
          SET next_delta = CASE WHEN h.version = (SELECT version FROM hint) THEN EXCLUDED.next_delta
                                ELSE LEAST(h.next_delta, EXCLUDED.next_delta) END,
              version = h.version + 1
        RETURNING 1)
      SELECT v_merchant, v_wallet,
             (SELECT (to_jsonb(i) || jsonb_build_object('amount_atomic', i.amount_atomic::text,
                                                        'quoted_amount_atomic', i.quoted_amount_atomic::text))::json
                FROM inserted i),
             (SELECT COALESCE(json_agg(to_json(d) ORDER BY d.created_at, d.id), '[]'::json) FROM (
                SELECT * FROM webhook_endpoints
                 WHERE interface = 'proof' AND tenant_id = p_merchant AND status <> 'deleted' FOR SHARE) AS d),
             CASE WHEN p_hourly_since IS NULL THEN NULL ELSE (
               SELECT h.created_at FROM payment_requests h WHERE h.merchant_id = p_merchant AND h.created_at > p_hourly_since
                ORDER BY h.created_at DESC OFFSET p_hourly_offset LIMIT 1) END;
    END
    $fn$`);
}

export async function down(db: Knex): Promise<void> {
  await createDestinationsFunction(db);
  await db.raw('DROP TRIGGER IF EXISTS payment_requests_free_delta_on_delete ON payment_requests');
  await db.raw('DROP TRIGGER IF EXISTS payment_requests_free_delta ON payment_requests');
  await db.raw('DROP FUNCTION IF EXISTS paycore_free_payment_delta()');
  await db.raw('DROP TABLE IF EXISTS payment_delta_hint_resets');
  await db.raw('DROP TABLE IF EXISTS payment_delta_hints');
}
