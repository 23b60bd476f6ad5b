import { describe, expect, it } from 'vitest';
import type { PositionedText } from '../../../../domain/extraction.js';
import { extractOffline } from '../../../../adapters/extraction/offline-engine.js';
import { documentOf, EINFACH_VAT_SUMMARY, layoutPage, type Row } from '../../../helpers/positioned-text.js';

/**
 * Issue 29, session 12 (s12-xen): English pages of the tune part's new documents (microinvoice's example, the prints of
 * InvoiceGenerator's and PyInvoice's examples), each class of miss as a small page of positioned words (cells at x
 * positions, 6 pt a character, rows 14 pt apart).
 */
const page = (...rows: Row[]) => documentOf(layoutPage(rows));
const values = (doc: PositionedText, fields: string[]) =>
  Object.fromEntries(Object.entries(extractOffline(doc, fields).fields).map(([k, v]) => [k, v.value]));

describe('session 12: English totals spelt "with" and "without" VAT', () => {
  it('"Total without VAT" is the subtotal and "Total paid with VAT" the total (en-microinvoice)', () => {
    const doc = page(
      [
        [40, 'Description'],
        [330, 'Quantity'],
        [490, 'Subtotal'],
      ],
      [
        [40, 'Nike Air Max'],
        [330, '1'],
        [490, '53 EUR'],
      ],
      [
        [40, 'Discount'],
        [330, '1'],
        [490, '-10 EUR'],
      ],
      null,
      [
        [330, 'Total without VAT'],
        [490, '43 EUR'],
      ],
      [
        [330, 'VAT Rate'],
        [490, '20%'],
      ],
      [
        [330, 'VAT Paid'],
        [490, '8.6 EUR'],
      ],
      [
        [330, 'Total paid with VAT'],
        [490, '51.6 EUR'],
      ],
    );
    expect(values(doc, ['subtotal', 'tax', 'total'])).toEqual({ subtotal: '43', tax: '8.6', total: '51.6' });
  });

  it('"Total with tax:" is the total, and its "tax" no tax label (en-invoicegenerator-readme)', () => {
    // Without the items' table above it: offline-tables.ts reads "Total with tax: $22,200.00" under a table as a note
    // under the last item (its summary pattern allows one word after "Total"), which is that file's to change.
    const doc = page([[40, 'Provider']], [[40, 'My company']], null, [[420, 'Total with tax: $22,200.00']]);
    expect(values(doc, ['total', 'tax'])).toEqual({ total: '22200.00', tax: null });
  });
});

describe('session 12: English labels the lexicon lacked', () => {
  it('"Taxable invoice num.:" labels the invoice number (en-invoicegenerator-readme)', () => {
    const doc = page(
      [[300, 'Taxable invoice num.: F20140001']],
      [[300, 'Date of exposure taxable invoice: Jul 1, 2024']],
      [[300, 'Due date: Jul 15, 2024']],
    );
    expect(values(doc, ['invoice_number', 'due_date'])).toEqual({
      invoice_number: 'F20140001',
      due_date: '2024-07-15',
    });
  });

  it('"Provider" over a name labels the seller (en-invoicegenerator-readme)', () => {
    const doc = page(
      [[300, 'Taxable invoice num.: F20140001']],
      [[40, 'Provider']],
      [[40, 'My company']],
      [[300, 'Customer']],
      [[300, 'Client company']],
      null,
      [[40, 'Payment information']],
    );
    expect(values(doc, ['seller_name', 'buyer_name'])).toEqual({
      seller_name: 'My company',
      buyer_name: 'Client company',
    });
  });

  it('"Bill From:" over a name labels the seller, the whole name under the label (en-microinvoice)', () => {
    const doc = page(
      [[330, 'Invoice']],
      [[330, 'Invoice Number:']],
      [[330, '1']],
      null,
      [
        [30, 'Bill To:'],
        [330, 'Bill From:'],
      ],
      [
        [30, 'John Doe'],
        [330, 'Big Corp'],
      ],
      [
        [30, 'Acme Corp'],
        [330, '2 Flowers Streets, London'],
      ],
      [
        [30, 'john.doe@gmail.com'],
        [330, 'UK'],
      ],
    );
    expect(values(doc, ['seller_name'])).toEqual({ seller_name: 'Big Corp' });
  });

  it('a party\'s "Tax Identifier:" over its number is that party\'s tax id (en-microinvoice)', () => {
    const doc = page(
      [
        [30, 'Bill To:'],
        [330, 'Bill From:'],
      ],
      [
        [30, 'John Doe'],
        [330, 'Big Corp'],
      ],
      [
        [30, 'Acme Corp'],
        [330, '2 Flowers Streets, London'],
      ],
      [
        [30, 'USA'],
        [330, 'Tax Identifier:'],
      ],
      [
        [30, 'Tax Identifier:'],
        [330, '5345345345435345345'],
      ],
      [[30, '352352342333']],
    );
    expect(values(doc, ['seller_vat_id', 'buyer_vat_id'])).toEqual({
      seller_vat_id: '5345345345435345345',
      buyer_vat_id: '352352342333',
    });
  });

  it('a party\'s "Name:" under its heading is its name, not the rotated "PAID" stamp\'s letters (en-pyinvoice-simple)', () => {
    const doc = page(
      [
        [40, 'ID'],
        [500, 'Invoice'],
      ],
      [[40, 'PA']],
      [
        [350, 'Invoice id:'],
        [440, '1023'],
      ],
      [
        [40, 'Service Provider'],
        [330, 'Client'],
      ],
      // The text layer sets each row of the blocks apart (a blank line between rows).
      null,
      [
        [40, 'Name:'],
        [150, 'PyInvoice'],
        [330, 'Email:'],
        [420, 'client@example.com'],
      ],
      [
        [40, 'Street:'],
        [150, 'My Street'],
      ],
      null,
      [
        [40, 'City:'],
        [150, 'My City'],
      ],
    );
    expect(values(doc, ['seller_name'])).toEqual({ seller_name: 'PyInvoice' });
  });
});

describe('session 12: a tax id the OCR broke up', () => {
  it('a bare number under a tax id label with more OCR text after it in its cell is given unsure (en-microinvoice PNG)', () => {
    // "352352342333" read by OCR as "35235234 oVVN 9222": the first eight digits are no whole id.
    const doc = documentOf(
      layoutPage(
        [
          [
            [30, 'Bill To:'],
            [330, 'Bill From:'],
          ],
          [
            [30, 'John Doe'],
            [330, 'Big Corp'],
          ],
          [
            [30, 'USA'],
            [330, 'Tax Identifier:'],
          ],
          [
            [30, 'Tax Identifier:'],
            [330, '5345345345435345345'],
          ],
          [[30, '35235234 oVVN 9222']],
        ],
        { source: 'ocr' },
      ),
    );
    const r = extractOffline(doc, ['seller_vat_id', 'buyer_vat_id']);
    expect(r.fields['seller_vat_id']!.value).toBe('5345345345435345345');
    const buyer = r.fields['buyer_vat_id']!;
    expect(buyer.value === null || (buyer.confidence ?? 1) < 0.5).toBe(true);
  });
});

describe('session 12: a tax printed only per VAT rate', () => {
  it("is the sum of the rows' taxes, with evidence listing each figure (de-zugferd-comfort-einfach as OCR reads it)", () => {
    const rows = EINFACH_VAT_SUMMARY;
    const doc = documentOf(layoutPage(rows, { source: 'ocr' }));
    const result = extractOffline(doc, ['subtotal', 'tax', 'total']);
    expect(values(doc, ['subtotal', 'tax', 'total'])).toEqual({ subtotal: '473.00', tax: '56.87', total: '529.87' });
    expect(result.fields['tax']!.evidence).toMatchObject({ page: 1, snippet: '19,25 + 37,62' });
    expect(result.flags ?? []).toEqual([]);
  });

  it('one rate printed: its row is the tax as before, no sum', () => {
    const doc = page(
      [
        [50, 'Net'],
        [480, '100.00'],
      ],
      [
        [50, 'VAT 20%'],
        [400, '100.00'],
        [480, '20.00'],
      ],
      [
        [50, 'Total'],
        [480, '120.00'],
      ],
    );
    expect(values(doc, ['tax'])).toEqual({ tax: '20.00' });
    expect(extractOffline(doc, ['tax']).fields['tax']!.evidence?.snippet).not.toContain(' + ');
  });
});
