import type { PageText, PositionedWord } from '../../domain/extraction.js';

/**
 * UTF-8 text as pages, and the cap on a document's text (EXTRACTION_LIMITS.maxTextChars; docs/processing.md,
 * "Source text").
 */

const ZERO_BOX = { x0: 0, y0: 0, x1: 0, y1: 0 } as const;

/**
 * UTF-8 text as pages: one per form-feed-separated part (a form feed that ends the text starts no page), each line's
 * words separated by single spaces, blank lines kept as one blank line (a block), words with zero boxes. Stops making
 * pages once `budget` characters are made (the cap cuts the rest anyway), so a 20 MB text costs no more than that.
 */
export function plainTextPages(source: string, budget = Number.POSITIVE_INFINITY): PageText[] {
  const parts = source.replace(/\r\n?/g, '\n').split('\f');
  if (parts.length > 1 && parts.at(-1)!.trim() === '') parts.pop();
  const pages: PageText[] = [];
  let made = 0;
  for (const [i, part] of parts.entries()) {
    if (made > budget) break;
    let text = '';
    let blank = false;
    const words: PositionedWord[] = [];
    for (const line of part.split('\n')) {
      const tokens = line.split(/\s+/u).filter((t) => t !== '');
      if (tokens.length === 0) {
        blank = true;
        continue;
      }
      if (text !== '') text += blank ? '\n\n' : '\n';
      blank = false;
      tokens.forEach((t, j) => {
        if (j > 0) text += ' ';
        words.push({ text: t, box: { ...ZERO_BOX }, offset: text.length });
        text += t;
      });
      if (made + text.length > budget) break;
    }
    made += text.length;
    pages.push({ page: i + 1, text, words, source: 'plain_text', width: 0, height: 0 });
  }
  return pages;
}

/**
 * Cuts the pages' text at `maxChars` characters over the document (the pages' `text` together): the page where the
 * limit falls keeps its whole words up to it, later pages are left out, and a warning names the page and the
 * character of its text where reading stopped.
 */
export function capText(pages: readonly PageText[], maxChars: number): { pages: PageText[]; truncated: boolean; warnings: string[] } {
  const out: PageText[] = [];
  let used = 0;
  for (const p of pages) {
    if (used + p.text.length <= maxChars) {
      out.push(p);
      used += p.text.length;
      continue;
    }
    const room = maxChars - used;
    const words = p.words.filter((w) => w.offset + w.text.length <= room);
    const end = words.length > 0 ? words.at(-1)!.offset + words.at(-1)!.text.length : 0;
    out.push({ ...p, text: p.text.slice(0, end), words });
    const fmt = (n: number) => n.toLocaleString('en-US');
    return {
      pages: out,
      truncated: true,
      warnings: [
        `the text was cut at ${fmt(maxChars)} characters: reading stopped on page ${p.page} at character ${fmt(end)} of that page; the rest was not read`,
      ],
    };
  }
  return { pages: out, truncated: false, warnings: [] };
}
