import { describe, expect, it } from 'vitest';
import { extractionToJsonValue, type ExtractionExportInput } from '../../../adapters/documents/extraction-exports.js';
import {
  applyCorrections,
  exportInputFromJson,
  reviewedFileName,
  type StoredCorrection,
} from '../../../adapters/documents/extraction-review.js';
import type { ExtractedValue } from '../../../domain/extraction.js';

const read = (v: string | null, snippet = `snippet ${v}`): ExtractedValue => ({
  value: v,
  evidence: v === null ? null : { page: 1, snippet, box: { x0: 1, y0: 2, x1: 3, y1: 4 } },
  confidence: null,
});

/** Two documents: the first with a flagged total and a flagged line-item amount, the second clean. */
const input = (): ExtractionExportInput => ({
  fields: ['invoice_number', 'total', 'currency'],
  documents: [
    {
      document: 'a.pdf',
      upload_id: 'upl_a',
      pages: 1,
      result: {
        fields: { invoice_number: read('INV-1'), total: read('120.00', 'Total 12.00'), currency: read(null) },
        items: [
          { description: read('Widget'), quantity: read('1'), unit_price: read('12'), amount: read('99', 'Amount 12') },
        ],
        warnings: ['a warning'],
      },
      check: {
        review_required: true,
        reasons: ['total: not in its snippet', 'item 1 amount: not in its snippet'],
        flagged: [
          { field: 'total', reason: 'total: not in its snippet' },
          { item: 0, column: 'amount', reason: 'item 1 amount: not in its snippet' },
        ],
      },
    },
    {
      document: 'b.pdf',
      upload_id: null,
      pages: 2,
      result: {
        fields: { invoice_number: read('INV-2'), total: read('5'), currency: read('EUR') },
        items: [],
        warnings: [],
      },
      check: { review_required: false, reasons: [], flagged: [] },
    },
  ],
});
const correction = (
  c: Partial<StoredCorrection> & Pick<StoredCorrection, 'document' | 'field' | 'value'>,
): StoredCorrection => ({
  previous_value: null,
  revision: 1,
  corrected_by: 'r@example.com',
  corrected_at: '2026-11-24T00:00:00.000Z',
  ...c,
});

describe('extraction review', () => {
  it('keeps XML evidence of an e-invoice value through the JSON result; a result written before it (no source) is page evidence', () => {
    const xml: ExtractedValue = {
      value: 'F-1',
      evidence: { page: null, snippet: 'F-1', box: null, source: 'xml', path: '/Invoice/cbc:ID', file: null },
      confidence: null,
    };
    const withXml = input();
    withXml.documents[1]!.result.fields['invoice_number'] = xml;
    expect(
      exportInputFromJson(extractionToJsonValue(withXml), withXml.fields).documents[1]!.result.fields['invoice_number'],
    ).toEqual(xml);
    const old = JSON.parse(
      JSON.stringify(extractionToJsonValue(input()), (k, v: unknown) =>
        k === 'source' || k === 'path' || k === 'file' ? undefined : v,
      ),
    );
    expect(exportInputFromJson(old, input().fields).documents[0]!.result.fields['invoice_number']).toEqual(
      read('INV-1'),
    );
  });

  it('reads a JSON result back into the export input it was made from (a result written before corrections too)', () => {
    const json = extractionToJsonValue(input());
    expect(exportInputFromJson(json, input().fields)).toEqual({
      ...input(),
      documents: input().documents.map((d) => ({ ...d, corrections: [] })),
    });
    const legacy = { documents: json.documents.map(({ corrections: _c, ...d }) => d) };
    expect(exportInputFromJson(legacy, input().fields).documents[0]!.corrections).toEqual([]);
    expect(() => exportInputFromJson({ documents: [{ document: 1 }] }, ['total'])).toThrow();
  });

  it("a corrected field takes the reviewer's value without evidence and is no longer flagged; review ends when nothing is flagged", () => {
    const once = applyCorrections(input(), [
      correction({ document: 0, field: 'total', previous_value: '120.00', value: '12' }),
    ]);
    const a = once.documents[0]!;
    expect(a.result.fields['total']).toEqual({ value: '12', evidence: null, confidence: null });
    expect(a.check).toEqual({
      review_required: true,
      reasons: ['item 1 amount: not in its snippet'],
      flagged: [{ item: 0, column: 'amount', reason: 'item 1 amount: not in its snippet' }],
    });
    expect(a.corrections).toEqual([
      {
        field: 'total',
        previous_value: '120.00',
        value: '12',
        revision: 1,
        corrected_by: 'r@example.com',
        corrected_at: '2026-11-24T00:00:00.000Z',
      },
    ]);
    // The input is not changed; the other document neither.
    expect(input().documents[0]!.result.fields['total']!.value).toBe('120.00');
    expect(once.documents[1]).toEqual({ ...input().documents[1], corrections: [] });

    const clean = applyCorrections(
      {
        ...input(),
        documents: [
          {
            ...input().documents[0]!,
            check: { review_required: true, reasons: ['total: x'], flagged: [{ field: 'total', reason: 'total: x' }] },
          },
        ],
      },
      [correction({ document: 0, field: 'total', value: '120.00' })],
    );
    expect(clean.documents[0]!.check).toEqual({ review_required: false, reasons: [], flagged: [] });
    const json = extractionToJsonValue(clean);
    expect(json.documents[0]).toMatchObject({
      review_required: false,
      fields: { total: '120.00' },
      evidence: { fields: { total: { snippet: null, flagged: false } } },
    });
    expect(() => applyCorrections(input(), [correction({ document: 2, field: 'total', value: '1' })])).toThrow(
      RangeError,
    );
  });

  it('names the reviewed files after the originals', () => {
    expect(
      ['inv-extracted.xlsx', 'inv-extracted-csv.zip', 'inv-extracted.json', 'a-extracted-b-extracted.json'].map(
        reviewedFileName,
      ),
    ).toEqual(['inv-reviewed.xlsx', 'inv-reviewed-csv.zip', 'inv-reviewed.json', 'a-extracted-b-reviewed.json']);
  });
});
