import { PassThrough } from 'node:stream';
import archiver from 'archiver';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import { z } from 'zod';
import {
  fieldKind,
  LINE_ITEM_COLUMNS,
  type Evidence,
  type ExtractedValue,
  type ExtractionResult,
  type LineItem,
  type LineItemColumn,
} from '../../domain/extraction.js';
import type { ReviewFlag } from '../../domain/extraction-checks.js';
import { lineEvidence } from '../../domain/extraction-evidence.js';
import { PLAIN_DECIMAL } from '../../domain/extraction-values.js';

/**
 * The results of `flow-extract` (issue 17, section 3; spec section 2: one document row per input document, line
 * items in a separate worksheet, XLSX, CSV and JSON, missing values are null). Functions of the per-document results
 * alone: the same input gives the same content (JSON and the CSV ZIP, given the same `date`, the same bytes; the XLSX
 * package dates its parts when written), so a review correction simply regenerates them as new files.
 *
 * Three result files per job (docs/processing.md, "Field extraction (flow-extract)", Exports):
 * - `<base>.xlsx`: sheets Documents, Line items, Evidence, Corrections;
 * - `<base>-csv.zip`: one CSV per sheet (documents.csv, line-items.csv, evidence.csv, corrections.csv); RFC 4180, UTF-8 with a BOM,
 *   CRLF, formula cells defused;
 * - `<base>.json`: ExtractionJson (its JSON Schema: extractionJsonSchema).
 */

// ---------------------------------------------------------------------------------------------------------------
// Input

/**
 * The outcome of the platform's checks for one document: the evidence check (domain/extraction-evidence.ts) and the
 * document checks (domain/extraction-checks.ts, `mergeReview`).
 */
export interface EvidenceCheckOutcome {
  review_required: boolean;
  /** Why review is required, for the reader, each once (e.g. "total: the snippet is not in the source"). */
  reasons: string[];
  /**
   * The values that failed a check: a field by name, or a line item's column by its 0-based index in `items`; one
   * entry per value and reason (a value may fail several checks: the exports join its reasons with "; ").
   */
  flagged: FlaggedValue[];
}
export type FlaggedValue = ReviewFlag;

/** One input document's extraction. */
export interface ExtractionDocumentResult {
  /** The input document's name (its upload's file name). */
  document: string;
  upload_id: string | null;
  pages: number;
  result: ExtractionResult;
  check: EvidenceCheckOutcome;
  /** Review corrections applied to this document, oldest first (none in a job's first exports). */
  corrections?: readonly ExtractionCorrection[];
}

/** A reviewer's correction of a scalar field (docs/processing.md "Review corrections"), as the exports list it. */
export interface ExtractionCorrection {
  field: string;
  /** The value before this correction (the engine's, or an earlier correction's). */
  previous_value: string | null;
  value: string | null;
  /** The review revision that made it (1 for the first regenerated exports). */
  revision: number;
  /** The reviewer's e-mail address. */
  corrected_by: string;
  /** ISO 8601. */
  corrected_at: string;
}

export interface ExtractionExportInput {
  /** The requested field names, in request order: the Documents sheet's columns and the JSON `fields` order. */
  fields: readonly string[];
  /** In input order: one row per input document. */
  documents: readonly ExtractionDocumentResult[];
}

// ---------------------------------------------------------------------------------------------------------------
// Shared rows

const DOCUMENT_COLUMNS = ['document', 'pages', 'review_required', 'review_reasons'] as const;
const ITEM_COLUMNS = ['document', 'line', ...LINE_ITEM_COLUMNS] as const;
/** The box columns, then `source` and `path`, were added after the first eight (issue 29): existing readers keep their column positions. */
const EVIDENCE_COLUMNS = [
  'document',
  'field',
  'line',
  'value',
  'page',
  'snippet',
  'flagged',
  'reason',
  'box_x0',
  'box_y0',
  'box_x1',
  'box_y1',
  'source',
  'path',
] as const;
/** The `field` of an Evidence row that is a whole line item (its cells' union), beside the rows of its cells. */
export const LINE_EVIDENCE_FIELD = 'line_item';
const CORRECTION_COLUMNS = [
  'document',
  'field',
  'revision',
  'previous_value',
  'value',
  'corrected_by',
  'corrected_at',
] as const;

/** Rows of the Corrections sheet: every correction of every document, oldest first. */
const correctionRows = (input: ExtractionExportInput): Array<Array<string | number | null>> =>
  input.documents.flatMap((d) =>
    (d.corrections ?? []).map((c) => [
      d.document,
      c.field,
      c.revision,
      c.previous_value,
      c.value,
      c.corrected_by,
      c.corrected_at,
    ]),
  );

interface EvidenceRow {
  document: string;
  /** A field name, or a line-item column name when `line` is set (LINE_EVIDENCE_FIELD for the whole line). */
  field: string;
  /** 1-based line number of the Line items sheet, null for a field. */
  line: number | null;
  value: string;
  page: number | null;
  snippet: string | null;
  flagged: boolean;
  reason: string | null;
  box: Evidence['box'];
  /** `page`, or `xml` for a value read from an e-invoice's XML element (`path`, in the XML `file` when attached to a PDF). */
  source: 'page' | 'xml';
  path: string | null;
}

/** The reasons a value was flagged, joined with "; " (each once), or null when it was not. */
export function flagOf(
  flagged: readonly FlaggedValue[],
  ref: { field: string } | { item: number; column: LineItemColumn },
): string | null {
  const hits = flagged
    .filter((f) =>
      'field' in ref
        ? 'field' in f && f.field === ref.field
        : 'item' in f && f.item === ref.item && f.column === ref.column,
    )
    .map((f) => f.reason);
  return hits.length === 0 ? null : [...new Set(hits)].join('; ');
}

/** The reasons any cell of line item `item` was flagged (joined with "; ", each once), or null. */
function lineFlagOf(flagged: readonly FlaggedValue[], item: number): string | null {
  const hits = LINE_ITEM_COLUMNS.flatMap((c) =>
    flagged.filter((f) => 'item' in f && f.item === item && f.column === c).map((f) => f.reason),
  );
  return hits.length === 0 ? null : [...new Set(hits)].join('; ');
}

/** A line item's values as one text for its Evidence row: the non-null cells, in column order. */
const lineValue = (item: LineItem): string =>
  LINE_ITEM_COLUMNS.map((c) => item[c]?.value)
    .filter((v): v is string => v != null)
    .join(' | ');

const valueOf = (v: ExtractedValue | undefined): string | null => v?.value ?? null;

/**
 * Rows of the Evidence sheet: one per non-null value (fields in request order, then items line by line, each line's
 * own row, LINE_EVIDENCE_FIELD, before its cells' rows).
 */
function evidenceRows(input: ExtractionExportInput): EvidenceRow[] {
  const rows: EvidenceRow[] = [];
  for (const d of input.documents) {
    const push = (field: string, line: number | null, v: ExtractedValue | undefined, reason: string | null) => {
      if (v?.value == null) return;
      const xml = v.evidence?.source === 'xml';
      // An attached XML's element: `factur-x.xml:/rsm:CrossIndustryInvoice/…`.
      const path = xml ? `${v.evidence!.file ? `${v.evidence!.file}:` : ''}${v.evidence!.path ?? ''}` : null;
      rows.push({
        document: d.document,
        field,
        line,
        value: v.value,
        page: v.evidence?.page ?? null,
        snippet: v.evidence?.snippet ?? null,
        flagged: reason !== null,
        reason,
        box: v.evidence?.box ?? null,
        source: xml ? 'xml' : 'page',
        path,
      });
    };
    for (const f of input.fields) push(f, null, d.result.fields[f], flagOf(d.check.flagged, { field: f }));
    d.result.items.forEach((item, i) => {
      // The whole line first (where it is on the page), then its cells.
      const line = lineEvidence(item);
      if (line)
        push(
          LINE_EVIDENCE_FIELD,
          i + 1,
          { value: lineValue(item), evidence: line, confidence: null },
          lineFlagOf(d.check.flagged, i),
        );
      for (const c of LINE_ITEM_COLUMNS) push(c, i + 1, item[c], flagOf(d.check.flagged, { item: i, column: c }));
    });
  }
  return rows;
}

/** An Evidence row's cells in EVIDENCE_COLUMNS order (a box in PDF points from the page's top-left; empty without one). */
const evidenceCells = (r: EvidenceRow): Array<string | number | boolean | null> => [
  r.document,
  r.field,
  r.line,
  r.value,
  r.page,
  r.snippet,
  r.flagged,
  r.reason,
  r.box?.x0 ?? null,
  r.box?.y0 ?? null,
  r.box?.x1 ?? null,
  r.box?.y1 ?? null,
  r.source,
  r.path,
];

// ---------------------------------------------------------------------------------------------------------------
// XLSX

// eslint-disable-next-line no-control-regex -- characters XML 1.0 cannot hold are removed from cells
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
/** Excel's limit of characters in a cell. */
const CELL_MAX = 32_767;

/** Text for a cell: characters XML cannot hold removed, CR LF and CR as LF (XML reads a bare CR as LF anyway), capped. */
const xlsxText = (s: string): string => {
  const t = s.replace(NOT_XML, '').replace(/\r\n?/g, '\n');
  return t.length > CELL_MAX ? t.slice(0, CELL_MAX) : t;
};

/** A normalised value as a cell: amounts and numbers as numbers, dates as dates (UTC midnight), the rest as text. */
function xlsxValue(
  kind: ReturnType<typeof fieldKind>,
  value: string | null,
): { value: ExcelJS.CellValue; numFmt?: string } {
  if (value === null) return { value: null };
  if ((kind === 'amount' || kind === 'number') && PLAIN_DECIMAL.test(value) && value.replace(/\D/g, '').length <= 15) {
    return { value: Number(value), numFmt: kind === 'amount' ? '#,##0.00##' : 'General' };
  }
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (kind === 'date' && date) {
    const d = new Date(Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3])));
    if (d.toISOString().startsWith(value)) return { value: d, numFmt: 'yyyy-mm-dd' };
  }
  return { value: xlsxText(value) };
}

function addRow(sheet: ExcelJS.Worksheet, cells: Array<{ value: ExcelJS.CellValue; numFmt?: string }>): void {
  const row = sheet.addRow(cells.map((c) => c.value));
  cells.forEach((c, i) => {
    if (c.numFmt) row.getCell(i + 1).numFmt = c.numFmt;
  });
}

const plain = (v: ExcelJS.CellValue) => ({ value: typeof v === 'string' ? xlsxText(v) : v });

/**
 * The XLSX workbook: "Documents" (document, pages, review_required, review_reasons, then one column per requested
 * field in request order), "Line items" (document, line, description, quantity, unit_price, amount) and "Evidence"
 * (document, field, line, value, page, snippet, flagged, reason, box_x0, box_y0, box_x1, box_y1, source, path: one row per
 * value and one per line item, `line_item`), "Corrections" (document, field, revision,
 * previous_value, value, corrected_by, corrected_at: the review corrections, none in a job's first exports). Missing values are empty cells; amounts and
 * numbers are numbers, dates are dates; text is always a text cell (never a formula).
 */
export async function extractionToXlsx(input: ExtractionExportInput, options: { date?: Date } = {}): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const date = options.date ?? new Date();
  wb.creator = 'paycore flow-extract';
  wb.created = date;
  wb.modified = date;
  const header = (sheet: ExcelJS.Worksheet, names: readonly string[]) => {
    sheet.addRow(names.map(xlsxText)).font = { bold: true };
    sheet.views = [{ state: 'frozen', ySplit: 1 }];
  };

  const docs = wb.addWorksheet('Documents');
  header(docs, [...DOCUMENT_COLUMNS, ...input.fields]);
  for (const d of input.documents) {
    addRow(docs, [
      plain(d.document),
      plain(d.pages),
      plain(d.check.review_required),
      plain(d.check.reasons.join('; ')),
      ...input.fields.map((f) => xlsxValue(fieldKind(f), valueOf(d.result.fields[f]))),
    ]);
  }

  const items = wb.addWorksheet('Line items');
  header(items, ITEM_COLUMNS);
  for (const d of input.documents) {
    d.result.items.forEach((item, i) => {
      addRow(items, [
        plain(d.document),
        plain(i + 1),
        xlsxValue('text', valueOf(item.description)),
        xlsxValue('number', valueOf(item.quantity)),
        xlsxValue('amount', valueOf(item.unit_price)),
        xlsxValue('amount', valueOf(item.amount)),
      ]);
    });
  }

  const evidence = wb.addWorksheet('Evidence');
  header(evidence, EVIDENCE_COLUMNS);
  for (const r of evidenceRows(input)) addRow(evidence, evidenceCells(r).map(plain));

  const corrections = wb.addWorksheet('Corrections');
  header(corrections, CORRECTION_COLUMNS);
  for (const r of correctionRows(input)) addRow(corrections, r.map(plain));

  for (const sheet of [docs, items, evidence, corrections]) {
    sheet.columns.forEach((col) => {
      col.width = Math.min(
        60,
        Math.max(
          10,
          ...(col.values ?? []).map((v) => (v == null ? 0 : String(v instanceof Date ? '2026-12-31' : v).length + 2)),
        ),
      );
    });
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

// ---------------------------------------------------------------------------------------------------------------
// CSV

/** The CSV files of the ZIP, one per sheet. */
export const EXTRACTION_CSV_FILES = {
  documents: 'documents.csv',
  items: 'line-items.csv',
  evidence: 'evidence.csv',
  corrections: 'corrections.csv',
} as const;

/**
 * A cell spreadsheet programs will not run as a formula (CSV injection): text starting with `=`, `+`, `-`, `@`, a
 * tab or a carriage return gets a leading apostrophe. A plain decimal number (`-12.50`) is left as it is: it is a
 * number, not a formula.
 */
export function defuseFormula(cell: string): string {
  if (/^-\d+(\.\d+)?$/.test(cell)) return cell;
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

function csv(rows: Array<ReadonlyArray<string | number | boolean | null>>): Buffer {
  const cells = rows.map((r) => r.map((c) => (c === null ? '' : typeof c === 'string' ? defuseFormula(c) : String(c))));
  // RFC 4180: fields with a comma, a quote or a line break are quoted (quotes doubled); records end with CRLF.
  return Buffer.from(stringify(cells, { bom: true, record_delimiter: 'windows' }), 'utf8');
}

/**
 * The four CSV tables: the sheets of the workbook with values as their normalised strings (dates `YYYY-MM-DD`,
 * amounts `1234.50`, booleans `true`/`false`), missing values empty. UTF-8 with a byte-order mark (so Excel opens
 * the accents and scripts correctly), CRLF line ends, RFC 4180 quoting, formula cells defused (defuseFormula).
 */
export function extractionToCsvFiles(input: ExtractionExportInput): Array<{ name: string; content: Buffer }> {
  const docs: Array<Array<string | number | boolean | null>> = [[...DOCUMENT_COLUMNS, ...input.fields]];
  for (const d of input.documents) {
    docs.push([
      d.document,
      d.pages,
      d.check.review_required,
      d.check.reasons.join('; '),
      ...input.fields.map((f) => valueOf(d.result.fields[f])),
    ]);
  }
  const items: Array<Array<string | number | null>> = [[...ITEM_COLUMNS]];
  for (const d of input.documents)
    d.result.items.forEach((it, i) => items.push([d.document, i + 1, ...LINE_ITEM_COLUMNS.map((c) => valueOf(it[c]))]));
  const evidence: Array<Array<string | number | boolean | null>> = [[...EVIDENCE_COLUMNS]];
  for (const r of evidenceRows(input)) evidence.push(evidenceCells(r));
  return [
    { name: EXTRACTION_CSV_FILES.documents, content: csv(docs) },
    { name: EXTRACTION_CSV_FILES.items, content: csv(items) },
    { name: EXTRACTION_CSV_FILES.evidence, content: csv(evidence) },
    { name: EXTRACTION_CSV_FILES.corrections, content: csv([[...CORRECTION_COLUMNS], ...correctionRows(input)]) },
  ];
}

/** The CSV files in one ZIP (entries dated `date`, so the same input and date give the same bytes). */
export async function extractionToCsvZip(input: ExtractionExportInput, options: { date?: Date } = {}): Promise<Buffer> {
  const date = options.date ?? new Date();
  const archive = archiver('zip', { zlib: { level: 6 } });
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
    archive.on('error', reject);
  });
  archive.pipe(out);
  for (const f of extractionToCsvFiles(input)) archive.append(f.content, { name: f.name, date });
  await archive.finalize();
  await done;
  return Buffer.concat(chunks);
}

// ---------------------------------------------------------------------------------------------------------------
// JSON

const Box = z
  .object({ x0: z.number(), y0: z.number(), x1: z.number(), y1: z.number() })
  .describe("In PDF points from the page's top-left corner");
const ValueEvidence = z
  .object({
    page: z
      .number()
      .int()
      .positive()
      .nullable()
      .describe("1-based page the value was read from; null for a value read from an e-invoice's XML (`source` `xml`)"),
    snippet: z
      .string()
      .nullable()
      .describe("The source text the value came from (for `source` `xml`: the XML element's text)"),
    box: Box.nullable(),
    // Defaults: JSON results written before e-invoices were read (issue 29) have neither, and are page evidence.
    source: z
      .enum(['page', 'xml'])
      .default('page')
      .describe(
        "Where the snippet is: the text of `page`, or an element of the e-invoice XML the source is or carries (a Factur-X / ZUGFeRD / XRechnung PDF's attachment, an uploaded CII or UBL invoice)",
      ),
    path: z
      .string()
      .nullable()
      .default(null)
      .describe(
        "`source` `xml`: the element's path, e.g. `/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID` (qualified names as the XML writes them, `[n]` for the n-th element of a name after the first); null for page evidence",
      ),
    file: z
      .string()
      .nullable()
      .default(null)
      .describe(
        "`source` `xml`: the XML's file name in the PDF (`factur-x.xml`); null for an uploaded XML and for page evidence",
      ),
    flagged: z.boolean().describe('True when the value failed the evidence check (kept, to be reviewed)'),
    reason: z.string().nullable().describe('Why it was flagged'),
  })
  .describe('Where a value was read and whether its evidence was confirmed; null for a missing value');
const LineEvidence = z
  .object({
    page: z
      .number()
      .int()
      .positive()
      .describe('1-based page of the line (of its description, else of its first cell with evidence)'),
    snippet: z.string().describe("Its cells' snippets on that page in reading order, separated by spaces"),
    box: Box.nullable().describe("The union of its cells' boxes on that page; null on a plain-text page"),
    flagged: z.boolean().describe('True when any of its cells was flagged'),
    reason: z.string().nullable().describe('Why its cells were flagged (each reason once, separated by "; ")'),
  })
  .describe('Where a whole line item was read, for a reviewer; null when none of its cells has evidence');
const Str = z.string().nullable();
const Correction = z
  .object({
    field: z.string(),
    previous_value: Str.describe('The value before this correction'),
    value: Str.describe('The corrected value, in the same form as `fields`'),
    revision: z.number().int().positive().describe('The review revision that made it'),
    corrected_by: z.string().describe("The reviewer's e-mail address"),
    corrected_at: z.string().describe('ISO 8601'),
  })
  .describe("A reviewer's correction of a scalar field");
const Item = z
  .object({ description: Str, quantity: Str, unit_price: Str, amount: Str })
  .describe('A line item: normalised strings, missing values null');

/** The JSON result of `flow-extract`. */
export const ExtractionJson = z
  .object({
    documents: z.array(
      z
        .object({
          document: z.string().describe("The input document's name"),
          upload_id: z.string().nullable(),
          pages: z.number().int().nonnegative(),
          review_required: z
            .boolean()
            .describe('True when a value failed the evidence check or the document needs a look'),
          review_reasons: z.array(z.string()),
          fields: z
            .record(z.string(), Str)
            .describe(
              'Every requested field in request order: dates YYYY-MM-DD, amounts "1234.50", currencies ISO 4217; null when missing',
            ),
          items: z.array(Item),
          evidence: z.object({
            fields: z.record(z.string(), ValueEvidence.nullable()),
            items: z.array(
              z.object({
                description: ValueEvidence.nullable(),
                quantity: ValueEvidence.nullable(),
                unit_price: ValueEvidence.nullable(),
                amount: ValueEvidence.nullable(),
                // Results written before line evidence existed (issue 29) have none: read as null.
                line: LineEvidence.nullable().default(null),
              }),
            ),
          }),
          warnings: z.array(z.string()),
          corrections: z
            .array(Correction)
            .describe(
              "Review corrections of this document's fields, oldest first; empty in a job's first exports. A corrected field has no evidence: its value is the reviewer's",
            ),
        })
        .describe('One input document'),
    ),
  })
  .describe('Field extraction results: one entry per input document, in input order');
export type ExtractionJson = z.infer<typeof ExtractionJson>;

/** JSON Schema (draft 2020-12, as OpenAPI 3.1 uses) of ExtractionJson. */
export const extractionJsonSchema = z.toJSONSchema(ExtractionJson);

function evidenceJson(v: ExtractedValue | undefined, reason: string | null): z.infer<typeof ValueEvidence> | null {
  if (v?.value == null) return null;
  const ev = v.evidence;
  const xml = ev?.source === 'xml';
  return {
    page: ev?.page ?? null,
    snippet: ev?.snippet ?? null,
    box: ev?.box ?? null,
    source: xml ? 'xml' : 'page',
    path: xml ? (ev.path ?? null) : null,
    file: xml ? (ev.file ?? null) : null,
    flagged: reason !== null,
    reason,
  };
}

export function extractionToJsonValue(input: ExtractionExportInput): ExtractionJson {
  return {
    documents: input.documents.map((d) => ({
      document: d.document,
      upload_id: d.upload_id,
      pages: d.pages,
      review_required: d.check.review_required,
      review_reasons: [...d.check.reasons],
      fields: Object.fromEntries(input.fields.map((f) => [f, valueOf(d.result.fields[f])])),
      items: d.result.items.map((it) => ({
        description: valueOf(it.description),
        quantity: valueOf(it.quantity),
        unit_price: valueOf(it.unit_price),
        amount: valueOf(it.amount),
      })),
      evidence: {
        fields: Object.fromEntries(
          input.fields.map((f) => [f, evidenceJson(d.result.fields[f], flagOf(d.check.flagged, { field: f }))]),
        ),
        items: d.result.items.map((it, i) => {
          const line = lineEvidence(it);
          const reason = lineFlagOf(d.check.flagged, i);
          return {
            description: evidenceJson(it.description, flagOf(d.check.flagged, { item: i, column: 'description' })),
            quantity: evidenceJson(it.quantity, flagOf(d.check.flagged, { item: i, column: 'quantity' })),
            unit_price: evidenceJson(it.unit_price, flagOf(d.check.flagged, { item: i, column: 'unit_price' })),
            amount: evidenceJson(it.amount, flagOf(d.check.flagged, { item: i, column: 'amount' })),
            line:
              line && line.page !== null
                ? { page: line.page, snippet: line.snippet, box: line.box, flagged: reason !== null, reason }
                : null,
          };
        }),
      },
      warnings: [...d.result.warnings],
      corrections: (d.corrections ?? []).map((c) => ({ ...c })),
    })),
  };
}

/** ExtractionJson serialised (validated, UTF-8, two-space indentation, final line feed). */
export function extractionToJson(input: ExtractionExportInput): string {
  return `${JSON.stringify(ExtractionJson.parse(extractionToJsonValue(input)), null, 2)}\n`;
}

// ---------------------------------------------------------------------------------------------------------------
// All three

export interface ExtractionResultFile {
  name: string;
  mime: string;
  content: Buffer;
}

/** The job's three result files: `<base>.xlsx`, `<base>-csv.zip`, `<base>.json`. */
export async function extractionResultFiles(
  input: ExtractionExportInput,
  base: string,
  options: { date?: Date } = {},
): Promise<ExtractionResultFile[]> {
  return [
    {
      name: `${base}.xlsx`,
      mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      content: await extractionToXlsx(input, options),
    },
    { name: `${base}-csv.zip`, mime: 'application/zip', content: await extractionToCsvZip(input, options) },
    { name: `${base}.json`, mime: 'application/json', content: Buffer.from(extractionToJson(input), 'utf8') },
  ];
}
