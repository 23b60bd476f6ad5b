/**
 * The real-corpus report of bench/extraction.ts (bench/README.md, "Field extraction on real invoices"): scores per
 * split, form and language, and the per-document diffs.
 */
import { ALL_FORMS, type CorpusDocument, type CorpusForm, type CorpusSplit } from './extraction-corpus.js';
import type { CorpusScore } from './extraction-measure.js';

export interface ScoredDocument {
  doc: CorpusDocument;
  form: CorpusForm;
  pages: number;
  score: CorpusScore;
}

interface Totals {
  documents: number;
  pages: number;
  right: number;
  expected: number;
  given: number;
  linesRight: number;
  linesAll: number;
  unflaggedWrong: number;
  wrongWithoutOwnFlag: number;
  rightFlagged: number;
  /** Documents answered with review_required. */
  review: number;
}

function add(t: Totals, s: ScoredDocument): void {
  t.documents++;
  t.pages += s.pages;
  t.right += s.score.right;
  t.expected += s.score.expected;
  t.given += s.score.given;
  t.linesRight += s.score.lines.right;
  t.linesAll += Math.max(s.score.lines.truth, s.score.lines.given);
  t.unflaggedWrong += s.score.unflaggedWrong;
  t.wrongWithoutOwnFlag += s.score.wrongWithoutOwnFlag;
  t.rightFlagged += s.score.rightFlagged;
  if (s.score.review) t.review++;
}

const empty = (): Totals => ({
  documents: 0,
  pages: 0,
  right: 0,
  expected: 0,
  given: 0,
  linesRight: 0,
  linesAll: 0,
  unflaggedWrong: 0,
  wrongWithoutOwnFlag: 0,
  rightFlagged: 0,
  review: 0,
});
const frac = (n: number, d: number) => (d === 0 ? '—' : `${n}/${d} = ${(n / d).toFixed(2)}`);

/** The aggregate figures of a set of scored documents (for the test floors and the table). */
export function totals(
  scored: readonly ScoredDocument[],
): Totals & { recall: number; precision: number; lines: number } {
  const t = empty();
  for (const s of scored) add(t, s);
  return {
    ...t,
    recall: t.expected ? t.right / t.expected : 1,
    precision: t.given ? t.right / t.given : 1,
    lines: t.linesAll ? t.linesRight / t.linesAll : 1,
  };
}

/** One row per split × form × language (and an "all" row per split × form), in a stable order. */
export function accuracyRows(scored: readonly ScoredDocument[]): string[][] {
  const rows: string[][] = [
    [
      'split',
      'form',
      'language',
      'documents',
      'pages',
      'field recall',
      'field precision',
      'line items right',
      'wrong, not flagged',
      'wrong, no own flag',
      'right, flagged',
      'review required',
    ],
  ];
  const splits: CorpusSplit[] = ['tune', 'heldout'];
  for (const split of splits) {
    for (const form of ALL_FORMS) {
      const here = scored.filter((s) => s.doc.split === split && s.form === form);
      if (!here.length) continue;
      const languages = [...new Set(here.map((s) => s.doc.language))].sort();
      for (const lang of [...languages, 'all']) {
        const t = empty();
        for (const s of here) if (lang === 'all' || s.doc.language === lang) add(t, s);
        rows.push([
          split,
          form,
          lang,
          String(t.documents),
          String(t.pages),
          frac(t.right, t.expected),
          frac(t.right, t.given),
          frac(t.linesRight, t.linesAll),
          String(t.unflaggedWrong),
          String(t.wrongWithoutOwnFlag),
          `${t.rightFlagged}/${t.right}`,
          `${t.review}/${t.documents}`,
        ]);
      }
    }
  }
  return rows;
}
