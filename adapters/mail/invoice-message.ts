import { formatUsdc } from '../../domain/money.js';

export interface InvoiceMailFacts {
  number: string;
  /** The issuer name printed on the document. */
  merchantName: string;
  buyerName: string | null;
  dueDate: string;
  /** The linked payment request: the exact amount to pay (atomic USDC), its network and payee. */
  amountAtomic: bigint;
  network: string;
  payTo: string;
  /** Absolute payment page URL, or null when no public base URL is configured. */
  paymentPageUrl: string | null;
  paid: boolean;
}

/** Header values never carry line breaks or other control characters (no header injection). */
const oneLine = (s: string) =>
  s
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** Subject and plain-text body of an invoice e-mail; the PDF document itself goes along as the attachment. */
export function invoiceMailContent(f: InvoiceMailFacts): { subject: string; text: string } {
  const merchant = oneLine(f.merchantName).slice(0, 160);
  const lines = [
    f.buyerName ? `Hello ${oneLine(f.buyerName)},` : 'Hello,',
    '',
    `please find attached invoice ${f.number} from ${merchant}, due ${f.dueDate}.`,
    '',
  ];
  if (f.paid) {
    lines.push('This invoice has already been paid; this copy is for your records.');
  } else {
    lines.push(
      `Amount to pay: ${formatUsdc(f.amountAtomic)} USDC on ${f.network}`,
      `Pay to: ${f.payTo}`,
      'Please send exactly this amount: it identifies your payment.',
    );
    if (f.paymentPageUrl) lines.push(`Payment page: ${f.paymentPageUrl}`);
  }
  lines.push('', `${merchant}`);
  return { subject: `Invoice ${f.number} from ${merchant}`, text: `${lines.join('\n')}\n` };
}
