import { fieldKind, LINE_ITEM_COLUMNS, type ExtractionResult } from '../../domain/extraction.js';

/**
 * Scores an engine's answer against a corpus document's truth (issue 17, section 5: measured, not assumed).
 *
 * Fields (each field of the truth):
 * - correct: the engine's value equals the truth's (amounts and numbers compared as numbers, so "1234.5" equals
 *   "1234.50"; text compared with whitespace collapsed, case kept; everything else exactly);
 * - wrong: a value different from the truth's (counts against precision, and against recall as the truth's value
 *   was not found);
 * - missed: null where the truth has a value (counts against recall);
 * - spurious: a value where the truth has none (counts against precision);
 * - absent: null where the truth is null (counts for nothing).
 * precision = correct / values given; recall = correct / values in the truth (1 when the denominator is 0).
 *
 * Line items: matched in order (item i with item i); an item is right when all four columns are (compared as
 * fields are: description as text, the others as numbers). accuracy = right / max(truth items, engine items), so
 * missing and extra items both count; 1 when both have none.
 */
export interface TruthLike {
  fields: Readonly<Record<string, string | null>>;
  items: ReadonlyArray<Readonly<Record<'description' | 'quantity' | 'unit_price' | 'amount', string>>>;
}

export type FieldOutcome = 'correct' | 'wrong' | 'missed' | 'spurious' | 'absent';

export interface ExtractionScore {
  perField: Record<string, FieldOutcome>;
  counts: Record<FieldOutcome, number>;
  precision: number;
  recall: number;
  items: { truth: number; extracted: number; right: number; accuracy: number };
}

const decimal = (s: string): number | null => (/^-?\d+(\.\d+)?$/.test(s.trim()) ? Number(s) : null);

export function sameValue(kind: ReturnType<typeof fieldKind>, truth: string, value: string): boolean {
  if (kind === 'amount' || kind === 'number') {
    const a = decimal(truth);
    const b = decimal(value);
    return a !== null && b !== null && a === b;
  }
  if (kind === 'text') return truth.replace(/\s+/g, ' ').trim() === value.replace(/\s+/g, ' ').trim();
  return truth === value;
}

const ratio = (n: number, d: number): number => (d === 0 ? 1 : n / d);

export function measureExtraction(truth: TruthLike, result: Pick<ExtractionResult, 'fields' | 'items'>): ExtractionScore {
  const perField: Record<string, FieldOutcome> = {};
  const counts: Record<FieldOutcome, number> = { correct: 0, wrong: 0, missed: 0, spurious: 0, absent: 0 };
  for (const [name, expected] of Object.entries(truth.fields)) {
    const got = result.fields[name]?.value ?? null;
    const outcome: FieldOutcome =
      expected === null ? (got === null ? 'absent' : 'spurious') : got === null ? 'missed' : sameValue(fieldKind(name), expected, got) ? 'correct' : 'wrong';
    perField[name] = outcome;
    counts[outcome]++;
  }
  const given = counts.correct + counts.wrong + counts.spurious;
  const expectedValues = counts.correct + counts.wrong + counts.missed;
  let right = 0;
  truth.items.forEach((t, i) => {
    const got = result.items[i];
    if (!got) return;
    const ok = LINE_ITEM_COLUMNS.every((c) => {
      const v = got[c].value;
      return v !== null && sameValue(c === 'description' ? 'text' : 'amount', t[c], v);
    });
    if (ok) right++;
  });
  const n = Math.max(truth.items.length, result.items.length);
  return {
    perField,
    counts,
    precision: ratio(counts.correct, given),
    recall: ratio(counts.correct, expectedValues),
    items: { truth: truth.items.length, extracted: result.items.length, right, accuracy: ratio(right, n) },
  };
}
