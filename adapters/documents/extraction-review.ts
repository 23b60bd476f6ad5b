import { LINE_ITEM_COLUMNS, type Evidence, type ExtractedValue, type LineItem } from '../../domain/extraction.js';
import {
  ExtractionJson,
  type ExtractionCorrection,
  type ExtractionDocumentResult,
  type ExtractionExportInput,
  type FlaggedValue,
} from './extraction-exports.js';

/**
 * Review corrections on a `flow-extract` job's results (docs/processing.md "Review corrections"). The job's first
 * JSON result is the record of what the engine read and what the evidence check said; the corrections are applied
 * to it in order and the exports rendered again (extractionResultFiles). Pure functions of their input.
 */

type JsonValueEvidence = ExtractionJson['documents'][number]['evidence']['fields'][string];

function valueFromJson(value: string | null, ev: JsonValueEvidence | undefined): ExtractedValue {
  let evidence: Evidence | null = null;
  if (value !== null && ev && ev.snippet !== null) {
    if (ev.source === 'xml' && ev.path !== null)
      evidence = { page: null, snippet: ev.snippet, box: null, source: 'xml', path: ev.path, file: ev.file };
    else if (ev.page !== null) evidence = { page: ev.page, snippet: ev.snippet, box: ev.box };
  }
  return { value, evidence, confidence: null };
}

/**
 * The export input a job's JSON result was made from (the engines' confidences are not in it and come back null;
 * nothing the exports show depends on them). A JSON result written before corrections existed has no `corrections`.
 */
export function exportInputFromJson(raw: unknown, fields: readonly string[]): ExtractionExportInput {
  const withCorrections =
    raw && typeof raw === 'object' && Array.isArray((raw as { documents?: unknown }).documents)
      ? {
          documents: (raw as { documents: Array<Record<string, unknown>> }).documents.map((d) => ({
            corrections: [],
            ...d,
          })),
        }
      : raw;
  const json = ExtractionJson.parse(withCorrections);
  const documents = json.documents.map((d): ExtractionDocumentResult => {
    const flagged: FlaggedValue[] = [];
    // A value's reasons are joined with "; " in the JSON: one entry per document reason it carries, as the run had.
    const reasonsOf = (joined: string | null): string[] => {
      if (joined === null) return ['failed the evidence check'];
      const parts = d.review_reasons.filter(
        (r) => joined === r || joined.startsWith(`${r}; `) || joined.endsWith(`; ${r}`) || joined.includes(`; ${r}; `),
      );
      return parts.length > 0 ? parts : [joined];
    };
    for (const f of fields) {
      const ev = d.evidence.fields[f];
      if (ev?.flagged) for (const reason of reasonsOf(ev.reason)) flagged.push({ field: f, reason });
    }
    const items = d.items.map((it, i): LineItem => {
      const ev = d.evidence.items[i];
      const item = {} as LineItem;
      for (const c of LINE_ITEM_COLUMNS) {
        item[c] = valueFromJson(it[c], ev?.[c]);
        if (ev?.[c]?.flagged)
          for (const reason of reasonsOf(ev[c]!.reason)) flagged.push({ item: i, column: c, reason });
      }
      return item;
    });
    return {
      document: d.document,
      upload_id: d.upload_id,
      pages: d.pages,
      result: {
        fields: Object.fromEntries(fields.map((f) => [f, valueFromJson(d.fields[f] ?? null, d.evidence.fields[f])])),
        items,
        warnings: d.warnings,
      },
      check: { review_required: d.review_required, reasons: d.review_reasons, flagged },
      corrections: d.corrections,
    };
  });
  return { fields, documents };
}

/** A correction as stored: which document (0-based, input order) and field, and the new value. */
export interface StoredCorrection extends ExtractionCorrection {
  document: number;
}

/**
 * The export input with the corrections applied in order: each corrected field takes the reviewer's value, without
 * evidence (the value is the reviewer's, not read from the source), and is no longer flagged; a document whose
 * flagged values have all been corrected (or confirmed with their own value) no longer requires review. The
 * reasons that remain are those of the values still flagged (a reason naming several values, e.g. totals that do
 * not add up, stays while one of them is not corrected), in their first order.
 */
export function applyCorrections(
  input: ExtractionExportInput,
  corrections: readonly StoredCorrection[],
): ExtractionExportInput {
  const documents = input.documents.map((d) => ({
    ...d,
    result: { ...d.result, fields: { ...d.result.fields } },
    check: { ...d.check },
    corrections: [...(d.corrections ?? [])],
  }));
  for (const c of corrections) {
    const d = documents[c.document];
    if (!d) throw new RangeError(`correction of document ${c.document}, which the result does not have`);
    const { document: _index, ...entry } = c;
    d.result.fields[c.field] = { value: c.value, evidence: null, confidence: null };
    d.corrections.push(entry);
    const flagged = d.check.flagged.filter((f) => !('field' in f && f.field === c.field));
    const carried = new Set(flagged.map((f) => f.reason));
    const reasons = [...new Set([...d.check.reasons.filter((r) => carried.has(r)), ...flagged.map((f) => f.reason)])];
    d.check = { review_required: flagged.length > 0, reasons, flagged };
  }
  return { fields: input.fields, documents };
}

/** `invoice-extracted.xlsx` → `invoice-reviewed.xlsx` (also `-extracted-csv.zip` and `.json`). */
export const reviewedFileName = (name: string): string =>
  name.replace(/-extracted((?:-csv)?\.[a-z]+)$/u, '-reviewed$1');
