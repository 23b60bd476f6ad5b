import type { PageText, PositionedWord } from '../../domain/extraction.js';
import { textPageStarts } from '../../domain/pricing.js';

/**
 * UTF-8 text as pages, and the cap on a document's text (EXTRACTION_LIMITS.maxTextChars; docs/processing.md,
 * "Source text").
 */

const ZERO_BOX = { x0: 0, y0: 0, x1: 0, y1: 0 } as const;

/**
 * UTF-8 text as pages: the pages it is quoted and charged for, one per started 4,000 bytes of the file, each ending at
 * a form feed, line break or space near its 4,000-byte mark (domain/pricing.ts, `textPageStarts`). A byte-order mark
 * is dropped; a form feed inside a page is a block break like a blank line. On each page, each line's words are
 * separated by single spaces, blank lines are kept as one blank line (a block), words have zero boxes. Stops making
 * pages once `budget` characters are made (the cap cuts the rest anyway), so a 20 MB text costs no more than that.
 */
export function plainTextPages(source: Uint8Array | string, budget = Number.POSITIVE_INFINITY): PageText[] {
  const bytes = typeof source === 'string' ? Buffer.from(source, 'utf8') : source;
  const starts = textPageStarts(bytes);
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const pages: PageText[] = [];
  let made = 0;
  for (const [i, start] of starts.entries()) {
    if (made > budget) break;
    const part = decoder.decode(bytes.subarray(Math.max(start, bom), starts[i + 1] ?? bytes.length));
    const page = plainTextPage(i + 1, part, budget - made);
    made += page.text.length;
    pages.push(page);
  }
  return pages;
}

/** One page of plain text (see plainTextPages), stopping once `room` characters are made. */
function plainTextPage(page: number, part: string, room: number): PageText {
  let text = '';
  let blank = false;
  const words: PositionedWord[] = [];
  for (const line of part.replace(/\r\n?/g, '\n').replace(/\f/g, '\n\n').split('\n')) {
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
    if (text.length > room) break;
  }
  return { page, text, words, source: 'plain_text', width: 0, height: 0 };
}

/**
 * Cuts the pages' text at `maxChars` characters over the document (the pages' `text` together): the page where the
 * limit falls keeps its whole words up to it, later pages are left out, and a warning names the page and the
 * character of its text where reading stopped.
 */
export function capText(
  pages: readonly PageText[],
  maxChars: number,
): { pages: PageText[]; truncated: boolean; warnings: string[] } {
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
