/**
 * Document field extraction (`flow-extract`, spec sections 2 and 8; issue 17): the shapes every part shares. A
 * source becomes positioned text (adapters/extraction/source-text.ts), an engine behind one interface reads field
 * values and line items from it, each non-null value with the evidence it came from
 * (adapters/extraction/offline-engine.ts, adapters/providers/llm/extraction.provider.ts), the platform checks that
 * evidence against the source itself (extraction-evidence.ts), and the results are exported as XLSX, CSV and JSON.
 *
 * Pure types and constants: no I/O.
 */

/**
 * A box on a page, in PDF points from the page's top-left corner (images and OCR: pixels converted to points at the
 * image's resolution, 300 dpi when it states none; adapters/extraction/source-text.ts).
 */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The smallest box holding every box of `boxes`; null when there is none. */
export function unionBox(boxes: readonly Box[]): Box | null {
  if (boxes.length === 0) return null;
  return {
    x0: Math.min(...boxes.map((b) => b.x0)),
    y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)),
    y1: Math.max(...boxes.map((b) => b.y1)),
  };
}

/** A word's box whose centre lies on the rows of `box` (its vertical span, half a point of slack). */
export const onRows = (b: Box, box: Box): boolean => {
  const cy = (b.y0 + b.y1) / 2;
  return cy >= box.y0 - 0.5 && cy <= box.y1 + 0.5;
};

/** A word's box whose centre lies inside `box` (half a point of slack). */
export const centreIn = (b: Box, box: Box): boolean => {
  const cx = (b.x0 + b.x1) / 2;
  return onRows(b, box) && cx >= box.x0 - 0.5 && cx <= box.x1 + 0.5;
};

/** The text line holding offset `at` of `text`: its start, its end (before its newline) and its text. */
export function lineAround(text: string, at: number): { start: number; end: number; text: string } {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const newline = text.indexOf('\n', at);
  const end = newline < 0 ? text.length : newline;
  return { start, end, text: text.slice(start, end) };
}

/** A value as a review reason quotes it: at most 60 characters, cut with an ellipsis. */
export function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

/**
 * A word the OCR read with a confidence under this (Tesseract's 0–100) is one it was unsure of: a value holding such a
 * word is flagged (domain/extraction-checks.ts, check 14). Tesseract gives words it reads right mostly 85–96; a misread
 * digit or letter mostly under 60.
 */
export const OCR_DOUBT = 60;

/** The lines of a page's text, each with the index of its first character in that text. */
export function textLines(text: string): { text: string; start: number }[] {
  let start = 0;
  return text.split('\n').map((line) => {
    const at = start;
    start += line.length + 1;
    return { text: line, start: at };
  });
}

/** One word of a page with where it is; `offset` is its first character's index in the page's `text`. */
export interface PositionedWord {
  text: string;
  box: Box;
  offset: number;
  /**
   * The OCR's confidence in the word, 0–100 (Tesseract's word confidence), when it was less than certain; absent for
   * a text layer's words and a word read with full confidence.
   */
  confidence?: number;
}

/** How a page's text was obtained. */
export type PageTextSource = 'text_layer' | 'ocr' | 'plain_text';

export interface PageText {
  /** 1-based. */
  page: number;
  /**
   * The page's text in reading order: words separated by single spaces, lines by `\n`, blocks (paragraphs, table
   * rows) by a blank line where the source shows one. Every word of `words` is in it at its `offset`.
   */
  text: string;
  words: PositionedWord[];
  source: PageTextSource;
  /** Page size in points (plain text: 0 × 0, and words have zero boxes). */
  width: number;
  height: number;
}

/** A source document as text with positions, after the length cap. */
export interface PositionedText {
  pages: PageText[];
  /** True when the text was cut at EXTRACTION_LIMITS.maxTextChars (the later pages or lines are not read). */
  truncated: boolean;
  /** Human-readable notes for the result's `warnings` (e.g. the cap, a page that could not be read). */
  warnings: string[];
  /** The source's e-invoice XML (embedded in the PDF, or the source itself), when it has one. */
  einvoice?: EInvoiceXml;
}

/** What the extraction limits are (spec section 8: 25 credits per page; "long text capped"). */
export const EXTRACTION_LIMITS = {
  /** Characters of text read per document; the rest is ignored and a warning says from where. */
  maxTextChars: 200_000,
  /** Line items read per document. */
  maxLineItems: 500,
  /** Characters of a string value. */
  maxValueChars: 2_000,
} as const;

/**
 * Where a value was read. On a page (`source` absent or `'page'`): the page, the exact snippet of the page's text it
 * came from, and where that lies. In an e-invoice's XML (`source: 'xml'`, issue 29): the element's `path` in
 * `PositionedText.einvoice`, its text as the snippet, the XML's `file` name; `page` and `box` are null (the XML is no
 * page).
 */
export interface Evidence {
  /** 1-based page; null for a value read from XML. */
  page: number | null;
  /** Text of the source as the engine quotes it (the check compares it with whitespace normalised). */
  snippet: string;
  /** The snippet's box on the page when known (engines reading positioned words know it). */
  box: Box | null;
  /** Where the snippet is: a page's text (the default) or an element of the document's e-invoice XML. */
  source?: 'page' | 'xml';
  /**
   * `source: 'xml'`: the element's path (XmlElementText.path). A value that is the sum of several elements (a
   * FatturaPA's subtotal and tax, summed over its VAT summaries) names their paths joined by ` + `, and its snippet
   * is their texts joined the same way.
   */
  path?: string;
  /** `source: 'xml'`: the XML file's name (EInvoiceXml.file). */
  file?: string | null;
}

/**
 * One element of an XML document with text of its own and no child elements: its path, each step the element's
 * qualified name as written, with `[n]` (1-based) when it is not the first of its name under its parent
 * (`/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:IncludedSupplyChainTradeLineItem[2]/…`), and its
 * text, trimmed. A syntax may also list an element whose value is made of its children's (a FatturaPA's IdFiscaleIVA,
 * IdPaese + IdCodice; its Anagrafica, Nome + Cognome): its text is theirs, in document order, joined by a space.
 */
export interface XmlElementText {
  path: string;
  text: string;
}

/**
 * The syntaxes of structured invoices the platform reads (UN/CEFACT CII incl. ZUGFeRD 1.0's, OASIS UBL 2.x, the
 * Italian FatturaPA 1.x).
 */
export type EInvoiceSyntax = 'cii' | 'ubl' | 'fatturapa';

/**
 * A structured invoice (e-invoice) that came with a source (issue 29): embedded in a PDF (Factur-X, ZUGFeRD,
 * XRechnung…) or the uploaded source itself. Its leaf elements, against which evidence of `source: 'xml'` is checked.
 */
export interface EInvoiceXml {
  /** The attachment's name in the PDF (`factur-x.xml`); null when the uploaded source is the XML. */
  file: string | null;
  syntax: EInvoiceSyntax;
  /** The XML itself (as Unicode text), for the engine that reads it. */
  text: string;
  elements: XmlElementText[];
}

/**
 * A value as engines give it: text exactly as normalised by its kind (dates `YYYY-MM-DD`, amounts and numbers as
 * plain decimal strings with `.` and no grouping, e.g. `"1234.50"`, currencies ISO 4217 codes, other text as read),
 * or null when the document does not give it; a non-null value carries evidence.
 */
export interface ExtractedValue {
  value: string | null;
  evidence: Evidence | null;
  /** The engine's own confidence in [0, 1], informative only: the platform's evidence check decides review. */
  confidence: number | null;
}

/** The columns of a line item (the Line items worksheet); any of them may be null. */
export const LINE_ITEM_COLUMNS = ['description', 'quantity', 'unit_price', 'amount'] as const;
export type LineItemColumn = (typeof LINE_ITEM_COLUMNS)[number];
export type LineItem = Record<LineItemColumn, ExtractedValue>;

export interface ExtractionResult {
  /** Every requested field, in request order; missing values are `{ value: null, evidence: null }`. */
  fields: Record<string, ExtractedValue>;
  items: LineItem[];
  /** Notes of the engine (e.g. more line items than EXTRACTION_LIMITS.maxLineItems). */
  warnings: string[];
  /**
   * Values the engine itself says need review, and why (e.g. an e-invoice's XML value that its PDF's visible text
   * does not show): each names a field (`item` null) or a line item's column. The evidence check flags them.
   */
  flags?: EngineFlag[];
}

/** A value an engine says needs review: a field by name, or a line item's column with its 0-based index. */
export interface EngineFlag {
  field: string;
  item: number | null;
  reason: string;
}

/** What an engine is asked: one document's positioned text, the field names (and the client's instructions). */
export interface ExtractionRequest {
  document: PositionedText;
  fields: readonly string[];
  instructions?: string;
  signal?: AbortSignal;
}

/** Field value kinds the value grammars and the evidence check know; a field's kind comes from its name. */
export type ValueKind = 'date' | 'amount' | 'currency' | 'tax_id' | 'email' | 'iban' | 'number' | 'text';

/**
 * The kind of a field from its name (snake_case or camelCase, any case): what its value is normalised to and how its
 * evidence is checked. Anything not recognised is `text`.
 */
export function fieldKind(name: string): ValueKind {
  const n = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  const has = (...words: string[]) => words.some((w) => new RegExp(`(^|_)${w}(_|$)`).test(n));
  if (has('iban')) return 'iban';
  if (has('email', 'e_mail', 'mail')) return 'email';
  if (/(^|_)(vat|tax|gst)_(id|number|no|reg|registration)(_|$)/.test(n) || has('tin', 'ein', 'abn', 'siret', 'siren'))
    return 'tax_id';
  if (has('currency', 'ccy')) return 'currency';
  // Before dates: `amount_due` is an amount, `due_date` a date.
  if (
    has('total', 'subtotal', 'amount', 'price', 'tax', 'vat', 'balance', 'fee', 'cost', 'discount', 'shipping', 'paid')
  )
    return 'amount';
  if (has('date', 'dated', 'due', 'issued', 'day')) return 'date';
  if (has('quantity', 'qty', 'count', 'pages', 'units')) return 'number';
  return 'text';
}

/**
 * Column headers of line-item tables in English, German, French, Spanish, Italian and Dutch (and field names a client
 * uses for the columns), for engines reading tables.
 */
export const LINE_ITEM_HEADERS: Readonly<Record<LineItemColumn, readonly string[]>> = {
  description: [
    'description',
    'item',
    'items',
    'product',
    'service',
    'services',
    'article',
    'details',
    'designation',
    'bezeichnung',
    'beschreibung',
    'artikel',
    'artikelbezeichnung',
    'artikelbeschreibung',
    'leistungsbeschreibung',
    'positionsbezeichnung',
    'leistung',
    'leistungen',
    'produkt',
    'text',
    'désignation',
    'libellé',
    'libelle',
    'produit',
    'prestation',
    'descripción',
    'descripcion',
    'concepto',
    'artículo',
    'producto',
    'descrizione',
    'articolo',
    'prodotto',
    'servizio',
    'omschrijving',
    'dienst',
    // A consultant's statement: the fees' and the expenses' tables (the invoice package's "Activity" / "Expense").
    'activity',
    'activité',
    'aktivität',
    'tätigkeit',
    'expense',
    'dépense',
    'auslage',
  ],
  quantity: [
    'qty',
    'quantity',
    'qté',
    'qte',
    'quantité',
    'quantite',
    'nombre',
    'nb',
    'units',
    'hours',
    'count',
    'menge',
    'anzahl',
    'anz',
    'stück',
    'stk',
    'stunden',
    'cantidad',
    'cant',
    'uds',
    'unidades',
    'quantità',
    'qtà',
    'q.tà',
    'quantita',
    'qta',
    'aantal',
    'hoeveelheid',
  ],
  unit_price: [
    'unit price',
    'price',
    'rate',
    'unit cost',
    'price each',
    'each',
    'einzelpreis',
    'e-preis',
    'ep',
    'stückpreis',
    'preis',
    'preis/einheit',
    'nettopreis',
    'einzel',
    'prix unitaire',
    'prix unitaire ht',
    'p.u. ht',
    'pu ht',
    'p.u.',
    'pu',
    'prix',
    'tarif',
    'precio unitario',
    // A price header whose second word is "unit" cut short ("Precio Unit."): one name, or the "Unit." half is read as a
    // column of its own that takes the right-aligned prices under it.
    'precio unit.',
    'precio unit',
    'prix unit.',
    'prix unit',
    'prezzo unit.',
    'prezzo unit',
    'precio',
    'p. unitario',
    'importe unitario',
    'prezzo unitario',
    'prezzo',
    'costo unitario',
    'stukprijs',
    'eenheidsprijs',
    'prijs per eenheid',
    'prijs',
  ],
  amount: [
    'amount',
    'total',
    'line total',
    'net',
    'sum',
    'betrag',
    'gesamt',
    'gesamtpreis',
    'summe',
    'netto',
    'gesamtbetrag',
    'entgelt',
    'nettowert',
    'montant',
    'montant ht',
    'total ht',
    'prix total',
    'importe',
    // A web shop's line total beside its net unit price ("Precio Unitario sin IVA … Precio Total"): not a price.
    'precio total',
    'subtotal',
    'importo',
    'totale',
    'prezzo totale',
    'bedrag',
    'totaal',
    'subtotaal',
  ],
};

/** Other columns a line-item table has (a tax rate, a unit, a position number): read as no value of the item. */
export const LINE_ITEM_OTHER_HEADERS: readonly string[] = [
  'vat',
  'vat %',
  'tax',
  'taxes',
  'tax rate',
  'gst',
  'mwst',
  'mwst.',
  'ust',
  'ust.',
  'steuer',
  'tva',
  'iva',
  'btw',
  '%',
  'unit',
  'einheit',
  'me',
  'vke',
  'vke/geb',
  'unité',
  'unidad',
  'unità',
  'eenheid',
  'pos',
  'pos.',
  'position',
  'no',
  'nr',
  'nº',
  'n°',
  '#',
  'code',
  'sku',
  'art.-nr',
  'artikelnummer',
  'réf',
  'réf.',
  'référence',
  'ref',
  'código',
  'codice',
  'cod.',
  'cod. articolo',
  'codice articolo',
  'um',
  'u.m.',
  'artikelnr',
  // An expense table's foreign amount's currency and its conversion rate ("Currency Amount Factor Euro").
  'currency',
  'währung',
  'devise',
  'factor',
  'faktor',
  'facteur',
  'discount',
  'rabatt',
  'remise',
  'descuento',
  'sconto',
  'korting',
  'rem',
  'rem.',
  'gtin',
  'ean',
  'u. medida',
  'unidad de medida',
  'bonif.',
  'bonificación',
  'alíc. iva',
  'alícuota',
  // A web shop's item reference and per-line discount ("Referencia", "Descuento total": the discount, not the total).
  'referencia',
  'descuento total',
];

/** What a `flow-extract` job reads, as its quote resolved it (a saved workflow's settings take precedence). */
export interface JobExtraction {
  fields: string[];
  instructions: string | null;
  /** The saved workflow the request named, and the revision that was used; null without one. */
  workflow_id: string | null;
  workflow_revision: number | null;
}
