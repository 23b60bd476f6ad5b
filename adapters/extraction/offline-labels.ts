/**
 * Labels of the offline extraction engine: which printed labels name a requested field (synonyms per concept, the
 * field name's own words for anything else) and where they occur on a page.
 */
import {
  ATTENTION,
  CONCEPTS,
  escapeRegExp,
  labelAlternation,
  OTHER_LABELS,
  type Concept,
} from '../../domain/extraction-lexicon.js';

export { ATTENTION, conceptOf, nameWords, type Concept, type Reader } from '../../domain/extraction-lexicon.js';

export interface LabelHit {
  /** Index in the concept's labels (lower is more specific). */
  rank: number;
  start: number;
  /** End of the label including a following `:`, `#`, `-` separator and spaces. */
  end: number;
}

/** A label as a pattern's source: its words with any spacing, each word's stop optional ("Invoice No" reads "Invoice No."). */
const labelSource = (label: string) =>
  label
    .split(/\s+/u)
    .map((tok) => escapeRegExp(tok) + (/[\p{L}\p{N}]$/u.test(tok) ? '\\.?' : ''))
    .join('\\s*');

function labelPattern(label: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}_])${labelSource(label)}(?![\\p{L}\\p{N}_])(?:\\s*[:#\\-–]+)?\\s*`, 'giu');
}

const patternCache = new Map<string, RegExp>();

/** One pattern for all of a concept's labels: most lines hold none, and one test rules them out. */
const anyCache = new Map<string, RegExp>();
function anyLabelOf(concept: Concept): RegExp {
  const key = concept.labels.join('\u0000');
  let re = anyCache.get(key);
  if (!re) {
    const alt = concept.labels.map(labelSource).join('|');
    anyCache.set(key, (re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alt})(?![\\p{L}\\p{N}])`, 'iu')));
  }
  return re;
}

/** The words right before `start` and the text right after `end`, lower case, without brackets and stops around. */
const wordBefore = (line: string, start: number) =>
  (line.slice(0, start).trim().toLowerCase().split(/\s+/u).pop() ?? '').replace(
    /^[^\p{L}\p{N}°º]+|[^\p{L}\p{N}°º]+$/gu,
    '',
  );
const textAfter = (line: string, end: number) =>
  line
    .slice(end)
    .toLowerCase()
    .replace(/^[\s([]+/u, '')
    .replace(/\s+/gu, ' ');
/** True when `text` starts with one of `phrases` as whole words ("excl. VAT" starts with "excl"). */
const startsWithPhrase = (text: string, phrases: readonly string[]) =>
  phrases.some((p) => text.startsWith(p) && !/[\p{L}\p{N}]/u.test(text[p.length] ?? ''));

/** Occurrences of the concept's labels in one line, most specific label first, then left to right. */
export function findLabels(concept: Concept, line: string): LabelHit[] {
  const hits: LabelHit[] = [];
  if (!anyLabelOf(concept).test(line)) return hits;
  concept.labels.forEach((label, rank) => {
    let re = patternCache.get(label);
    if (!re) patternCache.set(label, (re = labelPattern(label)));
    for (const m of line.matchAll(re)) {
      const start = m.index;
      const end = start + m[0].length;
      if (hits.some((h) => start < h.end && end > h.start)) continue; // inside a more specific label
      const before = wordBefore(line, start);
      if (concept.notAfter?.includes(before)) continue;
      if (!/[:#]\s*$/u.test(m[0]) && concept.notBefore && startsWithPhrase(textAfter(line, end), concept.notBefore))
        continue;
      if (/^sub-?$/u.test(before) && label.startsWith('total')) continue;
      // A party's label as part of a compound ("Art-Nr-Kunde"): no label.
      if (concept.name && /[\p{L}\p{N}]-$/u.test(line.slice(0, start))) continue;
      // A label in brackets qualifies the one before it: "Rechnungssumme Brutto (inkl. USt.)" names no tax amount.
      if (/\(\s*(?:[\p{L}.]+\s*)?$/u.test(line.slice(Math.max(0, start - 12), start))) continue;
      hits.push({ rank, start, end });
    }
  });
  return hits.sort((a, b) => a.rank - b.rank || a.start - b.start);
}

const ALL_LABELS = [...new Set([...CONCEPTS.flatMap((c) => c.labels), ...OTHER_LABELS])].sort(
  (a, b) => b.length - a.length,
);

/** Edit distance (insertions, deletions, substitutions) of two short strings, capped: `cap + 1` means "more than cap". */
function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (Math.min(...cur) > cap) return cap + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** One-word labels long enough to be recognised with a letter or two misread: 10 letters or more. */
const LONG_WORD_LABELS = ALL_LABELS.filter((l) => /^\p{L}{10,}$/u.test(l)).map((l) => l.toLowerCase());
/** Letters an OCR misreading may be off by: 1 for 10–11 letters, 2 for 12–13, 3 from 14 (about one in five). */
const fuzzCap = (word: string) => (word.length >= 14 ? 3 : word.length >= 12 ? 2 : 1);

/**
 * Labels of the concept the OCR misread by a few letters ("Rechnungedeium" for "Rechnungsdatum"): a word of 10
 * letters or more within `fuzzCap` edits of one of the concept's one-word labels and strictly nearer to it than to
 * any label of another concept or of another value (OTHER_LABELS: "Lieferdatun" is a delivery date's). Only for
 * OCR pages (a text layer spells what it prints); an exact label is always preferred (the caller asks for these only
 * when the concept has none). Rank: after every exact label.
 */
export function findMisreadLabels(concept: Concept, line: string): LabelHit[] {
  const own = concept.labels.filter((l) => /^\p{L}{10,}$/u.test(l)).map((l) => l.toLowerCase());
  if (own.length === 0) return [];
  const hits: LabelHit[] = [];
  for (const m of line.matchAll(/(?<![\p{L}\p{N}])\p{L}{10,}(?![\p{L}\p{N}])/gu)) {
    const word = m[0].toLowerCase();
    const cap = fuzzCap(word);
    const mine = Math.min(...own.map((l) => editDistance(word, l, cap)));
    if (mine === 0 || mine > cap) continue;
    if (LONG_WORD_LABELS.some((l) => !own.includes(l) && editDistance(word, l, cap) <= mine)) continue;
    const sep = /^\s*[:#\-–]*\s*/u.exec(line.slice(m.index + m[0].length))![0];
    hits.push({ rank: concept.labels.length, start: m.index, end: m.index + m[0].length + sep.length });
  }
  return hits;
}

/** Any known label followed by a colon (where a text value on the same line ends). */
export const NEXT_LABEL = new RegExp(`\\s(?:${labelAlternation(ALL_LABELS)}|\\S+)\\.?\\s*:(?:\\s|$)`, 'iu');

/** A line that starts with any known label ("Invoice No", "Bill to", "Total"…). */
export const STARTS_WITH_LABEL = new RegExp(`^(?:${labelAlternation(ALL_LABELS)})(?![\\p{L}\\p{N}])`, 'iu');

/**
 * A group of words that is a label (perhaps with its own value), not a value: it starts with a known label
 * ("Kundennummer GE2020211", "Due Date:"), or it is a few words ending with a colon ("Incoterm:", "Ship to:").
 * `strict`: only a label alone or followed by a colon (a line under a label may be a name such as "Lieferant GmbH").
 */
export function isLabelGroup(text: string, strict = false): boolean {
  const t = text.trim();
  if (ATTENTION.test(t)) return false;
  if (/^[^\d:]{1,40}:(?:\s|$)/u.test(t)) return true;
  const m = STARTS_WITH_LABEL.exec(t);
  return m !== null && (!strict || /^\.?\s*[:#]/u.test(t.slice(m[0].length)) || t.length === m[0].length);
}

/**
 * Labels that name another concept's value, for one concept: every other concept's labels and the OTHER_LABELS,
 * less the words this concept's own labels contain (a total's "amount", an invoice date's "invoice") and less the
 * generic words that occur in running text of a value ("date", "total", "invoice" alone). A value read after one of
 * these on the label's line belongs to that label, not to this field.
 */
const GENERIC = new Set([
  'date',
  'datum',
  'data',
  'fecha',
  'total',
  'totale',
  'totaal',
  'invoice',
  'rechnung',
  'facture',
  'factura',
  'fattura',
  'factuur',
  'receipt',
  'from',
  'amount',
  'client',
  'customer',
  'cliente',
  'klant',
  'kunde',
  'due',
  'issued',
  'seller',
  'buyer',
  'vendor',
  'supplier',
  'mail',
  'e mail',
  'email',
  'recipient',
  'merchant',
  'ref',
  'reference',
  'period',
  'page',
  'tel',
  'zu zahlen',
  'te betalen',
  'imposta',
  'base',
  'imponibile',
]);
const foreignCache = new Map<string, RegExp | null>();
export function foreignLabels(concept: Concept): RegExp | null {
  const key = `${concept.id}\u0000${concept.labels.join('|')}`;
  if (foreignCache.has(key)) return foreignCache.get(key)!;
  const own = new Set(concept.labels);
  const labels = ALL_LABELS.filter(
    (l) => !own.has(l) && !GENERIC.has(l) && !concept.labels.some((o) => o.includes(l) || l.includes(o)),
  );
  const re = labels.length
    ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${labelAlternation(labels)})(?![\\p{L}\\p{N}])`, 'iu')
    : null;
  foreignCache.set(key, re);
  return re;
}

/** A document's title ("Invoice", "TAX INVOICE", "Receipt", "Credit note", "Rechnung"…): a whole line or group of words. */
export const DOCUMENT_TITLE =
  /^(?:(?:tax|sales|vat|commercial|pro[\s-]?forma|final|original|cash)\s+)?(?:invoice|receipt|bill|credit\s+note|debit\s+note|statement|quotation|quote|rechnung|quittung|gutschrift|facture|reçu|avoir|factura|recibo|fattura|ricevuta)(?:\s*\/\s*[\p{L}]+)?[\s.:]*$/iu;
