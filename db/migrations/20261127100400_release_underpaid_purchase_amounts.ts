import type { Knex } from 'knex';

export const name = '20261127100400_release_underpaid_purchase_amounts';

/** The platform's own /proof account (db/repositories/platform-purchases.repo.ts PLATFORM_MERCHANT_ID). */
const PLATFORM_MERCHANT_ID = 'mer_PlatformReceiving001';

/**
 * An underpaid self-service purchase no longer parks its amount (docs/proof.md "Plans paid in USDC"): its request
 * stays AWAITING, marked `review_reason: underpaid`, and frees its amount when it expires. Before, a transfer of one
 * unit from the named payer moved it to REVIEW, which holds the amount for good: 9,999 such transfers blocked a price
 * for everyone. The requests of purchases parked that way are returned to the state the rule gives them now —
 * AWAITING until `expires_at`, EXPIRED after — keeping `review_reason`, their evidence and their received amount;
 * nothing is granted or deleted. No later step undoes this (down does nothing).
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(
    `UPDATE payment_requests r
        SET status = CASE WHEN r.expires_at > now() THEN 'AWAITING' ELSE 'EXPIRED' END
      WHERE r.merchant_id = ? AND r.status = 'REVIEW' AND r.review_reason = 'underpaid'
        AND EXISTS (SELECT 1 FROM platform_purchases p WHERE p.request_id = r.id)
        AND NOT EXISTS (SELECT 1 FROM platform_purchase_grants g WHERE g.request_id = r.id)`,
    [PLATFORM_MERCHANT_ID],
  );
}

export async function down(): Promise<void> {
  // The old state (REVIEW) only held amounts for good; nothing to restore.
}
