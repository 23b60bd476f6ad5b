import { ApplicationFailure } from '@temporalio/activity';
import type { Logger } from '../adapters/logging/logger.js';
import { invoiceMailContent } from '../adapters/mail/invoice-message.js';
import { classifySmtpError, MailSendError, type Mailer } from '../adapters/mail/smtp-mailer.js';
import type { FileStore } from '../adapters/storage/file-store.js';
import { readIssuedDocument } from '../adapters/documents/issued-document.js';
import type { Db } from '../db/connection.js';
import { getPaymentRequest } from '../db/repositories/payment-requests.repo.js';
import { getInvoiceForMail } from '../db/repositories/invoices.repo.js';
import {
  getOutboxRow,
  markMailFailed,
  markMailSent,
  recordMailAttempt,
  recordMailTemporaryFailure,
  type MailFailureClass,
} from '../db/repositories/invoice-mail.repo.js';
import { paymentPagePath } from '../domain/proof/payment-page.js';

export interface MailActivityDeps {
  db: Db;
  /** Where issued invoice documents are kept (the same store the API wrote them to). */
  store: FileStore;
  /** null when SMTP_URL is unset: the invoice mail workflow is then never started. */
  mailer: Mailer | null;
  /** MAIL_FROM as configured (`addr@example.com` or `Name <addr@example.com>`). */
  from: string | null;
  /** PUBLIC_BASE_URL: the e-mail links the payment page only when it is set. */
  publicBaseUrl?: string | null;
  logger: Logger;
  now?: () => Date;
}

export type { MailFailureClass };

export type SendInvoiceMailResult =
  /** The row is gone, or already sent or failed (a repeated run): nothing was sent. */
  | { outcome: 'not_queued'; status: 'missing' | 'sent' | 'failed' }
  | { outcome: 'sent'; messageId: string }
  /** Worth another try later (connection, timeout, 4xx, login, document not readable yet). */
  | { outcome: 'temporary'; code: string; message: string }
  /** Final (5xx, voided invoice, document that does not match its hash): the row is to be marked failed. */
  | { outcome: 'permanent'; code: string; message: string };

/** The domain of the sender address, for Message-IDs. */
const senderDomain = (from: string) => /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';

export function createMailActivities(deps: MailActivityDeps) {
  const now = deps.now ?? (() => new Date());
  const baseUrl = deps.publicBaseUrl ? deps.publicBaseUrl.replace(/\/+$/, '') : null;

  async function statusOf(mailId: string): Promise<'missing' | 'queued' | 'sent' | 'failed'> {
    return (await getOutboxRow(deps.db, mailId))?.status ?? 'missing';
  }

  return {
    /**
     * Sends one queued invoice e-mail: the stored PDF (its SHA-256 checked against the invoice; the document is
     * never rendered again), a subject with the number and the issuer, and the exact amount to pay. Does not mark
     * the row sent: the workflow does that in its own step, so a database hiccup never sends twice.
     */
    async sendInvoiceMail(input: { mailId: string }): Promise<SendInvoiceMailResult> {
      if (!deps.mailer || !deps.from) {
        throw ApplicationFailure.nonRetryable(
          'invoice e-mail is not configured on this worker (SMTP_URL, MAIL_FROM)',
          'mail_not_configured',
        );
      }
      const mail = await getOutboxRow(deps.db, input.mailId);
      if (!mail) return { outcome: 'not_queued', status: 'missing' };
      if (mail.status !== 'queued') return { outcome: 'not_queued', status: mail.status };
      if (!(await recordMailAttempt(deps.db, input.mailId, now()))) {
        const status = await statusOf(input.mailId);
        return { outcome: 'not_queued', status: status === 'queued' ? 'missing' : status };
      }

      const found = await getInvoiceForMail(deps.db, mail.merchantId, mail.invoiceId);
      if (!found)
        return { outcome: 'permanent', code: 'invoice_missing', message: 'the invoice of this e-mail does not exist' };
      const { invoice } = found;
      if (invoice.status === 'voided')
        return {
          outcome: 'permanent',
          code: 'invoice_voided',
          message: 'the invoice was voided before its e-mail went out',
        };
      const request = await getPaymentRequest(deps.db, mail.merchantId, invoice.requestId);
      if (!request)
        return {
          outcome: 'permanent',
          code: 'invoice_missing',
          message: 'the payment request of this invoice does not exist',
        };

      const document = await readIssuedDocument(deps.store, found.documentStorageId, invoice.documentSha256);
      if (!document.ok && document.reason === 'missing') {
        // A worker without the API's storage mounted: retried, so an operator can fix it before the deadline.
        deps.logger.error(
          { mailId: input.mailId, invoiceId: invoice.id },
          'invoice document not found in the file store',
        );
        return temporary(
          deps.db,
          input.mailId,
          'document_missing',
          'the invoice document is not in the file store of this worker',
        );
      }
      if (!document.ok) {
        deps.logger.error(
          { mailId: input.mailId, invoiceId: invoice.id },
          'stored invoice document does not match its SHA-256; not sent',
        );
        return {
          outcome: 'permanent',
          code: 'document_mismatch',
          message: 'the stored invoice document does not match its SHA-256',
        };
      }
      const pdf = document.pdf;

      const content = invoiceMailContent({
        number: invoice.number,
        merchantName: found.issuerName,
        buyerName: found.buyerName,
        dueDate: invoice.dueDate,
        amountAtomic: request.amountAtomic,
        network: request.network,
        payTo: request.payTo,
        paymentPageUrl: baseUrl ? `${baseUrl}${paymentPagePath(request.id)}` : null,
        paid: invoice.status === 'paid',
      });
      try {
        const sent = await deps.mailer.send({
          from: deps.from,
          to: mail.toEmail,
          subject: content.subject,
          text: content.text,
          attachments: [{ filename: `${invoice.number}.pdf`, content: pdf, contentType: 'application/pdf' }],
          messageId: `${input.mailId}@${senderDomain(deps.from)}`,
        });
        deps.logger.info(
          { mailId: input.mailId, invoiceId: invoice.id, messageId: sent.messageId },
          'invoice e-mail sent',
        );
        return { outcome: 'sent', messageId: sent.messageId };
      } catch (e) {
        const failure = e instanceof MailSendError ? e : classifySmtpError(e);
        deps.logger.warn(
          {
            mailId: input.mailId,
            invoiceId: invoice.id,
            kind: failure.kind,
            code: failure.code,
            reason: failure.message,
          },
          'invoice e-mail not sent',
        );
        if (failure.kind === 'permanent') return { outcome: 'permanent', code: failure.code, message: failure.message };
        return temporary(deps.db, input.mailId, failure.code, failure.message);
      }
    },

    /** queued → sent with `sent_at`, once: false when the row was no longer queued. */
    async markInvoiceMailSent(input: { mailId: string; messageId: string }): Promise<{ marked: boolean }> {
      return { marked: await markMailSent(deps.db, input.mailId, input.messageId, now()) };
    },

    /** queued → failed with the class and code of the last failure: false when the row was no longer queued. */
    async markInvoiceMailFailed(input: {
      mailId: string;
      errorClass: MailFailureClass;
      code: string;
    }): Promise<{ marked: boolean }> {
      const marked = await markMailFailed(deps.db, input.mailId, input.errorClass, input.code);
      if (marked)
        deps.logger.warn(
          { mailId: input.mailId, errorClass: input.errorClass, code: input.code },
          'invoice e-mail failed',
        );
      return { marked };
    },
  };
}

/** Records the last temporary failure on the row (operators see why it waits) and reports it to the workflow. */
async function temporary(db: Db, mailId: string, code: string, message: string): Promise<SendInvoiceMailResult> {
  await recordMailTemporaryFailure(db, mailId, code);
  return { outcome: 'temporary', code, message };
}

export type MailActivities = ReturnType<typeof createMailActivities>;
