import { ActivityFailure, ApplicationFailure, proxyActivities, sleep } from '@temporalio/workflow';
import type { MailActivities, MailFailureClass } from '../../activities/mail.activities.js';

export interface InvoiceMailWorkflowInput {
  mailId: string;
  /**
   * Test-only overrides of the waits between temporary failures and of the give-up time, in milliseconds.
   * Production starters never set them, so MAIL_RETRY applies.
   */
  retryDelaysMs?: number[];
  giveUpAfterMs?: number;
}

export interface InvoiceMailWorkflowResult {
  status: 'sent' | 'failed' | 'not_queued';
  attempts: number;
  /** The class and code of the failure that ended it (null when sent). */
  errorClass: MailFailureClass | null;
  code: string | null;
}

/** Waits after temporary failures: 1 minute, doubling, at most 1 hour; after 24 hours the e-mail is failed. */
export const MAIL_RETRY = { firstDelayMs: 60_000, maxDelayMs: 3_600_000, giveUpAfterMs: 24 * 3_600_000 } as const;

export function mailRetryDelayMs(failures: number): number {
  return Math.min(MAIL_RETRY.maxDelayMs, MAIL_RETRY.firstDelayMs * 2 ** Math.max(0, failures - 1));
}

/**
 * One attempt. Unexpected errors (the database, the file store) are retried by Temporal a few times; SMTP
 * outcomes come back as results, so the workflow decides and waits durably between them. The bound sits
 * above the SMTP timeouts (SMTP_TIMEOUT_MS ≤ 2 minutes per step).
 */
const { sendInvoiceMail } = proxyActivities<MailActivities>({
  startToCloseTimeout: '10 minutes',
  retry: {
    initialInterval: '10 seconds',
    backoffCoefficient: 2,
    maximumInterval: '2 minutes',
    maximumAttempts: 4,
    nonRetryableErrorTypes: ['mail_not_configured'],
  },
});

/** Recording the outcome: retried until the database answers (the e-mail is never sent again for it). */
const { markInvoiceMailSent, markInvoiceMailFailed } = proxyActivities<MailActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * One queued invoice e-mail (workflow id `mail:<id>`, input the id only; addresses and the SMTP password never
 * enter the history): send it, retrying temporary failures with backoff for up to 24 hours, then mark the
 * outbox row `sent` once, or `failed` on a permanent failure or when the time is up.
 */
export async function invoiceMailWorkflow(input: InvoiceMailWorkflowInput): Promise<InvoiceMailWorkflowResult> {
  const startedAt = Date.now();
  const giveUpAfterMs = input.giveUpAfterMs ?? MAIL_RETRY.giveUpAfterMs;
  let attempts = 0;
  let failures = 0;
  for (;;) {
    attempts++;
    let result: Awaited<ReturnType<MailActivities['sendInvoiceMail']>>;
    try {
      result = await sendInvoiceMail({ mailId: input.mailId });
    } catch (e) {
      const cause = e instanceof ActivityFailure ? e.cause : e;
      // Not configured on this worker: fail the run and leave the row queued for the reconciler.
      if (cause instanceof ApplicationFailure && cause.type === 'mail_not_configured') throw e;
      result = { outcome: 'temporary', code: 'internal_error', message: 'the send attempt failed repeatedly' };
    }
    if (result.outcome === 'not_queued') return { status: 'not_queued', attempts, errorClass: null, code: null };
    if (result.outcome === 'sent') {
      await markInvoiceMailSent({ mailId: input.mailId, messageId: result.messageId });
      return { status: 'sent', attempts, errorClass: null, code: null };
    }
    if (result.outcome === 'permanent') {
      await markInvoiceMailFailed({ mailId: input.mailId, errorClass: 'permanent', code: result.code });
      return { status: 'failed', attempts, errorClass: 'permanent', code: result.code };
    }
    failures++;
    const wait = input.retryDelaysMs?.[failures - 1] ?? input.retryDelaysMs?.at(-1) ?? mailRetryDelayMs(failures);
    if (Date.now() + wait - startedAt > giveUpAfterMs) {
      await markInvoiceMailFailed({ mailId: input.mailId, errorClass: 'temporary', code: result.code });
      return { status: 'failed', attempts, errorClass: 'temporary', code: result.code };
    }
    await sleep(wait);
  }
}
