import { describe, expect, it } from 'vitest';
import type { ExtractedValue, ExtractionResult, LineItem } from '../../../domain/extraction.js';
import { checkEvidence } from '../../../domain/extraction-evidence.js';
import { extractOffline } from '../../../adapters/extraction/offline-engine.js';
import { documentOf, layoutPage, plainPage } from '../../helpers/positioned-text.js';

const page = plainPage(
  [
    'ACME Supplies Ltd   VAT No: DE 123 456 789',
    'Invoice No.: INV-2024-0042',
    'Invoice date: 15/03/2024',
    'Due date: 14 April 2024',
    'Contact: billing@acme.example',
    'Description Qty Unit price Amount',
    'Widget, blue 2 10.00 20.00',
    'Gadget 3 1.000,00 3.000,00',
    'Subtotal 3.020,00',
    'VAT 19% 573,80',
    'Total EUR 3.593,80',
    'IBAN: DE89 3704 0044 0532 0130 00',
  ].join('\n'),
);
const doc = documentOf(page);
const FIELDS = [
  'invoice_number',
  'invoice_date',
  'due_date',
  'subtotal',
  'vat',
  'total',
  'currency',
  'vat_number',
  'email',
  'iban',
];

const v = (value: string | null, snippet: string | null, pageNo = 1): ExtractedValue => ({
  value,
  evidence: snippet === null ? null : { page: pageNo, snippet, box: null },
  confidence: 1,
});
const result = (fields: Record<string, ExtractedValue>, items: LineItem[] = []): ExtractionResult => ({
  fields,
  items,
  warnings: [],
});

describe('checkEvidence', () => {
  it('passes every value the offline engine reads from the document (fields and line items)', () => {
    const r = extractOffline(doc, FIELDS);
    expect(Object.values(r.fields).every((f) => f.value !== null)).toBe(true);
    expect(r.items).toHaveLength(2);
    const checked = checkEvidence(r, doc);
    expect(checked.review_reasons).toEqual([]);
    expect(checked.review_required).toBe(false);
    expect(checked.checks).toHaveLength(FIELDS.length + 8);
    expect(checked.checks.every((c) => c.ok && c.reason === null)).toBe(true);
    expect(checked.checks.find((c) => c.item === 1 && c.field === 'amount')).toEqual({
      field: 'amount',
      item: 1,
      ok: true,
      reason: null,
    });
  });

  it('accepts a snippet quoted with other whitespace, amounts under either decimal mark, dates in any common format, a currency by symbol', () => {
    const d = documentOf(plainPage('Total:   1.234,50 €\nIssued 15 March 2024\nAlso\u00a0due  on 03/04/2024'));
    const checked = checkEvidence(
      result({
        total: v('1234.5', '1.234,50'),
        total_alt: v('1234.50', '1.234,50 €'),
        date: v('2024-03-15', 'Issued 15 March 2024'),
        // An ambiguous numeric date is derivable under both orders: the check confirms the snippet, not the order.
        due_date: v('2024-04-03', 'Also due on\n03/04/2024'),
        currency: v('EUR', '€'),
        note: v('due on', 'Also due  on'),
      }),
      d,
    );
    expect(checked.review_reasons).toEqual([]);
  });

  it('skips null values and keeps the engine result as it is', () => {
    const r = result({ total: v(null, null), invoice_number: v('A-1', 'A-1') }, []);
    const checked = checkEvidence(r, documentOf(plainPage('No. A-1')));
    expect(checked.checks).toEqual([{ field: 'invoice_number', item: null, ok: true, reason: null }]);
    expect(checked.fields).toBe(r.fields);
  });

  it.each([
    ['a wrong digit in an amount', 'total', v('3593.81', '3.593,80'), 'total: the value "3593.81" has other digits'],
    ['an amount with the decimal point moved', 'total', v('359.38', '3.593,80'), 'total: the value "359.38"'],
    [
      'a swapped date (the due date as the invoice date)',
      'invoice_date',
      v('2024-04-14', '15/03/2024'),
      'invoice_date: the value "2024-04-14" is not the date',
    ],
    ['day and month swapped in an unambiguous date', 'invoice_date', v('2024-15-03', '15/03/2024'), 'is not the date'],
    ['a date in another shape', 'invoice_date', v('15.03.2024', '15/03/2024'), 'is not a YYYY-MM-DD date'],
    ['a date one day off', 'invoice_date', v('2024-03-16', '15/03/2024'), 'is not the date'],
    [
      'a snippet not in the source',
      'total',
      v('3593.80', 'Total 3.593,80'),
      'total: the snippet "Total 3.593,80" does not occur in the text of page 1',
    ],
    [
      'a snippet cut out of a longer number',
      'total',
      v('3593', '3.593'),
      'occurs on page 1 only inside a longer word or number',
    ],
    [
      'a snippet cut out of a longer identifier',
      'invoice_number',
      v('INV-2024-004', 'INV-2024-004'),
      'only inside a longer word or number',
    ],
    [
      'a snippet in another case',
      'invoice_number',
      v('INV-2024-0042', 'invoice no.: INV-2024-0042'),
      'does not occur in the text of page 1',
    ],
    ['a snippet on a page the document lacks', 'total', v('3593.80', '3.593,80', 2), 'names page 2'],
    ['no evidence', 'total', v('3593.80', null), 'total: no evidence'],
    ['an empty snippet', 'total', v('3593.80', '  '), 'snippet is empty'],
    [
      "a value not derivable from its snippet (the subtotal's snippet)",
      'total',
      v('3593.80', '3.020,00'),
      'has other digits',
    ],
    ['a negative amount from a positive snippet', 'total', v('-3593.80', '3.593,80'), 'is negative'],
    ['a formatted amount', 'total', v('3,593.80', '3.593,80'), 'is not a plain decimal number'],
    ['another currency', 'currency', v('USD', 'EUR'), 'is named by neither its code nor its symbol'],
    ['not a currency code', 'currency', v('EURO', 'EUR'), 'is not an ISO 4217 code'],
    [
      'a wrong digit in an identifier',
      'invoice_number',
      v('INV-2024-0043', 'INV-2024-0042'),
      'does not occur in the snippet',
    ],
    ['a wrong digit in a tax id', 'vat_number', v('DE123456780', 'DE 123 456 789'), 'does not occur in the snippet'],
    [
      'a wrong IBAN digit',
      'iban',
      v('DE89370400440532013001', 'DE89 3704 0044 0532 0130 00'),
      'fails the IBAN checksum',
    ],
    [
      'another e-mail address',
      'email',
      v('billing@acme.example.org', 'billing@acme.example'),
      'does not occur in the snippet',
    ],
    [
      'a text value that is not in its snippet',
      'vendor_name',
      v('ACME Supplies GmbH', 'ACME Supplies Ltd'),
      'vendor_name: the value "ACME Supplies GmbH" does not occur',
    ],
  ])('flags %s', (_what, field, value, reason) => {
    const checked = checkEvidence(result({ ...extractOffline(doc, FIELDS).fields, [field]: value }), doc);
    expect(checked.review_required).toBe(true);
    expect(checked.review_reasons).toHaveLength(1);
    expect(checked.review_reasons[0]).toContain(reason);
    const failed = checked.checks.filter((c) => !c.ok);
    expect(failed).toEqual([{ field, item: null, ok: false, reason: checked.review_reasons[0] }]);
    // The value is kept, flagged.
    expect(checked.fields[field]).toEqual(value);
  });

  it('flags a line-item value by its column and 0-based index, naming the 1-based line item', () => {
    const r = extractOffline(doc, []);
    r.items[1]!.amount = v('3000.01', '3.000,00');
    r.items[0]!.description = v('Widget, red', 'Widget, blue');
    const checked = checkEvidence(r, doc);
    expect(checked.checks.filter((c) => !c.ok)).toEqual([
      {
        field: 'description',
        item: 0,
        ok: false,
        reason: expect.stringContaining('line item 1 description: the value "Widget, red"') as string,
      },
      { field: 'amount', item: 1, ok: false, reason: expect.stringContaining('line item 2 amount') as string },
    ]);
  });

  it("a multi-line description may skip the other columns' words between its lines, in order only", () => {
    const p = layoutPage([
      [
        [50, 'Description'],
        [300, 'Qty'],
        [360, 'Price'],
        [460, 'Amount'],
      ],
      [
        [50, 'Consulting hours'],
        [300, '1.5'],
        [366, '80.00'],
        [460, '120.00'],
      ],
      [[50, 'on site, March']],
    ]);
    const d = documentOf(p);
    const r = extractOffline(d, []);
    expect(r.items[0]!.description.value).toBe('Consulting hours on site, March');
    expect(checkEvidence(r, d).review_required).toBe(false);
    r.items[0]!.description.value = 'on site, March Consulting hours';
    expect(checkEvidence(r, d).review_reasons).toEqual([expect.stringContaining('line item 1 description')]);
    // A document field's text must occur as it is.
    const field = result({ note: { ...r.items[0]!.description, value: 'Consulting hours on site, March' } });
    expect(checkEvidence(field, d).review_required).toBe(true);
  });

  it("the engine's confidence never overrides the check, nor does a low one flag a correct value", () => {
    const wrong = checkEvidence(
      result({ total: { value: '3593.81', evidence: { page: 1, snippet: '3.593,80', box: null }, confidence: 1 } }),
      doc,
    );
    expect(wrong.review_required).toBe(true);
    const right = checkEvidence(
      result({ total: { value: '3593.80', evidence: { page: 1, snippet: '3.593,80', box: null }, confidence: 0 } }),
      doc,
    );
    expect(right.review_required).toBe(false);
  });

  it('flags EVERY injected wrong value of a failure-injecting stand-in, across all fields and line items', () => {
    const good = extractOffline(doc, FIELDS);
    const mutations: [string, (x: ExtractedValue, all: ExtractedValue[]) => ExtractedValue | null][] = [
      ['wrong last digit or letter', (x) => ({ ...x, value: wrongChar(x.value!) })],
      [
        'snippet not in the source',
        (x) => ({ ...x, evidence: { ...x.evidence!, snippet: `${x.evidence!.snippet} §` } }),
      ],
      ['snippet on a missing page', (x) => ({ ...x, evidence: { ...x.evidence!, page: 9 } })],
      ['no evidence', (x) => ({ ...x, evidence: null })],
      [
        'another value of the same kind, own snippet',
        (x, all) => {
          const other = all.find((o) => o.value !== x.value && o.value !== null && sameShape(o.value, x.value!));
          return other ? { ...x, value: other.value } : null;
        },
      ],
    ];
    let injected = 0;
    const slots: {
      get: (r: ExtractionResult) => ExtractedValue;
      set: (r: ExtractionResult, v: ExtractedValue) => void;
      name: string;
    }[] = [
      ...FIELDS.map((f) => ({
        name: f,
        get: (r: ExtractionResult) => r.fields[f]!,
        set: (r: ExtractionResult, x: ExtractedValue) => {
          r.fields[f] = x;
        },
      })),
      ...good.items.flatMap((_, i) =>
        (['description', 'quantity', 'unit_price', 'amount'] as const).map((c) => ({
          name: `item ${i} ${c}`,
          get: (r: ExtractionResult) => r.items[i]![c],
          set: (r: ExtractionResult, x: ExtractedValue) => {
            r.items[i]![c] = x;
          },
        })),
      ),
    ];
    const all = slots.map((s) => s.get(good));
    for (const slot of slots) {
      for (const [what, mutate] of mutations) {
        const bad = mutate(slot.get(good), all);
        if (!bad) continue;
        const r = structuredClone(good);
        slot.set(r, { ...bad, confidence: 1 });
        injected++;
        const checked = checkEvidence(r, doc);
        expect(checked.review_reasons, `${slot.name}: ${what}`).toHaveLength(1);
      }
    }
    expect(injected).toBeGreaterThan(slots.length * 4);
  });

  it('a tax id quoted from inside an IBAN is not a tax id', () => {
    const d = documentOf(plainPage('IBAN: DE89 3704 0044 0532 0130 00\nVAT: DE123456789'));
    const checked = checkEvidence(
      result({ vat_number: v('DE89370400440532', 'DE89 3704 0044 0532'), vat_id: v('DE123456789', 'DE123456789') }),
      d,
    );
    expect(checked.review_reasons).toEqual([
      'vat_number: the value "DE89370400440532" is read out of an IBAN, in "DE89 3704 0044 0532"',
    ]);
  });
});

/** Changes the last digit (or, without digits, the first letter) of a value. */
function wrongChar(s: string): string {
  const i = s.search(/\d(?!.*\d)/u);
  if (i >= 0) return s.slice(0, i) + String((Number(s[i]) + 1) % 10) + s.slice(i + 1);
  const j = s.search(/[A-Za-z]/u);
  return (
    s.slice(0, j) + (s[j] === 'z' || s[j] === 'Z' ? 'a' : String.fromCharCode(s.charCodeAt(j) + 1)) + s.slice(j + 1)
  );
}

function sameShape(a: string, b: string): boolean {
  const shape = (s: string) =>
    s
      .replace(/\d/gu, '9')
      .replace(/[A-Za-z]/gu, 'a')
      .replace(/9+/gu, '9')
      .replace(/a+/gu, 'a');
  return shape(a) === shape(b);
}

describe('session 12: a value that is the sum of figures printed on the page (a tax printed only per rate)', () => {
  // de-zugferd-comfort-einfach: the tax is printed per VAT rate (19,25 and 37,62) and never as one figure; its value
  // 56.87 has no single snippet. Its evidence lists each printed part, joined by " + ".
  const perRate = documentOf(
    plainPage(
      [
        'Rechnungssumme Netto (excl. USt.) 473,00',
        'Steuerbasisbetrag USt. 7% 275,00 19,25',
        'Steuerbasisbetrag USt. 19% 198,00 37,62',
        'Rechnungssumme Brutto (inkl. USt.) 529,87',
      ].join('\n'),
    ),
  );
  const taxOf = (value: string, snippet: string) => result({ tax: v(value, snippet) });

  it('accepts a value that is the exact sum of the printed parts its evidence lists', () => {
    const checked = checkEvidence(taxOf('56.87', '19,25 + 37,62'), perRate);
    expect(checked.review_reasons).toEqual([]);
    expect(checked.checks).toEqual([{ field: 'tax', item: null, ok: true, reason: null }]);
  });

  it('flags a value that is not the sum of its parts', () => {
    const checked = checkEvidence(taxOf('56.88', '19,25 + 37,62'), perRate);
    expect(checked.review_required).toBe(true);
    expect(checked.review_reasons[0]).toMatch(
      /^tax: the value "56\.88" is not the sum of the figures "19,25 \+ 37,62"/u,
    );
  });

  it('flags a sum one of whose parts the page does not print, or prints only inside a longer number', () => {
    const missing = checkEvidence(taxOf('56.87', '19,25 + 37,62 + 0,00'), perRate);
    expect(missing.review_reasons[0]).toMatch(
      /part "0,00" of the sum "19,25 \+ 37,62 \+ 0,00" does not occur on page 1/u,
    );
    const inside = checkEvidence(taxOf('37.62', '9,25 + 28,37'), documentOf(plainPage('19,25 28,37')));
    expect(inside.review_reasons[0]).toMatch(
      /part "9,25" of the sum "9,25 \+ 28,37" occurs on page 1 only inside a longer word or number/u,
    );
  });

  it('a part listed twice must be printed twice (two taxes of one rate, CGST and SGST)', () => {
    const twice = documentOf(plainPage('CGST 9% 100.00 9.00\nSGST 9% 100.00 9.00'));
    expect(checkEvidence(taxOf('18.00', '9.00 + 9.00'), twice).review_reasons).toEqual([]);
    const once = documentOf(plainPage('CGST 9% 100.00 9.00\nTotal 118.00'));
    expect(checkEvidence(taxOf('18.00', '9.00 + 9.00'), once).review_reasons[0]).toMatch(
      /part "9\.00" of the sum "9\.00 \+ 9\.00" is listed 2 times but occurs on page 1 only once/u,
    );
  });

  it('each part is one printed amount: text, or a part with two figures, is no part of a sum', () => {
    expect(checkEvidence(taxOf('56.87', 'USt. + 37,62'), perRate).review_required).toBe(true);
    expect(checkEvidence(taxOf('56.87', '275,00 19,25 + 37,62'), perRate).review_required).toBe(true);
  });

  it('a snippet with " + " printed on the page as it is is read as one snippet, not a sum', () => {
    const literal = documentOf(plainPage('Fees 10.00 + 2.50 handling'));
    expect(checkEvidence(taxOf('2.50', '10.00 + 2.50'), literal).review_reasons).toEqual([]);
  });
});
