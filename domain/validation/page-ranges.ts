import { DomainError } from '../errors.js';

/**
 * Page ranges such as `1-3,5`: comma-separated pages or inclusive ranges, 1-based, ascending within a range.
 * Whitespace around items is allowed. Checked against the document's real page count; the result is the
 * sorted, de-duplicated list of pages. An empty string selects all pages when `emptyMeansAll`.
 */
const ITEM = /^(\d{1,5})(?:-(\d{1,5}))?$/;

export function parsePageRanges(spec: string, pageCount: number, opts: { emptyMeansAll?: boolean } = {}): number[] {
  if (spec.trim() === '') {
    if (opts.emptyMeansAll) return Array.from({ length: pageCount }, (_, i) => i + 1);
    throw new DomainError('validation_failed', 'pages must select at least one page, e.g. 1-3,5');
  }
  const pages = new Set<number>();
  for (const raw of spec.split(',')) {
    const m = ITEM.exec(raw.trim());
    if (!m) throw new DomainError('validation_failed', `pages: "${raw.trim()}" is not a page or a range such as 2-4`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (from < 1 || to < from)
      throw new DomainError('validation_failed', `pages: "${raw.trim()}" must be ascending and start at 1 or more`);
    if (to > pageCount)
      throw new DomainError('validation_failed', `pages: "${raw.trim()}" is beyond the document's ${pageCount} pages`);
    for (let p = from; p <= to; p++) pages.add(p);
  }
  return [...pages].sort((a, b) => a - b);
}
