import { describe, expect, it } from 'vitest';
import { conceptOf } from '../../../adapters/extraction/offline-labels.js';
import {
  checkDocument,
  mergeReview,
  taxOfVatRows,
  UNSURE_CONFIDENCE,
  type DocumentCheck,
} from '../../../domain/extraction-checks.js';
import { checkEvidence, lineEvidence } from '../../../domain/extraction-evidence.js';
import type {
  Box,
  ExtractedValue,
  ExtractionResult,
  LineItem,
  PageText,
  PositionedText,
} from '../../../domain/extraction.js';
import {
  CHAR_WIDTH,
  EINFACH_VAT_SUMMARY,
  layoutPage,
  ROW_HEIGHT,
  valueAt,
  type Row,
} from '../../helpers/positioned-text.js';

/**
 * The document's own arithmetic and semantics (docs/processing.md "Document checks"), for any engine's answer: each
 * case is a defect measured on real invoices (issue 29), written as an engine's answer whose every value has evidence
 * on the page (the evidence check passes), so only the new checks can flag it.
 */
const concept = (f: string) => conceptOf(f).id;

function doc(rows: readonly Row[]): PositionedText {
  return { pages: [layoutPage(rows)], truncated: false, warnings: [] };
}

/** The value read from the `nth` occurrence of `snippet` on the page (after the text `after`), with the box of its words. */
const at = (
  page: PageText,
  snippet: string,
  value: string,
  options: { after?: string; nth?: number; confidence?: number } = {},
): ExtractedValue => valueAt(page, snippet, { ...options, value });

const none = (): ExtractedValue => ({ value: null, evidence: null, confidence: null });

function answer(fields: Record<string, ExtractedValue>, items: LineItem[] = []): ExtractionResult {
  return { fields, items, warnings: [] };
}

/** The names of the values a check flagged: a field by its name, a line item's column as `line N column`. */
const flaggedNames = (c: DocumentCheck) =>
  [...new Set(c.flags.map((f) => (f.item === null ? f.field : `line ${f.item + 1} ${f.field}`)))].sort();

function expectEvidenceOk(result: ExtractionResult, document: PositionedText) {
  expect(checkEvidence(result, document).review_reasons).toEqual([]);
}

// A receipt as its text layer reads (the "TOTAL AMOUNT DUE ON August 3 , 2014 $4.11").
const receipt = doc([
  'Your Store',
  [
    [50, 'Coffee'],
    [300, '1'],
    [360, '2.30'],
    [430, '2.30'],
  ],
  [
    [50, 'Muffin'],
    [300, '1'],
    [360, '1.50'],
    [430, '1.50'],
  ],
  [
    [50, 'Subtotal'],
    [430, '3.80'],
  ],
  [
    [50, 'Tax 8.25%'],
    [430, '0.31'],
  ],
  [
    [50, 'TOTAL AMOUNT DUE ON August 3 , 2014'],
    [430, '$4.11'],
  ],
]);
const rp = receipt.pages[0]!;
const receiptItems = (): LineItem[] => [
  {
    description: at(rp, 'Coffee', 'Coffee'),
    quantity: at(rp, '1', '1'),
    unit_price: at(rp, '2.30', '2.30'),
    amount: at(rp, '2.30', '2.30', { nth: 1 }),
  },
  {
    description: at(rp, 'Muffin', 'Muffin'),
    quantity: at(rp, '1', '1', { after: 'Muffin' }),
    unit_price: at(rp, '1.50', '1.50'),
    amount: at(rp, '1.50', '1.50', { nth: 1 }),
  },
];

describe('document checks: the defects measured on real invoices', () => {
  it('total "3" read from "TOTAL AMOUNT DUE ON August 3 , 2014 $4.11" while subtotal + tax = 4.11', () => {
    const result = answer(
      { subtotal: at(rp, '3.80', '3.80'), tax: at(rp, '0.31', '0.31'), total: at(rp, '3', '3', { after: 'August ' }) },
      receiptItems(),
    );
    expect(result.fields['total']!.evidence!.snippet).toBe('3');
    expectEvidenceOk(result, receipt);
    const c = checkDocument(result, receipt, concept);
    expect(flaggedNames(c)).toContain('total');
    expect(c.reasons.join('\n')).toMatch(/subtotal 3\.80 \+ tax 0\.31 = 4\.11, but total is 3/u);
    expect(c.reasons.join('\n')).toMatch(/total "3" is part of the date "August 3/u);
  });

  it('the same total alone (no subtotal or tax asked for) is still flagged: it is the day of a date', () => {
    const result = answer({ total: at(rp, '3', '3', { after: 'August ' }) });
    const c = checkDocument(result, receipt, concept);
    expect(flaggedNames(c)).toEqual(['total']);
  });

  it('the pre-tax figure given as the total', () => {
    const page = doc([
      'ACME GmbH Rechnung',
      [
        [50, 'Net amount'],
        [430, '100.00'],
      ],
      [
        [50, 'VAT 19%'],
        [430, '19.00'],
      ],
      [
        [50, 'Total due'],
        [430, '119.00'],
      ],
    ]);
    const p = page.pages[0]!;
    const wrong = answer({
      net_amount: at(p, '100.00', '100.00'),
      vat: at(p, '19.00', '19.00'),
      amount_due: at(p, '100.00', '100.00'),
    });
    expectEvidenceOk(wrong, page);
    const c = checkDocument(wrong, page, concept);
    expect(flaggedNames(c)).toEqual(['amount_due', 'net_amount', 'vat']);
    expect(c.reasons).toEqual([
      'the totals do not add up: net_amount 100.00 + vat 19.00 = 119.00, but amount_due is 100.00',
    ]);
    // Without the subtotal asked for: the printed rate says the tax of a total of 100.00 cannot be 19.00.
    const c2 = checkDocument(
      answer({ vat: at(p, '19.00', '19.00'), amount_due: at(p, '100.00', '100.00') }),
      page,
      concept,
    );
    expect(flaggedNames(c2)).toEqual(['amount_due', 'vat']);
    expect(c2.reasons.join('\n')).toContain('19%');
    // A total printed "incl. VAT" does not make the tax included in the subtotal given as the total.
    const incl = doc([
      [
        [50, 'Net amount'],
        [430, '100.00'],
      ],
      [
        [50, 'VAT 19%'],
        [430, '19.00'],
      ],
      [
        [50, 'Total incl. VAT'],
        [430, '119.00'],
      ],
    ]);
    const q = incl.pages[0]!;
    expect(
      flaggedNames(
        checkDocument(
          answer({
            net_amount: at(q, '100.00', '100.00'),
            vat: at(q, '19.00', '19.00'),
            amount_due: at(q, '100.00', '100.00'),
          }),
          incl,
          concept,
        ),
      ),
    ).toEqual(['amount_due', 'net_amount', 'vat']);
    // The right answer passes.
    const right = checkDocument(
      answer({
        net_amount: at(p, '100.00', '100.00'),
        vat: at(p, '19.00', '19.00'),
        amount_due: at(p, '119.00', '119.00'),
      }),
      page,
      concept,
    );
    expect(right).toEqual({ flags: [], reasons: [] });
  });

  it('a line amount given as the tax on an invoice without VAT', () => {
    const page = doc([
      'Studio Lumen  Invoice',
      [
        [50, 'Description'],
        [300, 'Qty'],
        [360, 'Price'],
        [430, 'Amount'],
      ],
      [
        [50, 'Photo session'],
        [300, '2'],
        [360, '5.00'],
        [430, '10.00'],
      ],
      [
        [50, 'Prints'],
        [300, '1'],
        [360, '4.50'],
        [430, '4.50'],
      ],
      [
        [50, 'Total'],
        [430, '14.50'],
      ],
    ]);
    const p = page.pages[0]!;
    const items: LineItem[] = [
      {
        description: at(p, 'Photo session', 'Photo session'),
        quantity: at(p, '2', '2'),
        unit_price: at(p, '5.00', '5.00'),
        amount: at(p, '10.00', '10.00'),
      },
      {
        description: at(p, 'Prints', 'Prints'),
        quantity: at(p, '1', '1', { after: 'Prints' }),
        unit_price: at(p, '4.50', '4.50'),
        amount: at(p, '4.50', '4.50', { nth: 1 }),
      },
    ];
    const result = answer({ tax: at(p, '4.50', '4.50', { nth: 1 }), total: at(p, '14.50', '14.50') }, items);
    expectEvidenceOk(result, page);
    const c = checkDocument(result, page, concept);
    expect(flaggedNames(c)).toEqual(['tax']);
    expect(c.reasons).toEqual(['tax 4.50 is given, but the document names no tax (VAT, GST, sales tax…)']);
    expect(checkDocument(answer({ tax: none(), total: at(p, '14.50', '14.50') }, items), page, concept)).toEqual({
      flags: [],
      reasons: [],
    });
  });

  it('a due date before the invoice date', () => {
    const page = doc([
      [
        [50, 'Invoice date: 15.03.2024'],
        [300, 'Due date: 14.02.2024'],
      ],
    ]);
    const p = page.pages[0]!;
    const result = answer({
      invoice_date: at(p, '15.03.2024', '2024-03-15'),
      due_date: at(p, '14.02.2024', '2024-02-14'),
    });
    expectEvidenceOk(result, page);
    const c = checkDocument(result, page, concept);
    expect(flaggedNames(c)).toEqual(['due_date', 'invoice_date']);
    expect(c.reasons).toEqual(['due_date 2024-02-14 is before invoice_date 2024-03-15']);
    // Due on the day of issue, each date read after its own label (session 11: a due date read after the invoice
    // date's label is flagged by its own check, so each must come from its own place).
    const sameDay = doc([
      [
        [50, 'Invoice date: 15.03.2024'],
        [300, 'Due date: 15.03.2024'],
      ],
    ]);
    const q = sameDay.pages[0]!;
    const same = answer({
      invoice_date: at(q, '15.03.2024', '2024-03-15'),
      due_date: at(q, '15.03.2024', '2024-03-15', { nth: 1 }),
    });
    expectEvidenceOk(same, sameDay);
    expect(checkDocument(same, sameDay, concept).flags).toEqual([]);
  });
});

describe('document checks: arithmetic of the lines', () => {
  const table = (rows: Row[]) =>
    doc([
      [
        [50, 'Description'],
        [300, 'Qty'],
        [360, 'Unit price'],
        [430, 'Amount'],
      ],
      ...rows,
    ]);
  const item = (p: PageText, desc: string, q: string, u: string, a: string): LineItem => ({
    description: at(p, desc, desc),
    quantity: at(p, q, q, { after: desc }),
    unit_price: at(p, u, u, { after: desc }),
    amount: at(p, a, a, { after: desc, nth: u === a ? 1 : 0 }),
  });

  it('a line whose amount is not quantity × unit price flags its three numbers', () => {
    const page = table([
      [
        [50, 'Widget'],
        [300, '3'],
        [360, '4.50'],
        [430, '12.00'],
      ],
    ]);
    const c = checkDocument(answer({}, [item(page.pages[0]!, 'Widget', '3', '4.50', '12.00')]), page, concept);
    expect(flaggedNames(c)).toEqual(['line 1 amount', 'line 1 quantity', 'line 1 unit_price']);
    expect(c.reasons).toEqual(['line item 1: quantity 3 × unit price 4.50 = 13.50, but its amount is 12.00']);
  });

  it('within the printed precision (a rounded unit price), and with a discount or a rate printed on the row', () => {
    const page = table([
      [
        [50, 'Hours'],
        [300, '3'],
        [360, '0.333'],
        [430, '1.00'],
      ],
      [
        [50, 'Licence'],
        [300, '2'],
        [360, '50.00'],
        [400, '-10%'],
        [430, '90.00'],
      ],
      [
        [50, 'Support'],
        [300, '1'],
        [360, '100.00'],
        [400, '19%'],
        [430, '119.00'],
      ],
    ]);
    const p = page.pages[0]!;
    const items = [
      item(p, 'Hours', '3', '0.333', '1.00'),
      item(p, 'Licence', '2', '50.00', '90.00'),
      item(p, 'Support', '1', '100.00', '119.00'),
    ];
    expect(checkDocument(answer({}, items), page, concept)).toEqual({ flags: [], reasons: [] });
  });

  it('the lines must add up to the subtotal (or the total)', () => {
    const page = table([
      [
        [50, 'Widget'],
        [300, '2'],
        [360, '10.00'],
        [430, '20.00'],
      ],
      [
        [50, 'Gadget'],
        [300, '1'],
        [360, '5.00'],
        [430, '5.00'],
      ],
      [
        [50, 'Subtotal'],
        [430, '30.00'],
      ],
    ]);
    const p = page.pages[0]!;
    const items = [item(p, 'Widget', '2', '10.00', '20.00'), item(p, 'Gadget', '1', '5.00', '5.00')];
    const c = checkDocument(answer({ subtotal: at(p, '30.00', '30.00') }, items), page, concept);
    expect(flaggedNames(c)).toEqual(['line 1 amount', 'line 2 amount', 'subtotal']);
    expect(c.reasons).toEqual(['the line items do not add up: their amounts sum to 25.00, but subtotal is 30.00']);
    // Lines that add up to the total when there is no subtotal.
    const page2 = table([
      [
        [50, 'Widget'],
        [300, '2'],
        [360, '10.00'],
        [430, '20.00'],
      ],
      [
        [50, 'Total'],
        [430, '20.00'],
      ],
    ]);
    const p2 = page2.pages[0]!;
    expect(
      checkDocument(
        answer({ total: at(p2, '20.00', '20.00', { nth: 1 }) }, [item(p2, 'Widget', '2', '10.00', '20.00')]),
        page2,
        concept,
      ).flags,
    ).toEqual([]);
  });

  it('net lines and a gross total, the tax not asked for: the tax printed on the page closes the gap, another gap does not', () => {
    const rows = (total: string): Row[] => [
      [
        [50, 'Widget'],
        [300, '2'],
        [360, '10.00'],
        [430, '20.00'],
      ],
      [
        [50, 'Net total'],
        [430, '20.00'],
      ],
      [
        [50, 'VAT 19%'],
        [430, '3.80'],
      ],
      [
        [50, 'Total'],
        [430, total],
      ],
    ];
    const fine = table(rows('23.80'));
    const p = fine.pages[0]!;
    expect(
      checkDocument(
        answer({ total: at(p, '23.80', '23.80') }, [item(p, 'Widget', '2', '10.00', '20.00')]),
        fine,
        concept,
      ).flags,
    ).toEqual([]);
    const off = table(rows('25.80'));
    const q = off.pages[0]!;
    expect(
      flaggedNames(
        checkDocument(
          answer({ total: at(q, '25.80', '25.80') }, [item(q, 'Widget', '2', '10.00', '20.00')]),
          off,
          concept,
        ),
      ),
    ).toEqual(['line 1 amount', 'total']);
  });

  it('a summary table of charges and deductions closes the gap: goods 1062.60, surcharge 15.00, discount -21.55, net 1056.05', () => {
    const page = table([
      [
        [50, 'Wirkarbeit'],
        [300, '1'],
        [360, '520.00'],
        [430, '520.00'],
      ],
      [
        [50, 'Kopierpapier'],
        [300, '1'],
        [360, '542.60'],
        [430, '542.60'],
      ],
      [
        [50, 'Warenwert'],
        [140, 'Zu-/Abschlag'],
        [230, 'Fracht'],
        [290, 'Skonto'],
        [350, 'Nettobetrag'],
        [430, 'MwSt-Betrag'],
      ],
      [
        [50, '1062.60'],
        [140, '15.00'],
        [230, '-21.55'],
        [350, '1056.05'],
        [430, '200.65'],
      ],
    ]);
    const p = page.pages[0]!;
    const items = [item(p, 'Wirkarbeit', '1', '520.00', '520.00'), item(p, 'Kopierpapier', '1', '542.60', '542.60')];
    expect(checkDocument(answer({ subtotal: at(p, '1056.05', '1056.05') }, items), page, concept).flags).toEqual([]);
  });

  it('shipping printed on the page closes the gap between the lines and the subtotal', () => {
    const page = table([
      [
        [50, 'Widget'],
        [300, '2'],
        [360, '10.00'],
        [430, '20.00'],
      ],
      [
        [50, 'Shipping'],
        [430, '4.90'],
      ],
      [
        [50, 'Subtotal'],
        [430, '24.90'],
      ],
    ]);
    const p = page.pages[0]!;
    expect(
      checkDocument(
        answer({ subtotal: at(p, '24.90', '24.90') }, [item(p, 'Widget', '2', '10.00', '20.00')]),
        page,
        concept,
      ).flags,
    ).toEqual([]);
  });
});

describe('document checks: tax and plausibility', () => {
  it('tax = rate × base where a rate is printed', () => {
    const page = doc([
      [
        [50, 'Subtotal'],
        [430, '100.00'],
      ],
      [
        [50, 'VAT 20%'],
        [430, '19.00'],
      ],
      [
        [50, 'Total'],
        [430, '119.00'],
      ],
    ]);
    const p = page.pages[0]!;
    const c = checkDocument(
      answer({ subtotal: at(p, '100.00', '100.00'), tax: at(p, '19.00', '19.00'), total: at(p, '119.00', '119.00') }),
      page,
      concept,
    );
    expect(flaggedNames(c)).toEqual(['subtotal', 'tax']);
    expect(c.reasons).toEqual([
      'tax 19.00 is not the rate printed on the page (20%) of subtotal 100.00 (that is 20.00)',
    ]);
  });

  it('a tax included in the total (a receipt: "incl. 19% VAT") is not added to it', () => {
    const page = doc([
      [
        [50, 'Subtotal'],
        [430, '119.00'],
      ],
      [
        [50, 'incl. 19% VAT'],
        [430, '19.00'],
      ],
      [
        [50, 'Total'],
        [430, '119.00'],
      ],
    ]);
    const p = page.pages[0]!;
    const result = answer({
      subtotal: at(p, '119.00', '119.00'),
      tax: at(p, '19.00', '19.00'),
      total: at(p, '119.00', '119.00', { nth: 1 }),
    });
    expect(checkDocument(result, page, concept)).toEqual({ flags: [], reasons: [] });
  });

  it('a tax larger than the total, or a percentage given as an amount, is not plausible', () => {
    const page = doc([
      [
        [50, 'VAT 19%'],
        [430, '19.00'],
      ],
      [
        [50, 'Total'],
        [430, '12.00'],
      ],
    ]);
    const p = page.pages[0]!;
    const c = checkDocument(answer({ tax: at(p, '19.00', '19.00'), total: at(p, '12.00', '12.00') }), page, concept);
    expect(flaggedNames(c)).toEqual(['tax', 'total']);
    expect(c.reasons).toContain('tax 19.00 is more than total 12.00');
    const c2 = checkDocument(answer({ tax: at(p, '19', '19') }), page, concept);
    expect(c2.reasons).toContain('tax "19" is a percentage ("19%"), not an amount');
    // A snippet quoting the label with its rate: the value's own word is the amount, not the rate.
    expect(
      checkDocument(answer({ tax: at(p, 'VAT 19% 19.00', '19.00') }), page, concept).reasons.filter((r) =>
        r.includes('percentage'),
      ),
    ).toEqual([]);
    const plain: PositionedText = {
      pages: [
        {
          page: 1,
          text: 'VAT 19%: 19.00 EUR\nTotal: 119.00 EUR',
          words: [],
          source: 'plain_text',
          width: 0,
          height: 0,
        },
      ],
      truncated: false,
      warnings: [],
    };
    const onPlain = (snippet: string, value: string): ExtractedValue => ({
      value,
      evidence: { page: 1, snippet, box: null },
      confidence: null,
    });
    expect(checkDocument(answer({ tax: onPlain('VAT 19%: 19.00', '19.00') }), plain, concept).flags).toEqual([]);
    expect(checkDocument(answer({ tax: onPlain('19%', '19') }), plain, concept).reasons).toEqual([
      'tax "19" is a percentage ("19%:"), not an amount',
    ]);
  });

  it("with no total or subtotal read: a tax beyond what 30% can be of the largest amount printed, a total below a tax line's amount", () => {
    // The tax base read as the tax (a line amount, 275.00, of a German invoice whose gross total is 529.87).
    const page = doc([
      [
        [50, 'Trennblätter A4'],
        [300, '20'],
        [360, '9,90'],
        [430, '198,00'],
        [480, '19'],
      ],
      [
        [50, 'Joghurt Banane'],
        [300, '50'],
        [360, '5,50'],
        [430, '275,00'],
        [480, '7'],
      ],
      [
        [50, 'Netto'],
        [200, '473,00'],
        [260, 'USt. 7%'],
        [330, '19,25'],
        [380, 'USt. 19%'],
        [450, '37,62'],
        [500, 'Brutto'],
        [540, '529,87'],
      ],
    ]);
    const p = page.pages[0]!;
    const c = checkDocument(answer({ tax: at(p, '275,00', '275.00') }), page, concept);
    expect(c.reasons).toEqual([
      'tax 275.00 is more than a tax of 30% can be of the largest amount the document prints (529.87)',
    ]);
    expect(checkDocument(answer({ tax: at(p, '37,62', '37.62') }), page, concept).flags).toEqual([]);
    // A total read from a table's first line, below the tax printed in the summary.
    const es = doc([
      [
        [50, 'Rotulador'],
        [300, '50'],
        [360, '1.20'],
        [430, '60.00'],
      ],
      [
        [50, 'TOTAL PARCIAL'],
        [430, '1419.00'],
      ],
      [
        [50, 'TOTAL IMPUESTOS'],
        [430, '302.00'],
      ],
      [
        [50, 'Saldo adeudado'],
        [430, '1721.00'],
      ],
    ]);
    const q = es.pages[0]!;
    expect(checkDocument(answer({ total: at(q, '60.00', '60.00') }), es, concept).reasons).toEqual([
      'total 60.00 is less than 302.00 printed on a tax line ("TOTAL IMPUESTOS 302.00")',
    ]);
    expect(checkDocument(answer({ total: at(q, '1721.00', '1721.00') }), es, concept).flags).toEqual([]);
    // A legal footer naming the VAT number beside the share capital is no tax line.
    const fr = doc([
      [
        [50, 'Total TTC'],
        [430, '671.15'],
      ],
      'SARL au capital de 120 000,00 € - TVA : FR11999999998 - SIRET : 99999999800010',
    ]);
    expect(checkDocument(answer({ total: at(fr.pages[0]!, '671.15', '671.15') }), fr, concept).flags).toEqual([]);
  });

  it('a total, subtotal or tax with other decimals than the document\'s money is not its figure ("19.0" read from a VAT rate column)', () => {
    const page = doc([
      [
        [50, 'Widget'],
        [300, '2'],
        [360, '10.00'],
        [420, '19,0'],
        [480, '20.00'],
      ],
      [
        [50, 'Gadget'],
        [300, '1'],
        [360, '5.00'],
        [420, '19,0'],
        [480, '5.00'],
      ],
      [
        [50, 'Net'],
        [480, '25.00'],
      ],
      [
        [50, 'MwSt'],
        [480, '4.75'],
      ],
      [
        [50, 'Endbetrag'],
        [480, '29.75'],
      ],
    ]);
    const p = page.pages[0]!;
    expect(checkDocument(answer({ tax: at(p, '19,0', '19.0') }), page, concept).reasons[0]).toBe(
      'tax "19.0" is written with 1 decimal, but the document\'s amounts have 2',
    );
    expect(checkDocument(answer({ tax: at(p, '4.75', '4.75') }), page, concept).flags).toEqual([]);
    // A utility bill: more 4-decimal unit prices than 2-decimal amounts; its 2-decimal total is one of its figures.
    const bill = doc([
      [
        [50, 'Energy'],
        [300, '10000.0000'],
        [380, '0.0520'],
        [480, '520.00'],
      ],
      [
        [50, 'Grid'],
        [300, '10000.0000'],
        [380, '0.0205'],
        [480, '205.00'],
      ],
      [
        [50, 'Meter'],
        [300, '1.0000'],
        [380, '12.1000'],
        [480, '12.10'],
      ],
      [
        [50, 'Total'],
        [480, '737.10'],
      ],
    ]);
    expect(checkDocument(answer({ total: at(bill.pages[0]!, '737.10', '737.10') }), bill, concept).flags).toEqual([]);
  });

  it("a value the engine was unsure of is flagged with its confidence; the engine's null confidence is no doubt", () => {
    const page = doc([
      [
        [50, 'Total'],
        [430, '12.00'],
      ],
    ]);
    const p = page.pages[0]!;
    const c = checkDocument(
      answer({ total: at(p, '12.00', '12.00', { confidence: UNSURE_CONFIDENCE - 0.1 }) }),
      page,
      concept,
    );
    expect(c.reasons).toEqual(['total: the engine was unsure of "12.00" (confidence 0.4)']);
    expect(
      checkDocument(answer({ total: { ...at(p, '12.00', '12.00'), confidence: null } }), page, concept).flags,
    ).toEqual([]);
  });

  it('a document whose values all check out gives nothing to review', () => {
    const result = answer(
      { subtotal: at(rp, '3.80', '3.80'), tax: at(rp, '0.31', '0.31'), total: at(rp, '4.11', '4.11') },
      receiptItems(),
    );
    expect(checkDocument(result, receipt, concept)).toEqual({ flags: [], reasons: [] });
  });
});

describe('document checks: a value no cross-check supports, read by a weak rule, is flagged', () => {
  // Issue 29's first goal is no wrong value without a flag. A value the document's arithmetic confirms (subtotal + tax
  // = total, the lines' sum, quantity × unit price, rate × base) or that a strong reading gave (its label on its line)
  // stands; one that neither confirms is a guess a reviewer must see.
  it('lines with a unit price and an amount but no quantity, and no total to add up to: their numbers are flagged', () => {
    const page = doc([
      [
        [50, 'Description'],
        [300, 'Item price'],
        [430, 'Sum'],
      ],
      [
        [50, 'Chairs'],
        [300, '100.00'],
        [430, '400.00'],
      ],
      [
        [50, 'Table'],
        [300, '250.00'],
        [430, '250.00'],
      ],
    ]);
    const p = page.pages[0]!;
    const items: LineItem[] = [
      {
        description: at(p, 'Chairs', 'Chairs'),
        quantity: none(),
        unit_price: at(p, '100.00', '100.00'),
        amount: at(p, '400.00', '400.00'),
      },
      {
        description: at(p, 'Table', 'Table'),
        quantity: none(),
        unit_price: at(p, '250.00', '250.00'),
        amount: at(p, '250.00', '250.00', { nth: 1 }),
      },
    ];
    const c = checkDocument(answer({}, items), page, concept);
    expect(flaggedNames(c)).toEqual(['line 1 amount', 'line 1 unit_price', 'line 2 amount', 'line 2 unit_price']);
    expect(c.reasons).toEqual([
      'line item 1: neither quantity × unit price nor a subtotal or total the lines add up to confirms its amount 400.00',
      'line item 2: neither quantity × unit price nor a subtotal or total the lines add up to confirms its amount 250.00',
    ]);
    // The same lines adding up to a subtotal the page prints are confirmed.
    const page2 = doc([
      [
        [50, 'Description'],
        [300, 'Item price'],
        [430, 'Sum'],
      ],
      [
        [50, 'Chairs'],
        [300, '100.00'],
        [430, '400.00'],
      ],
      [
        [50, 'Table'],
        [300, '250.00'],
        [430, '250.00'],
      ],
      [
        [50, 'Subtotal'],
        [430, '650.00'],
      ],
    ]);
    const p2 = page2.pages[0]!;
    const items2: LineItem[] = [
      {
        description: at(p2, 'Chairs', 'Chairs'),
        quantity: none(),
        unit_price: at(p2, '100.00', '100.00'),
        amount: at(p2, '400.00', '400.00'),
      },
      {
        description: at(p2, 'Table', 'Table'),
        quantity: none(),
        unit_price: at(p2, '250.00', '250.00'),
        amount: at(p2, '250.00', '250.00', { nth: 1 }),
      },
    ];
    expect(checkDocument(answer({ subtotal: at(p2, '650.00', '650.00') }, items2), page2, concept)).toEqual({
      flags: [],
      reasons: [],
    });
  });

  it('a line with only an amount and no total to add up to is flagged; quantity × unit price = amount confirms a line', () => {
    const page = doc([
      [
        [50, 'Description'],
        [300, 'Qty'],
        [360, 'Price'],
        [430, 'Amount'],
      ],
      [
        [50, 'Consulting'],
        [430, '80.00'],
      ],
      [
        [50, 'Widget'],
        [300, '2'],
        [360, '10.00'],
        [430, '20.00'],
      ],
    ]);
    const p = page.pages[0]!;
    const items: LineItem[] = [
      {
        description: at(p, 'Consulting', 'Consulting'),
        quantity: none(),
        unit_price: none(),
        amount: at(p, '80.00', '80.00'),
      },
      {
        description: at(p, 'Widget', 'Widget'),
        quantity: at(p, '2', '2'),
        unit_price: at(p, '10.00', '10.00'),
        amount: at(p, '20.00', '20.00'),
      },
    ];
    const c = checkDocument(answer({}, items), page, concept);
    expect(flaggedNames(c)).toEqual(['line 1 amount']);
  });

  it("a date found without a label (the only date printed: the engine's 0.5) is flagged; under or beside its label it stands", () => {
    const page = doc([
      'ACME Ltd',
      'Printed 03/14/2024',
      [
        [50, 'Date'],
        [300, 'Due'],
      ],
      [
        [50, '03/01/2024'],
        [300, '03/31/2024'],
      ],
    ]);
    const p = page.pages[0]!;
    const c = checkDocument(
      answer({ invoice_date: at(p, '03/14/2024', '2024-03-14', { confidence: 0.5 }) }),
      page,
      concept,
    );
    expect(flaggedNames(c)).toEqual(['invoice_date']);
    expect(c.reasons).toEqual([
      'invoice_date "2024-03-14" was read without a label (confidence 0.5): nothing on the document says which date it is',
    ]);
    const labelled = answer({
      invoice_date: at(p, '03/01/2024', '2024-03-01', { confidence: 0.8 }),
      due_date: at(p, '03/31/2024', '2024-03-31', { confidence: 0.8 }),
    });
    expect(checkDocument(labelled, page, concept)).toEqual({ flags: [], reasons: [] });
  });

  it('a total read under its label (not on its line) that no subtotal, tax or line sum confirms is flagged; confirmed, it stands', () => {
    const page = doc([
      [
        [50, 'Invoice 7'],
        [430, 'Amount due'],
      ],
      [[430, '118.00']],
      [
        [50, 'Net'],
        [300, '100.00'],
      ],
      [
        [50, 'VAT 18%'],
        [300, '18.00'],
      ],
    ]);
    const p = page.pages[0]!;
    const total = at(p, '118.00', '118.00', { confidence: 0.8 });
    const c = checkDocument(answer({ total }), page, concept);
    expect(flaggedNames(c)).toEqual(['total']);
    expect(c.reasons).toEqual([
      'total "118.00" was not read on its label\'s line (confidence 0.8) and no sum on the document confirms it',
    ]);
    // subtotal + tax = total confirms it.
    const confirmed = answer({ subtotal: at(p, '100.00', '100.00'), tax: at(p, '18.00', '18.00'), total });
    expect(checkDocument(confirmed, page, concept)).toEqual({ flags: [], reasons: [] });
    // Read on its label's line (confidence 0.9), it stands alone.
    expect(checkDocument(answer({ total: at(p, '118.00', '118.00') }), page, concept).flags).toEqual([]);
    // A value from the e-invoice XML is exact, whatever its confidence.
    const xml = {
      value: '118.00',
      evidence: {
        page: null,
        snippet: '<cbc:PayableAmount>118.00</cbc:PayableAmount>',
        box: null,
        source: 'xml' as const,
      },
      confidence: 0.8,
    };
    expect(checkDocument(answer({ total: xml }), page, concept).flags).toEqual([]);
  });
});

describe("document checks: the OCR's own doubt about a value's words", () => {
  it('a value whose words the OCR read with a low word confidence is flagged with the word and its confidence', () => {
    const page = layoutPage(
      [
        [
          [50, 'Subtotal'],
          [430, '100.00'],
        ],
        [
          [50, 'Tax'],
          [430, '18.00'],
        ],
        [
          [50, 'Total'],
          [430, '118.00'],
        ],
      ],
      { source: 'ocr' },
    );
    const confidence = (text: string, c: number) => {
      page.words.find((w) => w.text === text)!.confidence = c;
    };
    confidence('100.00', 96.5);
    confidence('18.00', 91);
    confidence('118.00', 41.25);
    const document: PositionedText = { pages: [page], truncated: false, warnings: [] };
    const result = answer({
      subtotal: at(page, '100.00', '100.00'),
      tax: at(page, '18.00', '18.00'),
      total: at(page, '118.00', '118.00'),
    });
    const c = checkDocument(result, document, concept);
    expect(flaggedNames(c)).toEqual(['total']);
    expect(c.reasons).toEqual(['total "118.00": the OCR read "118.00" with a word confidence of 41 of 100']);
    // Read confidently, or from a text layer (no word confidence), nothing to say.
    confidence('118.00', 88);
    expect(checkDocument(result, document, concept)).toEqual({ flags: [], reasons: [] });
  });
});

describe('document checks never throw', () => {
  it('on values that are not numbers or dates, a missing page, cells an engine left out, or an empty document', () => {
    const odd = (value: string, page = 1, box: Box | null = null): ExtractedValue => ({
      value,
      evidence: { page, snippet: value, box },
      confidence: Number.NaN,
    });
    const result = answer(
      {
        total: odd('abc'),
        subtotal: odd('1e5', 9),
        tax: odd('-0.00'),
        invoice_date: odd('2024-02-30'),
        due_date: odd('yesterday'),
        amount_due: odd('', 1, { x0: 0, y0: 0, x1: 0, y1: 0 }),
      },
      [
        { description: odd('x'), quantity: odd('0'), unit_price: odd('-'), amount: odd('0') },
        { amount: odd('5') } as unknown as LineItem,
        { description: none(), quantity: none(), unit_price: none(), amount: none() },
      ],
    );
    for (const document of [receipt, { pages: [], truncated: false, warnings: [] }])
      expect(() => checkDocument(result, document, concept)).not.toThrow();
  });
});

describe('the review outcome and line evidence', () => {
  it('merges the evidence check and the document checks: one entry per value and reason, reasons once each', () => {
    const result = answer({
      subtotal: at(rp, '3.80', '3.80'),
      tax: at(rp, '0.31', '0.31'),
      total: { ...at(rp, '3', '3', { after: 'August ' }), evidence: { page: 1, snippet: 'TOTAL 3', box: null } },
    });
    const outcome = mergeReview(checkEvidence(result, receipt), checkDocument(result, receipt, concept));
    expect(outcome.review_required).toBe(true);
    expect(outcome.reasons[0]).toMatch(/^total: the snippet "TOTAL 3" does not occur/u);
    expect(new Set(outcome.reasons).size).toBe(outcome.reasons.length);
    expect(outcome.flagged.filter((f) => 'field' in f && f.field === 'total').length).toBeGreaterThanOrEqual(2);
    expect(outcome.flagged.every((f) => outcome.reasons.includes(f.reason))).toBe(true);
  });

  it("a line's evidence is the union of its cells' boxes on the line's page, with their snippets in reading order", () => {
    const line = receiptItems()[0]!;
    expect(lineEvidence(line)).toEqual({
      page: 1,
      snippet: 'Coffee 1 2.30 2.30',
      box: { x0: 50, y0: 54, x1: 454, y1: 64 },
    });
    expect(lineEvidence({ description: none(), quantity: none(), unit_price: none(), amount: none() })).toBeNull();
  });
});

describe('session 10: what no check confirmed on an OCR page is flagged by its own check', () => {
  // Each case is a wrong value the tune part's scans gave that only another value's flag put under review: on a page
  // where nothing else is flagged it would have been returned unflagged.
  const ocrTable = (rows: Row[], tail: Row[] = [], source: 'ocr' | 'text_layer' = 'ocr') => {
    const page = layoutPage(
      [
        [
          [50, 'Description'],
          [300, 'Qty'],
          [360, 'Unit price'],
          [430, 'Amount'],
        ],
        ...rows,
        ...tail,
      ],
      { source },
    );
    return { page, document: { pages: [page], truncated: false, warnings: [] } as PositionedText };
  };
  const cell = (p: PageText, snippet: string, after: string, nth = 0) => at(p, snippet, snippet, { after, nth });

  it('fr-netpresse scanned: quantity 0 × a misread unit price 8.50 = 0 confirms nothing about the unit price', () => {
    for (const source of ['ocr', 'text_layer'] as const) {
      const { page, document } = ocrTable(
        [
          [
            [50, 'Abonnement'],
            [300, '1'],
            [360, '7.00'],
            [430, '7.00'],
          ],
          [
            [50, 'Papier'],
            [300, '0'],
            [360, '8.50'],
            [430, '0.00'],
          ],
        ],
        [
          [
            [50, 'Total'],
            [430, '7.00'],
          ],
        ],
        source,
      );
      const items: LineItem[] = [
        {
          description: at(page, 'Abonnement', 'Abonnement'),
          quantity: cell(page, '1', 'Abonnement'),
          unit_price: cell(page, '7.00', 'Abonnement'),
          amount: cell(page, '7.00', 'Abonnement', 1),
        },
        {
          description: at(page, 'Papier', 'Papier'),
          quantity: cell(page, '0', 'Papier'),
          unit_price: cell(page, '8.50', 'Papier'),
          amount: cell(page, '0.00', 'Papier'),
        },
      ];
      const result = answer({ total: at(page, '7.00', '7.00', { after: 'Total' }) }, items);
      expectEvidenceOk(result, document);
      const c = checkDocument(result, document, concept);
      if (source === 'text_layer') {
        // On a text layer the digits are the page's own: nothing to say.
        expect(c.flags).toEqual([]);
        continue;
      }
      expect(flaggedNames(c)).toEqual(['line 2 unit_price']);
      expect(c.reasons).toEqual([
        "line item 2 unit price 8.50: read by OCR, and its row's quantity × unit price cannot confirm it (quantity 0)",
      ]);
    }
  });

  it('it-fatturapa-mario-bianchi PNG: the unit price read as the quantity (no unit price) is flagged though the lines add up', () => {
    const { page, document } = ocrTable(
      [
        [
          [50, 'Competenze'],
          [300, '100.00'],
          [430, '100.00'],
        ],
        [
          [50, 'Spese'],
          [300, '15.00'],
          [430, '15.00'],
        ],
      ],
      [
        [
          [50, 'Imponibile'],
          [430, '115.00'],
        ],
      ],
    );
    const items: LineItem[] = ['Competenze', 'Spese'].map((d, i) => ({
      description: at(page, d, d),
      quantity: cell(page, ['100.00', '15.00'][i]!, d),
      unit_price: none(),
      amount: cell(page, ['100.00', '15.00'][i]!, d, 1),
    }));
    const result = answer({ subtotal: at(page, '115.00', '115.00') }, items);
    expectEvidenceOk(result, document);
    const c = checkDocument(result, document, concept);
    expect(flaggedNames(c)).toEqual(['line 1 quantity', 'line 2 quantity']);
    expect(c.reasons).toEqual([
      "line item 1 quantity 100.00: read by OCR, and its row's quantity × unit price cannot confirm it (no unit price)",
      "line item 2 quantity 15.00: read by OCR, and its row's quantity × unit price cannot confirm it (no unit price)",
    ]);
  });

  it('fr-netpresse PNG: a unit price with no quantity on its row is flagged, though the lines add up to the total', () => {
    const { page, document } = ocrTable(
      [
        [
          [50, 'Justificatif'],
          [360, '0.75'],
          [430, '0.75'],
        ],
      ],
      [
        [
          [50, 'Total'],
          [430, '0.75'],
        ],
      ],
    );
    const items: LineItem[] = [
      {
        description: at(page, 'Justificatif', 'Justificatif'),
        quantity: none(),
        unit_price: cell(page, '0.75', 'Justificatif'),
        amount: cell(page, '0.75', 'Justificatif', 1),
      },
    ];
    const result = answer({ total: at(page, '0.75', '0.75', { after: 'Total' }) }, items);
    expectEvidenceOk(result, document);
    const c = checkDocument(result, document, concept);
    expect(flaggedNames(c)).toEqual(['line 1 unit_price']);
    expect(c.reasons).toEqual([
      "line item 1 unit price 0.75: read by OCR, and its row's quantity × unit price cannot confirm it (no quantity)",
    ]);
  });

  it('en-sammy-maystone PNG: a line item with numbers but no description is flagged', () => {
    const page = doc([
      [
        [50, 'Description'],
        [300, 'Qty'],
        [360, 'Unit price'],
        [430, 'Amount'],
      ],
      [
        [300, '12'],
        [360, '10.00'],
        [430, '120.00'],
      ],
    ]);
    const p = page.pages[0]!;
    const items: LineItem[] = [
      {
        description: none(),
        quantity: at(p, '12', '12'),
        unit_price: at(p, '10.00', '10.00'),
        amount: at(p, '120.00', '120.00'),
      },
    ];
    const c = checkDocument(answer({}, items), page, concept);
    expect(flaggedNames(c)).toEqual(['line 1 amount', 'line 1 quantity', 'line 1 unit_price']);
    expect(c.reasons).toEqual(['line item 1: no description was read for it; its row may be misread']);
  });

  it('en-aws PNG: a name in brackets is a remark printed near the party, not its name', () => {
    const page = doc([
      'Amazon Web Services, Inc.',
      '{Not to be used for payment remittance)',
      '410 Terry Ave North',
      'Seattle, WA 98109',
    ]);
    const p = page.pages[0]!;
    const result = answer({
      seller_name: at(p, '{Not to be used for payment remittance)', '{Not to be used for payment remittance)'),
    });
    const c = checkDocument(result, page, concept);
    expect(flaggedNames(c)).toContain('seller_name');
    expect(c.reasons).toContain(
      'seller_name "{Not to be used for payment remittance)" is written in brackets: a remark, not a name',
    );
    const right = answer({ seller_name: at(p, 'Amazon Web Services, Inc.', 'Amazon Web Services, Inc.') });
    expect(flaggedNames(checkDocument(right, page, concept))).not.toContain('seller_name');
  });

  it('a total read on its label line of an OCR page that no sum or rate confirms is flagged; on a text layer it is not', () => {
    const rows: Row[] = [
      [
        [50, 'Total'],
        [430, '118.00'],
      ],
    ];
    const ocr = layoutPage(rows, { source: 'ocr' });
    const document: PositionedText = { pages: [ocr], truncated: false, warnings: [] };
    const c = checkDocument(answer({ total: at(ocr, '118.00', '118.00') }), document, concept);
    expect(flaggedNames(c)).toEqual(['total']);
    expect(c.reasons).toEqual([
      'total "118.00" was read by OCR and no sum on the document confirms it (a misread digit would go unseen)',
    ]);
    const text = doc(rows);
    expect(checkDocument(answer({ total: at(text.pages[0]!, '118.00', '118.00') }), text, concept).flags).toEqual([]);
  });
});

describe('session 10: an identifier of letters and digits the OCR was not sure of', () => {
  it('it-fatturapa-gav PNG: an invoice number read at word confidence 89.4 is flagged; an amount at that confidence is not', () => {
    const page = layoutPage(
      [
        [
          [50, 'Numero documento'],
          [200, 'IT23-941151-790'],
        ],
        [
          [50, 'Data'],
          [200, '07-08-2023'],
        ],
        [
          [50, 'Subtotal'],
          [430, '100.00'],
        ],
        [
          [50, 'Tax'],
          [430, '18.00'],
        ],
        [
          [50, 'Total'],
          [430, '118.00'],
        ],
      ],
      { source: 'ocr' },
    );
    const conf = (text: string, c: number) => {
      page.words.find((w) => w.text === text)!.confidence = c;
    };
    conf('IT23-941151-790', 89.4);
    conf('07-08-2023', 96.5);
    conf('100.00', 89.55);
    const document: PositionedText = { pages: [page], truncated: false, warnings: [] };
    const result = answer({
      invoice_number: at(page, 'IT23-941151-790', 'IT23-941151-790'),
      invoice_date: at(page, '07-08-2023', '2023-08-07'),
      subtotal: at(page, '100.00', '100.00'),
      tax: at(page, '18.00', '18.00'),
      total: at(page, '118.00', '118.00'),
    });
    const c = checkDocument(result, document, concept);
    expect(flaggedNames(c)).toEqual(['invoice_number']);
    expect(c.reasons).toEqual([
      'invoice_number "IT23-941151-790": the OCR read "IT23-941151-790" with a word confidence of 89.4 of 100, and nothing on the document can confirm an identifier of letters and digits the way a sum confirms an amount',
    ]);
    conf('IT23-941151-790', 93);
    expect(checkDocument(result, document, concept).flags).toEqual([]);
    // Digits alone (a date, a US EIN "49-8332110" of the generated corpus's PNG, read right at 89.2) are not judged so.
    conf('07-08-2023', 89.2);
    expect(checkDocument(result, document, concept).flags).toEqual([]);
  });
});

describe('session 10: a VAT id whose check digits hold confirms itself', () => {
  it('an Italian VAT id read at word confidence 86 is not flagged when its checksum holds; a VAT id without one is', () => {
    const page = layoutPage(
      [
        [
          [50, 'Partita IVA'],
          [200, 'IT02780790107'],
        ],
        [
          [50, 'VAT'],
          [200, 'DK12345678'],
        ],
      ],
      { source: 'ocr' },
    );
    for (const w of page.words) if (/\d/u.test(w.text)) w.confidence = 86.3;
    const document: PositionedText = { pages: [page], truncated: false, warnings: [] };
    const c = checkDocument(
      answer({
        seller_vat_id: at(page, 'IT02780790107', 'IT02780790107'),
        buyer_vat_id: at(page, 'DK12345678', 'DK12345678'),
      }),
      document,
      concept,
    );
    expect(flaggedNames(c)).toEqual(['buyer_vat_id']);
  });
});

describe('session 11: a tax printed per VAT rate (rate, base and tax on one row)', () => {
  // A VAT summary as many layouts print it: one row per rate with the rate, its base and its tax (ads-facturx's French
  // layouts: "Taux TVA  Base HT  MT TVA  TTC" over "20.0%  600.00€  120.00€  720.00€"; the ZUGFeRD pages' per-rate
  // rows). The rows are the page's own arithmetic: base × rate = tax.
  const twoRates = doc([
    [
      [50, 'Artikel A'],
      [430, '100.00'],
    ],
    [
      [50, 'Artikel B'],
      [430, '50.00'],
    ],
    [
      [50, 'MwSt'],
      [200, '19%'],
      [300, '100.00'],
      [430, '19.00'],
    ],
    [
      [50, 'MwSt'],
      [200, '7%'],
      [300, '50.00'],
      [430, '3.50'],
    ],
    [
      [50, 'Gesamtbetrag'],
      [430, '172.50'],
    ],
  ]);
  const p2 = twoRates.pages[0]!;

  it("one rate's tax given as the tax is flagged on its own, even where the rates bracket it", () => {
    // 19.00 lies between 7% and 19% of 172.50 − 19.00, so the rates alone cannot tell it from the whole tax (22.50).
    const result = answer({
      tax: at(p2, '19.00', '19.00'),
      total: at(p2, '172.50', '172.50'),
    });
    expectEvidenceOk(result, twoRates);
    const check = checkDocument(result, twoRates, concept);
    expect(flaggedNames(check)).toContain('tax');
    const reason = check.flags.find((f) => f.field === 'tax')!.reason;
    expect(reason).toMatch(/one VAT rate/u);
    expect(reason).toMatch(/22\.50/u);
  });

  it('the sum of the per-rate taxes is confirmed by the rows', () => {
    const page = layoutPage([
      [
        [50, 'MwSt'],
        [200, '19%'],
        [300, '100.00'],
        [430, '19.00'],
      ],
      [
        [50, 'MwSt'],
        [200, '7%'],
        [300, '50.00'],
        [430, '3.50'],
      ],
      [
        [50, 'MwSt gesamt'],
        [430, '22.50'],
      ],
    ]);
    const document: PositionedText = { pages: [page], truncated: false, warnings: [] };
    // Read under its label, not on its line (confidence 0.8): no other sum confirms it, the rows do.
    const result = answer({ tax: at(page, '22.50', '22.50', { confidence: 0.8 }) });
    expectEvidenceOk(result, document);
    expect(flaggedNames(checkDocument(result, document, concept))).toEqual([]);
  });

  it('a single rate row confirms the tax on it (base × rate = tax), as a sum would', () => {
    // fr-adsfx-*: the tax is printed only in the VAT summary row, under its column header (read at 0.8).
    const page = layoutPage([
      [
        [300, 'Taux TVA'],
        [380, 'Base HT'],
        [450, 'MT TVA'],
        [520, 'TTC'],
      ],
      [
        [300, '20.0%'],
        [380, '600.00€'],
        [450, '120.00€'],
        [520, '720.00€'],
      ],
    ]);
    const document: PositionedText = { pages: [page], truncated: false, warnings: [] };
    const result = answer({ tax: at(page, '120.00', '120.00', { confidence: 0.8 }) });
    expectEvidenceOk(result, document);
    expect(flaggedNames(checkDocument(result, document, concept))).toEqual([]);
  });

  it('a discount row is no VAT row: its figure confirms no tax', () => {
    const page = layoutPage([
      [
        [50, 'Rabatt'],
        [200, '10%'],
        [300, '1200.00'],
        [430, '120.00'],
      ],
    ]);
    const document: PositionedText = { pages: [page], truncated: false, warnings: [] };
    const result = answer({ tax: at(page, '120.00', '120.00', { confidence: 0.8 }) });
    expect(flaggedNames(checkDocument(result, document, concept))).toEqual(['tax']);
  });
});

describe('session 11: two taxes of one rate (CGST and SGST)', () => {
  const page = layoutPage([
    [
      [50, 'CGST'],
      [200, '9%'],
      [300, '100.00'],
      [430, '9.00'],
    ],
    [
      [50, 'SGST'],
      [200, '9%'],
      [300, '100.00'],
      [430, '9.00'],
    ],
  ]);
  const document: PositionedText = { pages: [page], truncated: false, warnings: [] };

  it('half of the tax is not confirmed by its row: the rows of the same rate add up', () => {
    const half = answer({ tax: at(page, '9.00', '9.00', { confidence: 0.8 }) });
    expect(flaggedNames(checkDocument(half, document, concept))).toEqual(['tax']);
  });
});

describe("session 11: a date read under another date's label", () => {
  // The "the due date and a related invoice's date given as the invoice date": the snippet is on the page, so
  // only the label the value is printed after (on its line) or under (the header above it) tells whose date it is.
  const inLine = doc([
    [
      [50, 'Invoice date: 01/03/2024'],
      [300, 'Due date: 31/03/2024'],
    ],
  ]);
  const columns = doc([
    [
      [50, 'Date de la facture'],
      [200, "Date d'échéance"],
      [350, 'Date de livraison'],
    ],
    [
      [50, '15/08/2026'],
      [200, '14/09/2026'],
      [350, '16/08/2026'],
    ],
  ]);

  it("an invoice date read after the due date's label on its line is flagged; the due date read there is not", () => {
    const p = inLine.pages[0]!;
    const wrong = answer({ invoice_date: at(p, '31/03/2024', '2024-03-31') });
    expectEvidenceOk(wrong, inLine);
    const check = checkDocument(wrong, inLine, concept);
    expect(flaggedNames(check)).toEqual(['invoice_date']);
    expect(check.reasons.join(' ')).toMatch(/Due date/u);
    const right = answer({
      invoice_date: at(p, '01/03/2024', '2024-03-01'),
      due_date: at(p, '31/03/2024', '2024-03-31'),
    });
    expect(flaggedNames(checkDocument(right, inLine, concept))).toEqual([]);
  });

  it("a date read under another date's column header is flagged; under its own it is not", () => {
    const p = columns.pages[0]!;
    // Each alone, so that no other check (the due date before the invoice date) says anything.
    const dueAsIssued = answer({ invoice_date: at(p, '14/09/2026', '2026-09-14') });
    expectEvidenceOk(dueAsIssued, columns);
    expect(flaggedNames(checkDocument(dueAsIssued, columns, concept))).toEqual(['invoice_date']);
    const deliveryAsDue = answer({ due_date: at(p, '16/08/2026', '2026-08-16') });
    const check = checkDocument(deliveryAsDue, columns, concept);
    expect(flaggedNames(check)).toEqual(['due_date']);
    expect(check.reasons.join(' ')).toMatch(/Date de livraison/u);
    const right = answer({
      invoice_date: at(p, '15/08/2026', '2026-08-15'),
      due_date: at(p, '14/09/2026', '2026-09-14'),
    });
    expect(flaggedNames(checkDocument(right, columns, concept))).toEqual([]);
  });
});

describe("session 11: an invoice number read under another number's column header", () => {
  // A header row of several numbers over their values ("Order ID  Invoice No  Customer No"): the value under the
  // order's header is the order number, whatever the engine took it for.
  const columns = doc([
    [
      [50, 'Order ID'],
      [200, 'Invoice No'],
      [350, 'Customer No'],
    ],
    [
      [50, 'OD1234567'],
      [200, 'FA-2024-118'],
      [350, 'C-77120'],
    ],
  ]);
  const p = columns.pages[0]!;

  it("under the order's or the customer number's header it is flagged; under its own it is not", () => {
    for (const [snippet, why] of [
      ['OD1234567', /order number/u],
      ['C-77120', /customer number/u],
    ] as const) {
      const wrong = answer({ invoice_number: at(p, snippet, snippet) });
      expectEvidenceOk(wrong, columns);
      const check = checkDocument(wrong, columns, concept);
      expect(flaggedNames(check)).toEqual(['invoice_number']);
      expect(check.reasons.join(' ')).toMatch(why);
    }
    const right = answer({ invoice_number: at(p, 'FA-2024-118', 'FA-2024-118') });
    expect(flaggedNames(checkDocument(right, columns, concept))).toEqual([]);
  });
});

describe('session 12: a tax printed only per rate, as a sum of the printed rows', () => {
  const rows = EINFACH_VAT_SUMMARY;
  const ocr: PositionedText = { pages: [layoutPage(rows, { source: 'ocr' })], truncated: false, warnings: [] };
  const page = ocr.pages[0]!;

  it("subtotal + the VAT rows' taxes = total confirms the subtotal and the total when no tax is given", () => {
    // Read by OCR on their labels' lines: before, "no sum on the document confirms it" flagged both right values.
    const result = answer({
      subtotal: at(page, '473,00', '473.00'),
      tax: none(),
      total: at(page, '529,87', '529.87'),
    });
    expectEvidenceOk(result, ocr);
    expect(flaggedNames(checkDocument(result, ocr, concept))).toEqual([]);
  });

  it("taxOfVatRows gives the rows' taxes as one value with evidence listing each row's figure", () => {
    const tax = taxOfVatRows(ocr)!;
    expect(tax.value).toBe('56.87');
    expect(tax.evidence).toMatchObject({ page: 1, snippet: '19,25 + 37,62' });
    const b = tax.evidence!.box!;
    expect([b.x0, b.x1]).toEqual([480, 480 + 5 * CHAR_WIDTH]);
    expect(b.y1 - b.y0).toBeGreaterThan(ROW_HEIGHT);
    const result = answer({ subtotal: at(page, '473,00', '473.00'), tax, total: at(page, '529,87', '529.87') });
    expectEvidenceOk(result, ocr);
    expect(flaggedNames(checkDocument(result, ocr, concept))).toEqual([]);
  });

  it('taxOfVatRows gives nothing for one rate, nor for rows that repeat a rate (a repeated summary or CGST + SGST)', () => {
    const one: PositionedText = { pages: [layoutPage(rows.slice(0, 2))], truncated: false, warnings: [] };
    expect(taxOfVatRows(one)).toBeNull();
    const repeated = layoutPage([rows[1]!, rows[1]!]);
    expect(taxOfVatRows({ pages: [repeated], truncated: false, warnings: [] })).toBeNull();
  });

  it('a value given as a sum of printed figures that no VAT rows or totals confirm is flagged', () => {
    // Shipping and postage added up and given as the tax: each part is printed, the sum is exact, the page names a
    // tax but prints no rate, so no other check has anything to say.
    const document = doc([
      [
        [50, 'Versand'],
        [430, '19.00'],
      ],
      [
        [50, 'Porto'],
        [430, '3.50'],
      ],
      [
        [50, 'Gesamtbetrag inkl. MwSt'],
        [430, '172.50'],
      ],
    ]);
    const p = document.pages[0]!;
    const tax: ExtractedValue = {
      value: '22.50',
      evidence: { page: 1, snippet: '19.00 + 3.50', box: null },
      confidence: 0.9,
    };
    const result = answer({ tax, total: at(p, '172.50', '172.50') });
    expectEvidenceOk(result, document);
    const check = checkDocument(result, document, concept);
    expect(flaggedNames(check)).toEqual(['tax']);
    expect(check.flags[0]!.reason).toMatch(/sum of the figures "19\.00 \+ 3\.50"/u);
  });
});
