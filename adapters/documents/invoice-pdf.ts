import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { formatUsdc } from '../../domain/money.js';
import type { InvoiceLine, TaxMode } from '../../domain/proof/invoice-math.js';

/** Everything printed on a merchant invoice: identity snapshots, exact totals and the payment instructions. */
export interface InvoiceDocument {
  number: string;
  issued_at: Date;
  /** `YYYY-MM-DD`. */
  due_date: string;
  issuer: { name: string; address?: string | undefined; email?: string | undefined };
  buyer: { legal_name: string; email: string; address?: string | undefined; reference?: string | undefined };
  /** From computeInvoiceTotals. */
  lines: readonly InvoiceLine[];
  subtotal_atomic: bigint;
  tax_atomic: bigint;
  tax_mode: TaxMode;
  tax_rate: string | null;
  tax_notes?: string | undefined;
  total_atomic: bigint;
  memo?: string | undefined;
  accounting?:
    | { reference?: string | undefined; cost_center?: string | undefined; ledger_account?: string | undefined }
    | undefined;
  payment: {
    network: string;
    wallet_address: string;
    /** The exact transfer amount: the quoted amount plus the unique matching delta. */
    amount_atomic: bigint;
    quoted_amount_atomic: bigint;
    request_url: string;
    valid_until: Date;
  };
}

const PAGE = { width: 595.28, height: 841.89, margin: 48 };
const RIGHT = PAGE.width - PAGE.margin;
const CONTENT = RIGHT - PAGE.margin;
const INK = rgb(0.1, 0.1, 0.1);
const MUTED = rgb(0.38, 0.38, 0.38);
/** Items table: description column, then right edges of quantity, unit price and amount. */
const COLS = { desc: 196, qtyRight: PAGE.margin + 262, unitRight: PAGE.margin + 380, amountRight: RIGHT };

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const isoMinute = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * Renders the invoice PDF (A4). Same input, same bytes: the dates come from `issued_at`, producer and creator
 * are fixed, and pdf-lib writes no random document id. Standard fonts only encode WinAnsi, so every string is
 * sanitized first: other characters become their closest WinAnsi form (accents stripped) or "?".
 */
export async function renderInvoicePdf(doc: InvoiceDocument): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Invoice ${doc.number}`);
  pdf.setSubject('Invoice payable in native USDC');
  pdf.setAuthor(doc.issuer.name);
  pdf.setProducer('paycore proof invoices');
  pdf.setCreator('paycore');
  pdf.setCreationDate(doc.issued_at);
  pdf.setModificationDate(doc.issued_at);

  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const mono = await pdf.embedFont(StandardFonts.Courier);
  const w = new Writer(pdf, sanitizer(regular));

  w.line('INVOICE', bold, 20);
  w.gap(6);
  w.field('Invoice number', doc.number, bold, regular);
  w.field('Issue date', isoDay(doc.issued_at), bold, regular);
  w.field('Due date', doc.due_date, bold, regular);
  w.gap(12);
  const from = [doc.issuer.name, ...lines(doc.issuer.address), ...(doc.issuer.email ? [doc.issuer.email] : [])];
  const to = [
    doc.buyer.legal_name,
    ...lines(doc.buyer.address),
    doc.buyer.email,
    ...(doc.buyer.reference ? [`Reference: ${doc.buyer.reference}`] : []),
  ];
  w.columns(
    [
      ['From', from],
      ['Bill to', to],
    ],
    bold,
    regular,
  );
  w.gap(14);

  const header = () => {
    w.ensure(32);
    w.gap(13);
    w.at('Description', bold, 9, PAGE.margin);
    w.right('Quantity', bold, 9, COLS.qtyRight, 64);
    w.right('Unit price (USDC)', bold, 9, COLS.unitRight, 110);
    w.right('Amount (USDC)', bold, 9, COLS.amountRight, 110);
    w.rule();
  };
  header();
  for (const l of doc.lines) {
    const desc = w.wrap(l.description, regular, 9, COLS.desc);
    if (w.ensure(desc.length * 12 + 4)) header();
    w.gap(12);
    w.right(l.quantity, regular, 9, COLS.qtyRight, 64);
    w.right(formatUsdc(l.unit_atomic), regular, 9, COLS.unitRight, 110);
    w.right(formatUsdc(l.line_total_atomic), regular, 9, COLS.amountRight, 110);
    desc.forEach((text, i) => {
      if (i > 0) w.gap(12);
      w.at(text, regular, 9, PAGE.margin);
    });
    w.gap(4);
  }
  w.rule();

  const totals: Array<[string, bigint, PDFFont]> = [['Subtotal', doc.subtotal_atomic, regular]];
  if (doc.tax_mode === 'exclusive') totals.push([`Tax ${doc.tax_rate ?? ''}% (added)`, doc.tax_atomic, regular]);
  if (doc.tax_mode === 'inclusive') totals.push([`Included tax ${doc.tax_rate ?? ''}%`, doc.tax_atomic, regular]);
  if (doc.tax_mode === 'fixed') totals.push(['Tax', doc.tax_atomic, regular]);
  totals.push([doc.tax_mode === 'inclusive' ? 'Total incl. tax (USDC)' : 'Total (USDC)', doc.total_atomic, bold]);
  w.ensure(totals.length * 14 + 4); // the totals stay together
  for (const [label, amount, font] of totals) {
    w.gap(14);
    w.at(label, font, 10, RIGHT - 280);
    w.right(formatUsdc(amount), font, 10, RIGHT, 140);
  }
  if (doc.tax_notes) {
    w.gap(4);
    w.paragraph(`Tax note: ${doc.tax_notes}`, regular, 9);
  }

  const p = doc.payment;
  const amount = formatUsdc(p.amount_atomic);
  w.gap(16);
  w.ensure(150); // the payment instructions stay together
  w.line('Payment in USDC', bold, 13);
  w.gap(2);
  w.line(`Amount to pay: ${amount} USDC`, bold, 12);
  w.paragraph(
    `Send exactly ${amount} USDC (${p.amount_atomic} atomic units of 0.000001 USDC). It is the invoiced amount of ` +
      `${formatUsdc(p.quoted_amount_atomic)} USDC plus a small unique matching delta of ${formatUsdc(p.amount_atomic - p.quoted_amount_atomic)} USDC ` +
      'that identifies this payment. Do not round: a transfer of any other amount is not matched to this invoice automatically.',
    regular,
    9,
  );
  w.gap(4);
  w.field('Network', p.network, bold, regular);
  w.field('Pay to wallet', p.wallet_address, bold, mono, 9);
  w.field('Payment page', p.request_url, bold, mono, 9);
  w.field('Valid until', isoMinute(p.valid_until), bold, regular);

  if (doc.memo) {
    w.gap(12);
    w.line('Notes', bold, 11);
    for (const l of lines(doc.memo)) w.paragraph(l, regular, 9);
  }
  const acc = doc.accounting;
  const accRows = acc
    ? ([
        ['Reference', acc.reference],
        ['Cost center', acc.cost_center],
        ['Ledger account', acc.ledger_account],
      ] as const)
    : [];
  if (accRows.some(([, v]) => v)) {
    w.gap(12);
    w.line('Accounting', bold, 11);
    for (const [label, value] of accRows) if (value) w.field(label, value, bold, regular);
  }
  w.footer(`Invoice ${doc.number}`, regular);
  return pdf.save({ useObjectStreams: false });
}

/** Non-empty lines of an optional multi-line text (addresses, memo). */
const lines = (text: string | undefined): string[] =>
  (text ?? '')
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter(Boolean);

/** Maps text to what the standard fonts can encode: whitespace -> space, accents stripped, anything else "?". */
function sanitizer(font: PDFFont): (s: string) => string {
  const supported = new Set(font.getCharacterSet());
  const ok = (s: string) => [...s].every((c) => supported.has(c.codePointAt(0)!));
  return (s) => {
    let out = '';
    for (const ch of s.normalize('NFC')) {
      if (/\s/u.test(ch)) out += ' ';
      else if (ok(ch)) out += ch;
      else {
        const base = ch.normalize('NFKD').replace(/\p{M}/gu, '');
        out += base && ok(base) ? base : '?';
      }
    }
    return out;
  };
}

/** Top-to-bottom layout with wrapping, page breaks and a footer on every page. */
class Writer {
  private page: PDFPage;
  private y = PAGE.height - PAGE.margin;
  private readonly pages: PDFPage[] = [];

  constructor(
    private readonly doc: PDFDocument,
    private readonly clean: (s: string) => string,
  ) {
    this.page = this.addPage();
  }

  private addPage(): PDFPage {
    const page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.pages.push(page);
    return page;
  }

  /** Starts a new page when `height` does not fit; true when it did. */
  ensure(height: number): boolean {
    if (this.y - height >= PAGE.margin + 16) return false;
    this.page = this.addPage();
    this.y = PAGE.height - PAGE.margin;
    return true;
  }

  gap(points: number): void {
    this.y -= points;
  }

  at(text: string, font: PDFFont, size: number, x: number, color = INK): void {
    this.page.drawText(this.clean(text), { x, y: this.y, size, font, color });
  }

  /** Right-aligned at `rightX`, shrunk to fit `maxWidth` when a value is extremely long. */
  right(text: string, font: PDFFont, size: number, rightX: number, maxWidth: number): void {
    const value = this.clean(text);
    const width = font.widthOfTextAtSize(value, size);
    const fitted = width > maxWidth ? (size * maxWidth) / width : size;
    this.page.drawText(value, {
      x: rightX - font.widthOfTextAtSize(value, fitted),
      y: this.y,
      size: fitted,
      font,
      color: INK,
    });
  }

  line(text: string, font: PDFFont, size: number): void {
    this.ensure(size + 4);
    this.gap(size + 4);
    this.at(text, font, size, PAGE.margin);
  }

  paragraph(text: string, font: PDFFont, size: number): void {
    for (const l of this.wrap(text, font, size, CONTENT)) this.line(l, font, size);
  }

  field(label: string, value: string, labelFont: PDFFont, valueFont: PDFFont, size = 10): void {
    const labelWidth = 110;
    const rows = this.wrap(value, valueFont, size, CONTENT - labelWidth);
    this.ensure((size + 4) * rows.length);
    this.gap(size + 4);
    this.at(label, labelFont, size, PAGE.margin);
    rows.forEach((row, i) => {
      if (i > 0) this.gap(size + 4);
      this.at(row, valueFont, size, PAGE.margin + labelWidth);
    });
  }

  /** Side-by-side blocks (issuer and buyer), each a heading and wrapped lines. */
  columns(blocks: Array<[string, string[]]>, headFont: PDFFont, font: PDFFont): void {
    const width = (CONTENT - 20 * (blocks.length - 1)) / blocks.length;
    const top = this.y;
    let lowest = top;
    blocks.forEach(([head, texts], i) => {
      const x = PAGE.margin + i * (width + 20);
      this.y = top - 14;
      this.at(head, headFont, 10, x, MUTED);
      for (const row of texts.flatMap((t) => this.wrap(t, font, 10, width))) {
        this.gap(13);
        this.at(row, font, 10, x);
      }
      lowest = Math.min(lowest, this.y);
    });
    this.y = lowest;
  }

  rule(): void {
    this.gap(5);
    this.page.drawLine({
      start: { x: PAGE.margin, y: this.y },
      end: { x: RIGHT, y: this.y },
      thickness: 0.5,
      color: MUTED,
    });
  }

  /** Greedy wrapping by width of the sanitized text; unbroken tokens (addresses, URLs) are split by characters. */
  wrap(text: string, font: PDFFont, size: number, width: number): string[] {
    const out: string[] = [];
    let line = '';
    for (const word of this.clean(text).split(' ').filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= width) {
        line = candidate;
        continue;
      }
      if (line) out.push(line);
      line = '';
      for (const ch of word) {
        if (line && font.widthOfTextAtSize(line + ch, size) > width) {
          out.push(line);
          line = '';
        }
        line += ch;
      }
    }
    if (line) out.push(line);
    return out.length ? out : [''];
  }

  footer(text: string, font: PDFFont): void {
    this.pages.forEach((page, i) => {
      const value = this.clean(`${text}  |  page ${i + 1} of ${this.pages.length}`);
      page.drawText(value, { x: PAGE.margin, y: PAGE.margin - 20, size: 7, font, color: MUTED });
    });
  }
}
