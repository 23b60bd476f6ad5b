import { createHash } from 'node:crypto';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

/** The fields printed on the page; `json` is embedded byte for byte as the attachment evidence.json. */
export interface EvidencePdfInput {
  network: string;
  chainId: string;
  txHash: string;
  status: string;
  confirmations: string;
  requiredConfirmations: string;
  blockNumber: string;
  blockTime: string;
  tokenContract: string;
  checkedAt: string;
  transfers: Array<{ from: string; to: string; amountUsdc: string; amountAtomic: string; index: string }>;
  /** The evidence JSON document (the Verify response). */
  json: Buffer;
}

export const EVIDENCE_STATEMENT =
  'This document is evidence of a public on-chain transfer of native USDC, read from the chain at the time shown. It is not a tax invoice, a receipt for goods or services, or an accounting document.';

const PAGE = { width: 595.28, height: 841.89, margin: 48 };

/** Renders the evidence PDF. Same input, same bytes: dates come from the input, not the clock. */
export async function renderEvidencePdf(input: EvidencePdfInput): Promise<{ pdf: Uint8Array; sha256: string }> {
  const sha256 = createHash('sha256').update(input.json).digest('hex');
  const doc = await PDFDocument.create();
  const when = new Date(input.checkedAt);
  doc.setTitle(`USDC transfer evidence ${input.txHash}`);
  doc.setSubject('Native USDC transfer evidence (not a tax invoice)');
  doc.setProducer('paycore x402 evidence');
  doc.setCreator('paycore');
  doc.setCreationDate(when);
  doc.setModificationDate(when);
  await doc.attach(input.json, 'evidence.json', {
    mimeType: 'application/json',
    description: `Evidence JSON, SHA-256 ${sha256}`,
    creationDate: when,
    modificationDate: when,
  });

  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const mono = await doc.embedFont(StandardFonts.Courier);
  const writer = new PageWriter(doc, regular);

  writer.text('USDC transfer evidence', bold, 18);
  writer.gap(4);
  writer.paragraph(EVIDENCE_STATEMENT, regular, 9.5);
  writer.gap(10);

  const rows: Array<[string, string, PDFFont?]> = [
    ['Network', `${input.network} (chain ${input.chainId})`],
    ['Transaction', input.txHash, mono],
    ['Status', input.status],
    ['Confirmations', `${input.confirmations} of ${input.requiredConfirmations} required`],
    ['Block', input.blockNumber],
    ['Block time (UTC)', input.blockTime],
    ['USDC contract / mint', input.tokenContract, mono],
    ['Checked at (UTC)', input.checkedAt],
  ];
  for (const [label, value, font] of rows) writer.field(label, value, bold, font ?? regular);

  writer.gap(10);
  writer.text(`Transfers (${input.transfers.length})`, bold, 12);
  if (input.transfers.length === 0) writer.paragraph('No native USDC transfer in this transaction.', regular, 10);
  input.transfers.forEach((t, i) => {
    writer.gap(4);
    writer.text(`#${i + 1}  ${t.amountUsdc} USDC  (${t.amountAtomic} atomic units, index ${t.index})`, bold, 10);
    writer.field('From', t.from, regular, mono, 9);
    writer.field('To', t.to, regular, mono, 9);
  });

  writer.gap(12);
  writer.text('Embedded evidence', bold, 12);
  writer.paragraph('The evidence JSON is attached to this PDF as evidence.json. Its SHA-256:', regular, 9.5);
  writer.paragraph(sha256, mono, 9);
  writer.footer(`SHA-256 of evidence.json: ${sha256}`, mono);

  return { pdf: await doc.save({ useObjectStreams: false }), sha256 };
}

/** Top-to-bottom text layout with wrapping and page breaks. */
class PageWriter {
  private page: PDFPage;
  private y: number;
  private readonly pages: PDFPage[] = [];

  constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
  ) {
    this.page = this.newPage();
    this.y = PAGE.height - PAGE.margin;
  }

  private newPage(): PDFPage {
    const page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.pages.push(page);
    return page;
  }

  private ensure(height: number): void {
    if (this.y - height < PAGE.margin + 24) {
      this.page = this.newPage();
      this.y = PAGE.height - PAGE.margin;
    }
  }

  gap(points: number): void {
    this.y -= points;
  }

  text(value: string, font: PDFFont, size: number, x = PAGE.margin): void {
    this.ensure(size + 4);
    this.y -= size + 4;
    this.page.drawText(value, { x, y: this.y, size, font, color: rgb(0.1, 0.1, 0.1) });
  }

  paragraph(value: string, font: PDFFont, size: number, x = PAGE.margin): void {
    for (const line of wrap(value, font, size, PAGE.width - PAGE.margin - x)) this.text(line, font, size, x);
  }

  field(label: string, value: string, labelFont: PDFFont, valueFont: PDFFont, size = 10): void {
    const labelWidth = 130;
    const lines = wrap(value, valueFont, size, PAGE.width - 2 * PAGE.margin - labelWidth);
    this.ensure((size + 4) * lines.length);
    this.y -= size + 4;
    this.page.drawText(label, { x: PAGE.margin, y: this.y, size, font: labelFont });
    lines.forEach((line, i) => {
      if (i > 0) this.y -= size + 4;
      this.page.drawText(line, { x: PAGE.margin + labelWidth, y: this.y, size, font: valueFont });
    });
  }

  footer(value: string, font: PDFFont): void {
    this.pages.forEach((page, i) => {
      page.drawText(`${value}    page ${i + 1} of ${this.pages.length}`, {
        x: PAGE.margin,
        y: PAGE.margin - 20,
        size: 7,
        font: font ?? this.font,
        color: rgb(0.35, 0.35, 0.35),
      });
    });
  }
}

/** Greedy wrapping by width; long unbroken tokens (hashes) are split by characters. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  const push = (word: string) => {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      line = candidate;
      return;
    }
    if (line) lines.push(line);
    line = '';
    let chunk = '';
    for (const ch of word) {
      if (font.widthOfTextAtSize(chunk + ch, size) > width) {
        lines.push(chunk);
        chunk = '';
      }
      chunk += ch;
    }
    line = chunk;
  };
  for (const word of text.split(/\s+/).filter(Boolean)) push(word);
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}
