/**
 * Where a party's name is printed (issue 29): the blocks of a page (its lines' groups of words stacked under each
 * other, aligned left, right or centred, less than two lines apart), what each block carries (an address, a VAT id, an
 * IBAN, a company's registration) and the name at its head. The offline engine reads unlabelled names from them (the
 * letterhead, the seller's legal footer, the addressee's window) and the document checks judge any engine's names
 * against them: a name must be the head of a block that carries the party's address, VAT id or IBAN, or the letterhead
 * at the top of page 1.
 *
 * Pure: no I/O.
 */
import { textLines, type PageText, type PositionedWord } from './extraction.js';
import {
  allWords,
  ATTENTION,
  CONCEPTS,
  escapeRegExp,
  isCopyMark,
  OTHER_LABELS,
  REGISTRATION_WORDS,
  SALUTATIONS,
  wordsPattern,
} from './extraction-lexicon.js';
import { compactId, findEmails, findIbans, findTaxIds } from './extraction-values.js';

/** A group of words on one line (a column's part of it), with its place. */
export interface Segment {
  start: number;
  end: number;
  text: string;
  /** Index of the line among the page's lines (blank ones included). */
  line: number;
  x0: number;
  x1: number;
  y: number;
}

export interface Block {
  page: number;
  segments: Segment[];
  /** A postcode with its town, a street with its number, or a post-office box. */
  address: boolean;
  taxIds: string[];
  ibans: string[];
  /** A company's registration or registered office (share capital, SIRET, commercial register, "Siège social"). */
  registration: boolean;
  /** At the top of page 1 (its first three lines, or the top twelfth of the page). */
  top: boolean;
}

/** The name at a block's head: where it is in the page text, and its text (a label before it left out). */
export interface BlockName {
  start: number;
  end: number;
  text: string;
  /** The name follows a label on its line or the line above ("Bill to:"). */
  labelled: boolean;
}

/** A postcode and its town (DE, FR, ES, IT, AT, CH, BE, NL "1234 AB", US "CA 94538", UK "BS1 4DJ"). */
const POSTCODE_TOWN =
  /(?<![\p{L}\p{N}])(?:[A-Z]{1,2}-)?\d{4,5}(?:\s?[A-Z]{2})?\s+\p{Lu}[\p{L}'’.-]{1,}|(?<![\p{L}])[A-Z]{2}\s+\d{5}(?:-\d{4})?(?!\d)|(?<![\p{L}\p{N}])[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}(?![\p{L}])/u;
/** A street and its number in the six languages, or a post-office box. */
const STREET = new RegExp(
  [
    String.raw`\d+\s*[a-zA-Z]?,?\s+(?:rue|avenue|av\.|bd|boulevard|chemin|place|allée|impasse|quai|route|cours|via|viale|piazza|corso|calle|c\/|avda\.?|avenida|plaza|paseo|carrer)\b`,
    String.raw`(?:rue|avenue|boulevard|chemin|place|allée|impasse|quai|route|via|viale|piazza|corso|calle|avenida|plaza|paseo|carrer)\s+\p{L}`,
    String.raw`\p{L}(?:straße|strasse|str\.|weg|gasse|platz|allee|ring|damm|ufer|chaussee|straat|laan|plein|gracht|kade|dijk|singel)\s*\d+`,
    String.raw`\b\d+[A-Z]?\s+(?:[\p{L}'’.-]+\s+){1,4}(?:street|st|road|rd|avenue|ave|lane|ln|drive|dr|boulevard|blvd|way|court|ct|place|pl|square|sq|terrace|parkway|pkwy|highway|hwy|north|south|east|west)\b\.?`,
    String.raw`\b(?:p\.?\s?o\.?\s?box|postfach|boîte postale|b\.?p\.?\s\d|apartado|casella postale|postbus)\b`,
  ].join('|'),
  'iu',
);
/**
 * A line that is an address, not a name: a postcode and its town, or a street with its number ("Bedrijfslaan 4",
 * "12 rue de la Paix"); a street word without a number ("Rue du Commerce") may be a company's name.
 */
export const isAddressLine = (text: string): boolean =>
  POSTCODE_TOWN.test(text) || (STREET.test(text) && /\d/u.test(text));

/** A company's registration or registered office (the lexicon's registration words). */
export const REGISTRATION = wordsPattern(allWords(REGISTRATION_WORDS));

const midY = (w: PositionedWord) => (w.box.y0 + w.box.y1) / 2;

/** The lines of a page with their words, and the page's typical line height. */
function pageSegments(page: PageText): { segments: Segment[]; lh: number } {
  const boxed = page.source !== 'plain_text' && page.words.some((w) => w.box.x1 > w.box.x0);
  const heights = page.words
    .map((w) => w.box.y1 - w.box.y0)
    .filter((h) => h > 0)
    .sort((a, b) => a - b);
  const lh = boxed && heights.length ? heights[Math.floor(heights.length / 2)]! : 10;
  const words = [...page.words].sort((a, b) => a.offset - b.offset);
  const segments: Segment[] = [];
  let wi = 0;
  let start = 0;
  let blanks = 0;
  page.text.split('\n').forEach((raw, line) => {
    const end = start + raw.length;
    if (boxed) {
      const lineWords: PositionedWord[] = [];
      while (wi < words.length && words[wi]!.offset < start) wi++;
      while (wi < words.length && words[wi]!.offset < end) lineWords.push(words[wi++]!);
      // Groups of words: a gap wider than 1.5 line heights parts two columns, and words more than half a line
      // higher or lower than the line's first are on a line of their own (a text layer may read two as one).
      const y0 = lineWords.length ? midY(lineWords[0]!) : 0;
      const bands = [
        lineWords.filter((w) => Math.abs(midY(w) - y0) <= 0.5 * lh),
        lineWords.filter((w) => Math.abs(midY(w) - y0) > 0.5 * lh),
      ];
      for (const band of bands) {
        const sorted = band.sort((a, b) => a.box.x0 - b.box.x0);
        let group: PositionedWord[] = [];
        const flush = () => {
          if (group.length === 0) return;
          const s = Math.min(...group.map((w) => w.offset));
          const e = Math.max(...group.map((w) => w.offset + w.text.length));
          segments.push({
            start: s,
            end: e,
            text: page.text.slice(s, e),
            line,
            x0: group[0]!.box.x0,
            x1: Math.max(...group.map((w) => w.box.x1)),
            y: midY(group[0]!),
          });
          group = [];
        };
        for (const w of sorted) {
          if (group.length && w.box.x0 - group[group.length - 1]!.box.x1 > 1.5 * lh) flush();
          group.push(w);
        }
        flush();
      }
    } else if (raw.trim()) {
      const lead = raw.length - raw.trimStart().length;
      segments.push({
        start: start + lead,
        end: start + raw.trimEnd().length,
        text: raw.trim(),
        line,
        x0: 0,
        x1: 0,
        y: (line + 2 * blanks) * lh,
      });
    } else {
      blanks++; // plain text: a blank line parts two blocks
    }
    start = end + 1;
  });
  return { segments, lh };
}

const blockCache = new WeakMap<PageText, Block[]>();

/** The blocks of a page, in reading order of their first lines. */
export function pageBlocks(page: PageText): Block[] {
  const cached = blockCache.get(page);
  if (cached) return cached;
  const { segments, lh } = pageSegments(page);
  const open: Segment[][] = [];
  for (const s of segments) {
    const aligned = (t: Segment) =>
      s.y - t.y > 0.5 * lh &&
      s.y - t.y <= 2.4 * lh &&
      (Math.abs(s.x0 - t.x0) <= 2 * lh ||
        Math.abs(s.x1 - t.x1) <= 2 * lh ||
        Math.abs((s.x0 + s.x1) / 2 - (t.x0 + t.x1) / 2) <= 2 * lh);
    const into = open.find((b) => aligned(b[b.length - 1]!));
    if (into) into.push(s);
    else open.push([s]);
  }
  const firstLines = [...new Set(segments.map((s) => s.line))].slice(0, 3);
  const minY = Math.min(...segments.map((s) => s.y));
  const blocks = open.map((segs): Block => {
    const text = segs.map((s) => s.text).join('\n');
    const head = segs[0]!;
    return {
      page: page.page,
      segments: segs,
      address: segs.some((s) => POSTCODE_TOWN.test(s.text) || STREET.test(s.text)),
      taxIds: findTaxIds(text).map((t) => t.value),
      ibans: findIbans(text).map((t) => t.value),
      registration: REGISTRATION.test(text),
      top:
        page.page === 1 && (firstLines.includes(head.line) || (page.height > 0 && head.y - minY <= page.height / 12)),
    };
  });
  blockCache.set(page, blocks);
  return blocks;
}

/** A label alone ("Bill to:", "Service Provider:"), or a label and its value ("Kunde: ACME"): the label's end. */
const LABEL_PREFIX = /^[^:\d]{1,40}:\s*/u;

/**
 * The name at the head of a block: the first of its first three lines that is not a label alone nor a note in
 * brackets, less a label before it on its line and an "ATTN:"; null when that text is no name (no three letters in a
 * row, more digits than letters, an e-mail address or a web address).
 */
export function blockName(block: Block): BlockName | null {
  let labelled = false;
  for (const s of block.segments.slice(0, 3)) {
    let start = s.start;
    let text = s.text;
    const label = LABEL_PREFIX.exec(text);
    if (label) {
      labelled = true;
      start += label[0].length;
      text = text.slice(label[0].length);
    }
    const attn = ATTENTION.exec(text);
    if (attn && attn[0].length > 0) {
      start += attn[0].length;
      text = text.slice(attn[0].length);
    }
    if (!text.trim() || /^\(.*\)$/u.test(text.trim())) continue;
    if (isLabelAlone(text)) {
      labelled = true;
      continue;
    }
    // A salutation alone ("Herrn", "Mrs") is over the name; before it on its line, it is not part of it.
    if (SALUTATION_ALONE.test(text.trim())) continue;
    const salutation = SALUTATION_BEFORE.exec(text);
    if (salutation) {
      start += salutation[0].length;
      text = text.slice(salutation[0].length);
    }
    // A street or a postcode and town where the name should be: the name's line is missing (OCR lost it).
    if (POSTCODE_TOWN.test(text) || STREET.test(text)) return null;
    return isPartyName(text) ? { start, end: start + text.length, text, labelled } : null;
  }
  return null;
}

/** Lower case without diacritics: OCR often loses them ("Rechnungsempfanger", "Kaufer"). */
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const LABELS = new Set([...CONCEPTS.flatMap((c) => c.labels), ...OTHER_LABELS].map(fold));
/** A known label alone, without its colon ("COBRAR A", "Ship to", "Rechnungsempfänger"), diacritics or not. */
const isLabelAlone = (text: string) =>
  LABELS.has(
    fold(text)
      .replace(/[\s:.#]+$/u, '')
      .replace(/\s+/gu, ' ')
      .trim(),
  );
const SALUTATION_ALONE = new RegExp(`^(?:${SALUTATIONS.map(escapeRegExp).join('|')})\\.?,?$`, 'iu');
const SALUTATION_BEFORE = new RegExp(`^(?:${SALUTATIONS.map(escapeRegExp).join('|')})\\.?\\s+(?=\\p{L}{2})`, 'iu');

/**
 * Text that can be a party's name: three letters in a row, more letters than digits, no e-mail or web address, no copy
 * mark ("ORIGINAL").
 */
export function isPartyName(text: string): boolean {
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  return (
    /\p{L}{3}/u.test(text) &&
    !isCopyMark(text) &&
    letters > (text.match(/\p{N}/gu) ?? []).length &&
    findEmails(text).length === 0 &&
    !/(?:https?:\/\/|www\.)/iu.test(text)
  );
}

/** A block's own name: at its head, without a label before it, no registration or tax id in it. */
export function ownName(b: Block): BlockName | null {
  const name = blockName(b);
  if (
    !name ||
    name.labelled ||
    name.start !== b.segments[0]!.start ||
    REGISTRATION.test(name.text) ||
    findTaxIds(name.text).length > 0
  )
    return null;
  return name;
}

/**
 * The seller's legal blocks, with their own names: a block carrying a company's registration with its address, or the
 * seller's VAT id (`ownVat`) with its address or registration (a legal footer, a letterhead with its VAT id).
 */
export function legalBlocks(
  pages: readonly PageText[],
  sellerVat: string | null,
): { page: PageText; block: Block; name: BlockName; ownVat: boolean }[] {
  return pages.flatMap((page) =>
    pageBlocks(page).flatMap((block) => {
      const ownVat = sellerVat !== null && block.taxIds.includes(compactId(sellerVat));
      if (!((ownVat && (block.address || block.registration)) || (block.registration && block.address))) return [];
      const name = ownName(block);
      return name ? [{ page, block, name, ownVat }] : [];
    }),
  );
}

/** The block and segment that hold page offset `at`. */
export function blockAt(page: PageText, at: number): { block: Block; segment: number } | null {
  for (const block of pageBlocks(page)) {
    const i = block.segments.findIndex((s) => at >= s.start && at < s.end);
    if (i >= 0) return { block, segment: i };
  }
  return null;
}

/** Whether the block carries a party's particulars after its name: an address, a VAT id, an IBAN or a registration. */
export const carriesParty = (b: Block) => b.address || b.taxIds.length > 0 || b.ibans.length > 0 || b.registration;

/** Same name, whatever the case, spacing and punctuation at its ends. */
export const sameName = (a: string, b: string) => normaliseName(a) === normaliseName(b);
const normaliseName = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
/** One name contains the other ("ACME" and "ACME GmbH"). */
export const nameContains = (a: string, b: string) => {
  const x = normaliseName(a);
  const y = normaliseName(b);
  return x.length > 0 && y.length > 0 && (x.includes(y) || y.includes(x));
};

/** What separates the parts of a sender's line ("Muster GmbH · Hauptstr. 1 · 10115 Berlin"). */
const SENDER_SEPARATOR = /\s+[·•∙|]\s+|\s+[-–]\s+/u;

/** A sender's line on page 1: its first part (the seller's name) and where the line stands. */
export interface SenderLine {
  page: PageText;
  name: BlockName;
  /** The left edge of its first word, the right edge of its last address part's words, its top and bottom. */
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/**
 * The sender's line of a business letter (DIN 5008: its return address printed small over the address window, "Muster
 * Software GmbH · Hauptstr. 1 · 10115 Berlin"): a line in the upper third of the page (page 1) of three parts or more,
 * separated by middle dots, bars or dashes, the first a name and a later one an address (a street with its number, a
 * postcode and town). Its first part is the seller's name; the address block under it is the addressee's.
 */
export function senderLineOf(page: PageText): SenderLine | null {
  if (page.page !== 1) return null;
  const third = page.height > 0 ? page.height / 3 : Infinity;
  for (const { text: raw, start: lineStart } of textLines(page.text)) {
    const word = page.words.find((w) => w.offset >= lineStart);
    if (word && word.offset < lineStart + raw.length && word.box.y0 > third) break;
    const parts = raw.split(SENDER_SEPARATOR);
    if (parts.length < 3) continue;
    const first = parts[0]!.trim();
    const address = parts.slice(1).findIndex((p) => isAddressLine(p));
    if (!isPartyName(first) || isAddressLine(first) || address < 0) continue;
    const at = lineStart + raw.indexOf(first);
    // The line's own words, from its first part to its last address part (the text layer may have put a block printed
    // beside it on the same line: "… 79100 Freiburg Telefon: 0761 123456").
    const lastPart = parts[address + 1]!;
    const end = lineStart + raw.indexOf(lastPart) + lastPart.length;
    const words = page.words.filter((w) => w.offset >= at && w.offset < end);
    if (words.length === 0) return null;
    return {
      page,
      name: { text: first, start: at, end: at + first.length, labelled: false },
      x0: Math.min(...words.map((w) => w.box.x0)),
      x1: Math.max(...words.map((w) => w.box.x1)),
      y0: Math.min(...words.map((w) => w.box.y0)),
      y1: Math.max(...words.map((w) => w.box.y1)),
    };
  }
  return null;
}

/** A line of its own before the addressee's name in an address block ("Herrn", "Firma", "Mr"). */
const ADDRESS_SALUTATION = new RegExp(
  `^(?:${[...SALUTATIONS, 'firma', 'familie', 'an', 'messrs', 'mme', 'sig.ra', 'spett.le'].map(escapeRegExp).join('|')})\\.?$`,
  'iu',
);

/**
 * The addressee under a sender's line (senderLineOf): the lines that start at the sender line's left edge (within a
 * line height) below it, each within three line heights of the one above, cut at a wide gap (a header block printed on
 * the right on the same rows is not part of them). The first (after a salutation on a line of its own) is the
 * addressee's name when it is a party's name, no address, no label (no colon) and no tax id, and an address line (a
 * street with its number, a postcode and town) follows it within three lines. Null otherwise.
 */
export function addresseeUnderSender(page: PageText): BlockName | null {
  const s = senderLineOf(page);
  if (!s) return null;
  const lh = Math.max(4, s.y1 - s.y0);
  const under = page.words.filter((w) => w.box.y0 >= s.y1 - 1 && w.box.x0 >= s.x0 - lh && w.box.x0 < s.x1);
  // The column's lines, top down: words grouped by their tops.
  const rows: PositionedWord[][] = [];
  for (const w of [...under].sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0)) {
    const row = rows.find((r) => Math.abs(r[0]!.box.y0 - w.box.y0) < lh / 2);
    if (row) row.push(w);
    else rows.push([w]);
  }
  const column: PositionedWord[][] = [];
  let bottom = s.y1;
  for (const row of rows) {
    const ws = row.sort((a, b) => a.box.x0 - b.box.x0);
    if (Math.abs(ws[0]!.box.x0 - s.x0) > lh) continue;
    if (ws[0]!.box.y0 - bottom > 3 * lh) break;
    const cut = ws.findIndex((w, k) => k > 0 && w.box.x0 - ws[k - 1]!.box.x1 > 2 * lh);
    column.push(cut < 0 ? ws : ws.slice(0, cut));
    bottom = Math.max(...ws.map((w) => w.box.y1));
  }
  const text = (ws: PositionedWord[]) => page.text.slice(ws[0]!.offset, ws.at(-1)!.offset + ws.at(-1)!.text.length);
  const k = column[0] && ADDRESS_SALUTATION.test(text(column[0]).trim()) ? 1 : 0;
  const head = column[k];
  if (!head) return null;
  const name = text(head);
  if (
    name.includes('\n') ||
    name.includes(':') ||
    !isPartyName(name) ||
    isAddressLine(name) ||
    findTaxIds(name).length > 0
  )
    return null;
  if (!column.slice(k + 1, k + 4).some((ws) => isAddressLine(text(ws)))) return null;
  return { text: name, start: head[0]!.offset, end: head.at(-1)!.offset + head.at(-1)!.text.length, labelled: false };
}
