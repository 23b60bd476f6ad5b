import { describe, expect, it } from 'vitest';
import type { ExtractionResult, PositionedText, PositionedWord } from '../../../../domain/extraction.js';
import { extractOffline } from '../../../../adapters/extraction/offline-engine.js';
import { reviewExtraction } from '../../../../adapters/extraction/extraction-runner.js';
import { EXTRACTION_RULES } from '../../../../adapters/providers/llm/extraction-prompt.js';
import { documentOf, layoutPage, plainPage, type Row } from '../../../helpers/positioned-text.js';

/**
 * Issue 29, session 15 (s15-recv): an Argentine (AFIP/ARCA) invoice's header and tax. The buyer is printed in its own
 * block under the heading "DATOS DEL RECEPTOR" ("CUIT: …" and "Razón Social: …" or "Apellido y Nombre / Razón Social:
 * …"), the seller's block above it; the tax may be printed only per rate ("IVA 21%: …", "IVA 10,5%: …") with no total
 * tax line; the copy mark over the title ("ORIGINAL", "DUPLICADO", "TRIPLICADO") names no party. Pages written from the
 * layout of the tune part's ARCA prints (es-arca-*), with values of their own.
 */
const FIELDS = ['seller_name', 'buyer_name', 'seller_vat_id', 'buyer_vat_id', 'subtotal', 'tax', 'total'];
const page = (...rows: Row[]) => documentOf(layoutPage(rows));
const plain = (...lines: string[]) => documentOf(plainPage(lines.join('\n')));
/** A text layer read column by column: each entry one line of text, in this order, a blank line after it, its words at (x, y). */
function columnPage(entries: readonly [x: number, y: number, text: string][]): PositionedText {
  const words: PositionedWord[] = [];
  const lines: string[] = [];
  let offset = 0;
  for (const [x, y, text] of entries) {
    for (const m of text.matchAll(/\S+/gu))
      words.push({
        text: m[0],
        offset: offset + m.index,
        box: { x0: x + m.index * 6, y0: y, x1: x + (m.index + m[0].length) * 6, y1: y + 10 },
      });
    lines.push(text, '');
    offset += text.length + 2;
  }
  return documentOf({ page: 1, text: lines.join('\n'), words, source: 'text_layer', width: 612, height: 792 });
}
const flagged = (r: ExtractionResult) => [...new Set((r.flags ?? []).map((f) => f.field))].sort();
const values = (r: ExtractionResult) => Object.fromEntries(FIELDS.map((f) => [f, r.fields[f]?.value ?? null]));

const header = (mark: string, seller: Row[]): Row[] => [[[270, mark]], null, [[360, 'FACTURA']], ...seller, null];
const SELLER: Row[] = [
  [
    [40, 'Razón Social: Papelera Norte S.A.'],
    [360, 'Punto de Venta: 0003 Comp. Nro: 00000871'],
  ],
  [
    [40, 'Domicilio Comercial: Av. Corrientes 1234'],
    [360, 'Fecha de Emisión: 01/07/2026'],
  ],
  [
    [40, 'Condición frente al IVA: IVA Responsable Inscripto'],
    [360, 'CUIT: 20-00000000-1'],
  ],
];
const receptor = (nameLabel: string, name: string): Row[] => [
  [[40, 'DATOS DEL RECEPTOR']],
  null,
  [
    [40, 'CUIT: 30-71234567-1'],
    [330, `${nameLabel}: ${name}`],
  ],
  [
    [40, 'Condición IVA: IVA Responsable Inscripto'],
    [330, 'Domicilio Comercial: Belgrano 55'],
  ],
  [[40, 'Condición de venta: Contado']],
  null,
];
const TABLE: Row[] = [
  [
    [40, 'Producto / Servicio'],
    [250, 'Cantidad'],
    [330, 'Precio Unit.'],
    [430, 'Subtotal'],
  ],
  [
    [40, 'Resma A4 75g'],
    [250, '10,00'],
    [330, '$2.100,00'],
    [430, '$21.000,00'],
  ],
  null,
];
const totals = (rows: [string, string][]): Row[] => rows.map(([label, value]) => [[360, `${label}: ${value}`]]);
const TWO_RATES = totals([
  ['Importe Neto Gravado', '$21.000,00'],
  ['IVA 21%', '$2.310,00'],
  ['IVA 10,5%', '$1.050,00'],
  ['Importe Otros Tributos', '$0,00'],
  ['Importe Total', '$24.360,00'],
]);

describe('session 15: the buyer block "DATOS DEL RECEPTOR"', () => {
  it("reads the buyer's name and CUIT from the block, the seller's CUIT from above it, unswapped and unflagged", () => {
    const doc = page(
      ...header('ORIGINAL', SELLER),
      ...receptor('Razón Social', 'Distribuidora El Faro S.R.L.'),
      ...TABLE,
    );
    const r = extractOffline(doc, FIELDS);
    expect(r.fields.buyer_name!.value).toBe('Distribuidora El Faro S.R.L.');
    expect(r.fields.buyer_vat_id!.value).toBe('30712345671');
    expect(r.fields.seller_vat_id!.value).toBe('20000000001');
    expect(r.fields.seller_name!.value).not.toBe('Distribuidora El Faro S.R.L.');
    expect(flagged(r).filter((f) => /buyer|seller_vat/u.test(f))).toEqual([]);
    const reasons = reviewExtraction(r, doc).reasons.join('\n');
    expect(reasons).not.toMatch(/buyer_name .* was not read from a party's block/u);
  });

  it('reads "Apellido y Nombre / Razón Social:" as the name\'s label', () => {
    const doc = page(
      ...header('ORIGINAL', SELLER),
      ...receptor('Apellido y Nombre / Razón Social', 'Pérez Juan Carlos'),
      ...TABLE,
    );
    expect(extractOffline(doc, FIELDS).fields.buyer_name!.value).toBe('Pérez Juan Carlos');
  });

  it("on a text layer read column by column (the block's right column after its left one, each line apart)", () => {
    const doc = columnPage([
      [270, 40, 'ORIGINAL'],
      [40, 70, 'Condición frente al IVA: IVA Responsable Inscripto'],
      [360, 56, 'FACTURA'],
      [360, 70, 'Punto de Venta: 0003 Comp. Nro: 00000871'],
      [360, 84, 'Fecha de Emisión: 01/07/2026'],
      [360, 112, 'CUIT: 20-00000000-1'],
      [40, 168, 'DATOS DEL RECEPTOR'],
      [40, 184, 'CUIT: 30-71234567-1'],
      [40, 198, 'Condición IVA: IVA Responsable Inscripto'],
      [40, 212, 'Condición de venta: Otra'],
      [300, 184, 'Razón Social: Distribuidora El Faro S.R.L.'],
      [300, 198, 'Domicilio Comercial:'],
      [40, 260, 'Producto / Servicio Cantidad Precio Unit. Subtotal'],
    ]);
    const r = extractOffline(doc, FIELDS);
    expect(r.fields.buyer_name!.value).toBe('Distribuidora El Faro S.R.L.');
    expect(r.fields.buyer_vat_id!.value).toBe('30712345671');
    expect(r.fields.seller_vat_id!.value).toBe('20000000001');
    const reasons = reviewExtraction(r, doc).reasons.join('\n');
    expect(reasons).not.toMatch(/buyer_name .* was not read from a party's block/u);
  });

  it('on a page without word positions too', () => {
    const r = extractOffline(
      plain(
        'ORIGINAL',
        'FACTURA',
        'Punto de Venta: 0003 Comp. Nro: 00000871',
        'CUIT: 20-00000000-1',
        '',
        'DATOS DEL RECEPTOR',
        '',
        'CUIT: 30-71234567-1 Razón Social: Distribuidora El Faro S.R.L.',
        'Condición IVA: IVA Responsable Inscripto',
      ),
      FIELDS,
    );
    expect(r.fields.buyer_name!.value).toBe('Distribuidora El Faro S.R.L.');
  });

  it('a block whose CUIT is "Consumidor Final" gives no buyer id, and the seller\'s CUIT stays the seller\'s', () => {
    const rows = receptor('Razón Social', 'Comercial del Sur S.A.');
    rows[2] = [
      [40, 'CUIT: Consumidor Final'],
      [330, 'Razón Social: Comercial del Sur S.A.'],
    ];
    const r = extractOffline(page(...header('ORIGINAL', SELLER), ...rows, ...TABLE), FIELDS);
    expect(r.fields.buyer_name!.value).toBe('Comercial del Sur S.A.');
    expect(r.fields.buyer_vat_id!.value).toBeNull();
    expect(r.fields.seller_vat_id!.value).toBe('20000000001');
  });
});

describe('session 15: the tax printed only per rate ("IVA 21%", "IVA 10,5%")', () => {
  /** A plain page of an Argentine print's totals: the net amount, these rows, the total. */
  const totalsPage = (rows: string[], total: string, net = '$21.000,00') =>
    extractOffline(
      plain('CUIT: 20-00000000-1', `Importe Neto Gravado: ${net}`, ...rows, `Importe Total: ${total}`),
      FIELDS,
    );

  it('is the sum of the rate rows when subtotal + that sum = total, unflagged', () => {
    const doc = page(...header('ORIGINAL', SELLER), ...receptor('Razón Social', 'X S.A.'), ...TABLE, ...TWO_RATES);
    const r = extractOffline(doc, FIELDS);
    expect(values(r)).toMatchObject({ subtotal: '21000.00', tax: '3360.00', total: '24360.00' });
    expect(flagged(r)).not.toContain('tax');
  });

  it('on a plain page too', () => {
    const r = totalsPage(['IVA 21%: $2.310,00', 'IVA 10,5%: $1.050,00'], '$24.360,00');
    expect(r.fields.tax!.value).toBe('3360.00');
    expect(flagged(r)).not.toContain('tax');
  });

  it('is flagged when subtotal + the sum is not the total (another tax, or a row misread)', () => {
    const r = totalsPage(['IVA 21%: $2.310,00', 'IVA 10,5%: $1.050,00', 'Percepción IIBB: $420,00'], '$24.780,00');
    expect(r.fields.tax!.value).toBe('3360.00');
    expect(flagged(r)).toContain('tax');
  });

  it('one rate row alone is the tax as before', () => {
    const r = totalsPage(['IVA 21%: $2.211,30'], '$12.741,30', '$10.530,00');
    expect(r.fields.tax!.value).toBe('2211.30');
    expect(flagged(r)).not.toContain('tax');
  });
});

describe('session 15: a copy mark (ORIGINAL / DUPLICADO / TRIPLICADO) is never a party name', () => {
  const noSellerName: Row[] = [
    [
      [40, 'Condición frente al IVA: IVA Responsable Inscripto'],
      [360, 'Punto de Venta: 0003 Comp. Nro: 00000871'],
    ],
    [[360, 'Fecha de Emisión: 01/07/2026']],
    [
      [300, 'COD. 01'],
      [360, 'CUIT: 20-00000000-1'],
    ],
  ];
  for (const mark of ['ORIGINAL', 'DUPLICADO', 'TRIPLICADO', 'Original', 'COPIA'])
    it(`"${mark}" over the title is not the seller's name`, () => {
      const doc = page(...header(mark, noSellerName), ...receptor('Razón Social', 'Distribuidora El Faro S.R.L.'));
      const r = extractOffline(doc, FIELDS);
      expect(r.fields.seller_name!.value).toBeNull();
      expect(r.fields.buyer_name!.value).toBe('Distribuidora El Faro S.R.L.');
    });

  it("the document checks flag a copy mark given as a party's name (any engine)", () => {
    const doc = page(...header('ORIGINAL', noSellerName), ...receptor('Razón Social', 'X S.A.'));
    const r = extractOffline(doc, FIELDS);
    const given: ExtractionResult = {
      ...r,
      fields: {
        ...r.fields,
        seller_name: { value: 'ORIGINAL', evidence: { page: 1, snippet: 'ORIGINAL', box: null }, confidence: 0.9 },
      },
    };
    expect(reviewExtraction(given, doc).reasons.join('\n')).toMatch(/seller_name "ORIGINAL" is a copy mark/u);
  });
});

describe('session 15: the language model gets the same rules', () => {
  it("names the buyer block, its name and CUIT labels, the seller's CUIT above it, and the copy marks", () => {
    for (const words of ['DATOS DEL RECEPTOR', 'Razón Social:', 'Apellido y Nombre / Razón Social:', 'CUIT:'])
      expect(EXTRACTION_RULES).toContain(words);
    expect(EXTRACTION_RULES).toMatch(/the CUIT above that block is the seller's/u);
    for (const mark of ['ORIGINAL', 'DUPLICADO', 'TRIPLICADO']) expect(EXTRACTION_RULES).toContain(mark);
    expect(EXTRACTION_RULES).toMatch(/never a party's name/u);
  });
});

/** A regular name is still read as before. */
describe('session 15: guards', () => {
  it('a company named "Original Foods Ltd" at the head of an English invoice is still its seller', () => {
    const doc: PositionedText = page(
      [[50, 'Original Foods Ltd']],
      [[50, '12 High Street, London SW1A 1AA']],
      null,
      [[50, 'INVOICE']],
      [[50, 'Invoice No: 1001']],
      [[50, 'Bill to: Acme Corp']],
      [[50, 'Total: £120.00']],
    );
    expect(extractOffline(doc, FIELDS).fields.seller_name!.value).toBe('Original Foods Ltd');
  });
});
