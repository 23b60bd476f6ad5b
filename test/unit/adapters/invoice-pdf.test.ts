import { afterEach, describe, expect, it, vi } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { renderInvoicePdf, type InvoiceDocument } from '../../../adapters/documents/invoice-pdf.js';
import { computeInvoiceTotals, type InvoiceItemInput } from '../../../domain/proof/invoice-math.js';
import { pageContents, pdfHexText } from '../../helpers/pdf-inspect.js';

const ISSUED = new Date('2026-03-01T10:00:00Z');

function invoice(items: InvoiceItemInput[], patch: Partial<InvoiceDocument> = {}): InvoiceDocument {
  const totals = computeInvoiceTotals({ items, tax_mode: 'exclusive', tax_rate: '19' });
  return {
    number: 'INV-2026-0001',
    issued_at: ISSUED,
    due_date: '2026-03-31',
    issuer: { name: 'Acme Studio', address: 'Main Street 1\n10115 Berlin', email: 'billing@acme.example' },
    buyer: { legal_name: 'Buyer Corp', email: 'ap@buyer.example', address: '1 Road\nLondon', reference: 'PO-77' },
    ...totals,
    tax_notes: 'VAT 19 percent',
    memo: 'Thank you for your business.',
    accounting: { reference: 'ACC-REF-1', cost_center: 'CC-42', ledger_account: '8400' },
    payment: {
      network: 'base',
      wallet_address: `0x${'ab'.repeat(20)}`,
      amount_atomic: totals.total_atomic + 37n,
      quoted_amount_atomic: totals.total_atomic,
      request_url: 'https://pay.example.com/r/req_abcdefghijabcdefghij',
      valid_until: new Date('2026-03-31T23:59:00Z'),
    },
    ...patch,
  };
}

const ITEMS: InvoiceItemInput[] = [
  { description: 'Design work', quantity: '1.5', unit_usdc: '12.345678' },
  { description: 'Hosting', quantity: '3', unit_usdc: '0.5' },
];

async function texts(bytes: Uint8Array): Promise<{ pages: string[]; all: string; doc: PDFDocument }> {
  const doc = await PDFDocument.load(bytes);
  const pages = doc.getPages().map(pageContents);
  return { pages, all: pages.join('\n'), doc };
}
const has = (content: string, s: string) => content.includes(pdfHexText(s));

afterEach(() => {
  vi.useRealTimers();
});

describe('invoice PDF', () => {
  it('prints the parties, lines, totals and the exact amount to pay with six decimals', async () => {
    const doc = invoice(ITEMS);
    const { all, doc: pdf } = await texts(await renderInvoicePdf(doc));
    expect(pdf.getPageCount()).toBe(1);
    const { width, height } = pdf.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([595, 842]);
    // 1.5 × 12.345678 = 18.518517; 3 × 0.5 = 1.5; subtotal 20.018517; tax 19% = 3.803518 (3.80351823); total 23.822035
    for (const s of [
      'INVOICE',
      'INV-2026-0001',
      '2026-03-01',
      '2026-03-31',
      'Acme Studio',
      'Main Street 1',
      '10115 Berlin',
      'billing@acme.example',
      'Buyer Corp',
      'ap@buyer.example',
      'Reference: PO-77',
      'Design work',
      'Hosting',
      '1.5',
      '12.345678',
      '18.518517',
      '0.500000',
      '1.500000',
      '20.018517',
      'Tax 19% (added)',
      '3.803518',
      'Total (USDC)',
      '23.822035',
      'Tax note: VAT 19 percent',
      'Amount to pay: 23.822072 USDC',
      'matching delta of 0.000037 USDC',
      `0x${'ab'.repeat(20)}`,
      'https://pay.example.com/r/req_abcdefghijabcdefghij',
      '2026-03-31 23:59 UTC',
      'base',
      'Thank you for your business.',
      'ACC-REF-1',
      'CC-42',
      '8400',
      'page 1 of 1',
    ]) {
      expect(has(all, s), s).toBe(true);
    }
    expect(all).toContain(pdfHexText('23822072')); // the atomic amount is spelled out too
    expect(pdf.getTitle()).toBe('Invoice INV-2026-0001');
  });

  it('keeps every decimal of the amount to pay, even when the delta is a single atomic unit', async () => {
    const doc = invoice([{ description: 'Plan', quantity: '1', unit_usdc: '5' }]);
    doc.payment = { ...doc.payment, amount_atomic: 5_950_001n, quoted_amount_atomic: 5_950_000n };
    const { all } = await texts(await renderInvoicePdf(doc));
    expect(has(all, 'Amount to pay: 5.950001 USDC')).toBe(true);
    expect(has(all, 'matching delta of 0.000001 USDC')).toBe(true);
  });

  it('labels each tax mode', async () => {
    const base = invoice(ITEMS);
    const cases: Array<[Partial<InvoiceDocument>, string[], string[]]> = [
      [{ tax_mode: 'inclusive', tax_rate: '7.5' }, ['Included tax 7.5%', 'Total incl. tax (USDC)'], ['(added)']],
      [{ tax_mode: 'fixed', tax_rate: null }, ['Tax', 'Total (USDC)'], ['(added)', 'Included tax']],
      [
        { tax_mode: 'none', tax_rate: null, tax_atomic: 0n, tax_notes: undefined },
        ['Subtotal', 'Total (USDC)'],
        ['Tax', 'Included tax'],
      ],
    ];
    for (const [patch, present, absent] of cases) {
      const { all } = await texts(await renderInvoicePdf({ ...base, ...patch }));
      for (const s of present) expect(has(all, s), s).toBe(true);
      for (const s of absent) expect(has(all, s), s).toBe(false);
    }
  });

  it('wraps long descriptions instead of drawing past the margin', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const { all } = await texts(
      await renderInvoicePdf(invoice([{ description: words, quantity: '1', unit_usdc: '1' }])),
    );
    expect(has(all, words)).toBe(false);
    expect(has(all, 'word0 word1')).toBe(true);
    expect(has(all, 'word39')).toBe(true);
    const drawn = [...all.matchAll(/<([0-9A-F]+)> Tj/g)]
      .map((m) => Buffer.from(m[1]!, 'hex').toString('latin1'))
      .filter((t) => t.includes('word'));
    expect(drawn.length).toBeGreaterThan(3);
    expect(drawn.join(' ')).toBe(words);
  });

  it('spreads 100 lines over several pages, repeating the table header and numbering the pages', async () => {
    const items = Array.from({ length: 100 }, (_, i) => ({
      description: `Line item ${String(i + 1).padStart(3, '0')}`,
      quantity: '1',
      unit_usdc: '1.000001',
    }));
    const { pages, all, doc } = await texts(await renderInvoicePdf(invoice(items)));
    const n = doc.getPageCount();
    expect(n).toBeGreaterThanOrEqual(3);
    expect(n).toBeLessThanOrEqual(5);
    for (const it of items) expect(has(all, it.description), it.description).toBe(true);
    pages.forEach((content, i) => {
      expect(has(content, `page ${i + 1} of ${n}`)).toBe(true);
      if (i < n - 1 || has(content, 'Line item 100')) expect(has(content, 'Unit price (USDC)')).toBe(true);
    });
    expect(has(pages[0]!, 'Line item 001')).toBe(true);
    expect(has(pages[0]!, 'Line item 100')).toBe(false);
    expect(has(all, '100.000100')).toBe(true); // subtotal
    expect(has(pages[n - 1]!, 'Amount to pay: 119.000156 USDC')).toBe(true); // 100.0001 + 19% = 119.000119, + 37 atomic delta
  });

  it('is deterministic: same input, same bytes, whatever the clock says', async () => {
    const doc = invoice(ITEMS);
    const first = await renderInvoicePdf(doc);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-07-04T12:34:56Z'));
    const second = await renderInvoicePdf(invoice(ITEMS));
    vi.useRealTimers();
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);

    const pdf = await PDFDocument.load(first, { updateMetadata: false });
    expect(pdf.getCreationDate()?.toISOString()).toBe(ISSUED.toISOString());
    expect(pdf.getModificationDate()?.toISOString()).toBe(ISSUED.toISOString());
    expect(pdf.getProducer()).toBe('paycore proof invoices');
    expect(pdf.getCreator()).toBe('paycore');

    const later = await renderInvoicePdf({ ...doc, issued_at: new Date('2026-03-02T10:00:00Z') });
    expect(Buffer.from(later).equals(Buffer.from(first))).toBe(false);
  });

  it('replaces characters the standard fonts cannot encode instead of throwing', async () => {
    const name = 'Zoë — 日本 ✓';
    const doc = invoice([{ description: `${name} ﬁle Ａ\tb`, quantity: '1', unit_usdc: '1' }], {
      number: 'INV-✓-1',
      buyer: { legal_name: name, email: 'zoe@example.jp', address: '東京都\nÅrhus' },
      issuer: { name: 'Ünïcode → Ltd' },
      memo: '😀 emoji',
      tax_notes: 'Steuer ≠ tax',
    });
    const bytes = await renderInvoicePdf(doc);
    const { all, doc: pdf } = await texts(bytes);
    // WinAnsi keeps ë (0xEB) and the em dash (0x97); the CJK characters and the check mark become "?".
    const zoe = `${pdfHexText('Zoë ')}97${pdfHexText(' ?? ?')}`;
    expect(all).toContain(zoe);
    expect(has(all, ' file A b')).toBe(true); // the ligature and the full-width A decompose, the tab becomes a space
    expect(has(all, '???')).toBe(true);
    expect(has(all, 'Århus')).toBe(true);
    expect(has(all, 'Ünïcode ? Ltd')).toBe(true);
    expect(has(all, '? emoji')).toBe(true);
    expect(has(all, 'Invoice INV-?-1')).toBe(true);
    expect(pdf.getAuthor()).toBe('Ünïcode → Ltd'); // metadata is UTF-16 and keeps the original
  });
});
