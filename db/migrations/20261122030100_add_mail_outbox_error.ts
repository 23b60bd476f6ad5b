import type { Knex } from 'knex';

export const name = '20261122030100_add_mail_outbox_error';

/**
 * What the invoice mail sender records on an outbox row: attempts and the last one's time (a queued row never
 * attempted past the grace period lost its workflow start), the class and code of the last failure
 * (`temporary` while retrying, `permanent` or `temporary` once failed; never a secret or an address), and the
 * Message-ID of the sent message.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('invoice_mail_outbox', (t) => {
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('last_attempt_at', { useTz: true }).nullable();
    t.text('error_class').nullable().checkIn(['temporary', 'permanent'], 'invoice_mail_outbox_error_class_check');
    t.text('error_code').nullable();
    t.text('message_id').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('invoice_mail_outbox', (t) => {
    t.dropChecks(['invoice_mail_outbox_error_class_check']);
    t.dropColumns('attempts', 'last_attempt_at', 'error_class', 'error_code', 'message_id');
  });
}
