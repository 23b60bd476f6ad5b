import type { Knex } from 'knex';
import * as m0100 from './20261122000100_create_api_keys.js';
import * as m0200 from './20261122000200_create_idempotency_keys.js';
import * as m0300 from './20261122000300_create_rate_limit_counters.js';
import * as m0400 from './20261122000400_create_webhooks.js';
import * as m1000 from './20261122010000_create_x402_evidence.js';
import * as m1010 from './20261122010100_create_x402_payments.js';
import * as m2000 from './20261122020000_create_companies_and_credits.js';
import * as m2010 from './20261122020100_create_uploads.js';
import * as m2020 from './20261122020200_create_jobs.js';
import * as m3000 from './20261122030000_create_proof_core.js';
import * as m3010 from './20261122030100_add_mail_outbox_error.js';
import * as m4000 from './20261122040000_create_payment_evidence.js';
import * as m4010 from './20261122040100_create_watcher_accounts.js';
import * as m5000 from './20261122050000_add_invoice_voiding.js';
import * as m7000 from './20261122070000_create_merchant_sessions.js';
import * as m8000 from './20261122080000_add_upload_dimensions.js';
import * as m9050 from './20261122090500_add_job_cancelled.js';
import * as m9100 from './20261123010000_create_company_sessions.js';
import * as m13jw from './20261123130000_add_job_webhook.js';
import * as m9000 from './20261123000000_create_batches.js';
import * as m14pa from './20261124000000_add_x402_payment_answers.js';
import * as m14sw from './20261124010000_create_saved_workflows.js';
import * as m14je from './20261124020000_add_job_extraction.js';
import * as m14ec from './20261124030000_create_extraction_corrections.js';
import * as m14ir from './20261124031900_create_idempotency_retained.js';
import * as m14pp from './20261124040000_create_platform_purchases.js';
import * as m14ms from './20261124041800_add_member_submitter.js';
import * as m14wd from './20261124090000_add_webhook_dispatch.js';
import * as m28es from './20261127100100_add_proof_event_seq.js';
import * as m28ra from './20261127100200_add_receiving_address_uniqueness.js';
import * as m28pq from './20261127100300_add_merchant_plan_queue.js';
import * as m28ru from './20261127100400_release_underpaid_purchase_amounts.js';
import * as m27sn from './20261127110000_create_x402_sender_nonces.js';
import * as m28vf from './20261127120000_add_upload_video_frames.js';
import * as m27rw from './20261127130000_create_rate_limit_windows.js';
import * as m27ws from './20261127140000_create_workflow_starts.js';
import * as m30tr from './20261130110000_add_trace_ids.js';
import * as m01wh from './20261201100000_add_watcher_head.js';
import * as m03rf from './20261203100000_defer_job_reservation_fk.js';
import * as m04rj from './20261204120000_create_reserve_for_jobs.js';
import * as m05ip from './20261205130000_create_insert_payment_request.js';
import * as m05pd from './20261205160000_insert_payment_request_destinations.js';
import * as m05ex from './20261205170000_add_payment_request_expiry_index.js';
import * as m05dh from './20261205170100_add_payment_delta_hints.js';

export interface NamedMigration extends Knex.Migration {
  name: string;
}

/** Every migration in order. Add new files here; names are YYYYMMDDHHMMSS_verb_noun. */
export const migrations: readonly NamedMigration[] = [
  m0100,
  m0200,
  m0300,
  m0400,
  m1000,
  m1010,
  m2000,
  m2010,
  m2020,
  m3000,
  m3010,
  m4000,
  m4010,
  m5000,
  m7000,
  m8000,
  m9050,
  m9000,
  m9100,
  m13jw,
  m14pa,
  m14sw,
  m14je,
  m14ec,
  m14ir,
  m14pp,
  m14ms,
  m14wd,
  m28es,
  m28ra,
  m28pq,
  m28ru,
  m27sn,
  m28vf,
  m27rw,
  m27ws,
  m30tr,
  m01wh,
  m03rf,
  m04rj,
  m05ip,
  m05pd,
  m05ex,
  m05dh,
];
