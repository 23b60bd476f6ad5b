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

export function measureExtraction(
  truth: TruthLike,
  result: Pick<ExtractionResult, 'fields' | 'items'>,
): ExtractionScore {
  const perField: Record<string, FieldOutcome> = {};
  const counts: Record<FieldOutcome, number> = { correct: 0, wrong: 0, missed: 0, spurious: 0, absent: 0 };
  for (const [name, expected] of Object.entries(truth.fields)) {
    const got = result.fields[name]?.value ?? null;
    const outcome: FieldOutcome =
      expected === null
        ? got === null
          ? 'absent'
          : 'spurious'
        : got === null
          ? 'missed'
          : sameValue(fieldKind(name), expected, got)
            ? 'correct'
            : 'wrong';
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

// ---------------------------------------------------------------------------------------------------------------
// The real corpus (bench/extraction-corpus/README.md, "Scoring"): truths from documents no one here wrote.

/** The truth of a real-corpus document (bench/extraction-corpus/truth/<id>.json), as far as scoring needs it. */
export interface CorpusTruthLike {
  fields: Readonly<Record<string, string | null>>;
  accept?: Readonly<Record<string, readonly string[] | undefined>>;
  items: ReadonlyArray<Readonly<Record<'description' | 'quantity' | 'unit_price' | 'amount', string | null>>>;
}

/** One document of a `flow-extract` JSON result (adapters/documents/extraction-exports.ts), as far as scoring needs it. */
export interface AnsweredDocument {
  review_required: boolean;
  fields: Readonly<Record<string, string | null>>;
  items: ReadonlyArray<Readonly<Record<'description' | 'quantity' | 'unit_price' | 'amount', string | null>>>;
  evidence: {
    fields: Readonly<Record<string, { flagged: boolean } | null>>;
    items: ReadonlyArray<
      Readonly<Record<'description' | 'quantity' | 'unit_price' | 'amount', { flagged: boolean } | null>>
    >;
  };
}

export interface CorpusFieldDiff {
  field: string;
  outcome: FieldOutcome;
  truth: string | null;
  got: string | null;
  /** The value's own evidence flag or the document's review_required. */
  flagged: boolean;
  /** The value's own evidence flag (a check on this value), not only the document's review_required. */
  ownFlag: boolean;
}

export interface CorpusLineDiff {
  line: number;
  right: boolean;
  truth: Readonly<Record<string, string | null>> | null;
  got: Readonly<Record<string, string | null>> | null;
  /** The columns that differ (truth-null columns are not compared). */
  wrong: string[];
  flagged: boolean;
  /** A flag on one of the line's own cells. */
  ownFlag: boolean;
}

export interface CorpusScore {
  counts: Record<FieldOutcome, number>;
  /** Values right / values in the truth / values given. */
  right: number;
  expected: number;
  given: number;
  lines: { truth: number; given: number; right: number };
  /** Wrong or spurious field values and wrong lines returned with neither a value flag nor review_required. */
  unflaggedWrong: number;
  /**
   * Wrong or spurious field values and wrong lines without a flag of their own: caught, if at all, only because another
   * value flagged the document. On a document where nothing else is flagged these are returned unflagged.
   */
  wrongWithoutOwnFlag: number;
  /** Right field values flagged for review by their own check (what flagging costs a reviewer, value by value). */
  rightFlagged: number;
  /** The answer's review_required: what flagging costs (a document under review is read by a person). */
  review: boolean;
  fields: CorpusFieldDiff[];
  lineDiffs: CorpusLineDiff[];
}

const plainDecimal = (s: string): number | null => {
  const t = s.trim();
  return /^[-+]?\d+(\.\d+)?$/u.test(t) ? Number(t) : null;
};
const compactId = (s: string) => s.replace(/[^\p{L}\p{N}]/gu, '').toUpperCase();
/** Text as compared: typographic quotes as the typewriter ones OCR reads ("kWh’s" is "kWh's"), space collapsed, case ignored. */
const normText = (s: string) =>
  s
    .normalize('NFC')
    .replace(/[‘’‚‛′]/gu, "'")
    .replace(/[“”„‟″]/gu, '"')
    .replace(/\s+/gu, ' ')
    .trim()
    .toLowerCase()
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/** Whether `got` is the truth's `expected` for a field of this kind (see the README's "Scoring"). */
export function sameCorpusValue(kind: ReturnType<typeof fieldKind>, expected: string, got: string): boolean {
  switch (kind) {
    case 'amount':
    case 'number': {
      const a = plainDecimal(expected);
      const b = plainDecimal(got);
      return a !== null && b !== null && Math.abs(a - b) < 1e-9;
    }
    case 'tax_id':
    case 'iban':
      return compactId(expected) === compactId(got);
    case 'currency':
      return expected.trim().toUpperCase() === got.trim().toUpperCase();
    case 'text':
    case 'email':
      return normText(expected) === normText(got);
    default:
      return expected.trim() === got.trim();
  }
}

/**
 * A line's description matches: normalised, equal; or the answer is the truth followed by more words (the line's
 * continuation lines read with it); or one contains the other and the shorter is at least half the longer.
 */
export function sameDescription(expected: string, got: string): boolean {
  const a = normText(expected);
  const b = normText(got);
  if (a === b || (a.length > 0 && b.startsWith(`${a} `))) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length > 0 && long.includes(short) && short.length * 2 >= long.length;
}

export function scoreCorpusDocument(truth: CorpusTruthLike, answer: AnsweredDocument): CorpusScore {
  const counts: Record<FieldOutcome, number> = { correct: 0, wrong: 0, missed: 0, spurious: 0, absent: 0 };
  const fields: CorpusFieldDiff[] = [];
  let unflaggedWrong = 0;
  let wrongWithoutOwnFlag = 0;
  let rightFlagged = 0;
  for (const [name, expected] of Object.entries(truth.fields)) {
    const got = answer.fields[name] ?? null;
    const kind = fieldKind(name);
    const right =
      expected !== null &&
      got !== null &&
      [expected, ...(truth.accept?.[name] ?? [])].some((e) => sameCorpusValue(kind, e, got));
    const outcome: FieldOutcome =
      expected === null
        ? got === null
          ? 'absent'
          : 'spurious'
        : got === null
          ? 'missed'
          : right
            ? 'correct'
            : 'wrong';
    const ownFlag = answer.evidence.fields[name]?.flagged === true;
    const flagged = answer.review_required || ownFlag;
    if ((outcome === 'wrong' || outcome === 'spurious') && !flagged) unflaggedWrong++;
    if ((outcome === 'wrong' || outcome === 'spurious') && !ownFlag) wrongWithoutOwnFlag++;
    if (outcome === 'correct' && ownFlag) rightFlagged++;
    counts[outcome]++;
    fields.push({ field: name, outcome, truth: expected, got, flagged, ownFlag });
  }
  const lineDiffs: CorpusLineDiff[] = [];
  const n = Math.max(truth.items.length, answer.items.length);
  let rightLines = 0;
  for (let i = 0; i < n; i++) {
    const t = truth.items[i] ?? null;
    const g = answer.items[i] ?? null;
    const ev = answer.evidence.items[i];
    const ownFlag = ev ? Object.values(ev).some((e) => e?.flagged === true) : false;
    const flagged = answer.review_required || ownFlag;
    const wrong: string[] = [];
    if (!t || !g) wrong.push(t ? 'missing' : 'extra');
    else {
      for (const col of LINE_ITEM_COLUMNS) {
        const want = t[col];
        if (want === null) continue;
        const have = g[col];
        const ok =
          have !== null &&
          (col === 'description' ? sameDescription(want, have) : sameCorpusValue('amount', want, have));
        if (!ok) wrong.push(col);
      }
    }
    const right = wrong.length === 0;
    if (right) rightLines++;
    else if (g && !flagged) unflaggedWrong++;
    if (!right && g && !ownFlag) wrongWithoutOwnFlag++;
    lineDiffs.push({ line: i + 1, right, truth: t, got: g, wrong, flagged, ownFlag });
  }
  return {
    counts,
    right: counts.correct,
    expected: counts.correct + counts.wrong + counts.missed,
    given: counts.correct + counts.wrong + counts.spurious,
    lines: { truth: truth.items.length, given: answer.items.length, right: rightLines },
    unflaggedWrong,
    wrongWithoutOwnFlag,
    rightFlagged,
    review: answer.review_required,
    fields,
    lineDiffs,
  };
}

const flagNote = (d: { flagged: boolean; ownFlag: boolean }) =>
  d.ownFlag ? ' (flagged)' : d.flagged ? ' (flagged: document only)' : ' (NOT flagged)';

/** The per-document diff, for a person: every field not right and every line not right, one per line. */
export function formatCorpusDiff(id: string, s: CorpusScore): string {
  const out = [
    `${id}: fields ${s.right}/${s.expected} right, ${s.given} given; lines ${s.lines.right}/${Math.max(s.lines.truth, s.lines.given)}; unflagged wrong ${s.unflaggedWrong}; wrong without own flag ${s.wrongWithoutOwnFlag}; right flagged ${s.rightFlagged}; review ${s.review ? 'required' : 'not required'}`,
  ];
  const q = (v: string | null) => (v === null ? 'null' : JSON.stringify(v));
  for (const f of s.fields) {
    if (f.outcome === 'correct' || f.outcome === 'absent') continue;
    out.push(
      `  ${f.outcome.padEnd(8)} ${f.field}: truth ${q(f.truth)}, got ${q(f.got)}${f.outcome === 'missed' ? '' : flagNote(f)}`,
    );
  }
  const line = (r: Readonly<Record<string, string | null>> | null) =>
    r ? LINE_ITEM_COLUMNS.map((c) => q(r[c] ?? null)).join(' | ') : '—';
  for (const l of s.lineDiffs) {
    if (l.right) continue;
    out.push(
      `  line ${l.line} wrong [${l.wrong.join(', ')}]${l.got ? flagNote(l) : ''}\n      truth: ${line(l.truth)}\n      got:   ${line(l.got)}`,
    );
  }
  return out.join('\n');
}
