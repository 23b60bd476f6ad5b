import type { ExtractionProvider } from '../../extraction/extraction-provider.js';
import {
  EXTRACTION_LIMITS,
  fieldKind,
  LINE_ITEM_COLUMNS,
  type Box,
  type ExtractedValue,
  type ExtractionRequest,
  type ExtractionResult,
  type LineItem,
  type LineItemColumn,
  type PageText,
  type PositionedText,
  type ValueKind,
  unionBox,
} from '../../../domain/extraction.js';
import { SUM_SEPARATOR } from '../../../domain/extraction-evidence.js';
import { conceptOf } from '../../../domain/extraction-lexicon.js';
import { extractionAnswerSchema, extractionMessages, type AnswerValue } from './extraction-prompt.js';
import { normaliseModelValue } from './extraction-values.js';
import type { JsonChat } from './meeting-summary.js';

/**
 * The production extraction engine (issue 17, section 2): the document's text, page by page, goes to an
 * OpenAI-compatible chat model (openai-compatible-chat.ts) that answers every requested field and the line items
 * under a strict JSON schema, each non-null value with its page and the exact snippet it was read from
 * (extraction-prompt.ts). The answer is not trusted as it is:
 * - values are normalised again by their field's kind (extraction-values.ts); a value that cannot be read as its kind
 *   is left null (counted in the warnings);
 * - fields the model added are dropped, requested fields it left out are null;
 * - each snippet is looked up in the text (whitespace-insensitively; on the page the model named, else on the one
 *   other page that has it): its words give Evidence.box when the page has word positions; a snippet not found keeps
 *   the value with `box: null`, and the platform's evidence check flags it;
 * - more than EXTRACTION_LIMITS.maxLineItems line items are cut, with a warning.
 * A document without text is not sent. The text arrives capped (adapters/extraction/source-text.ts); its warnings are
 * passed on and a text over the cap (a caller that skipped the step) is cut here too. Failures are the chat
 * client's: ProviderUnavailableError (429, 5xx, 408, time-out), LanguageModelConfigError (401/403/404, a refused
 * request), LanguageModelAnswerError (no usable answer in the allowed attempts), AbortError.
 */
export class LanguageModelExtractionProvider implements ExtractionProvider {
  readonly name = 'openai';
  readonly model: string;

  constructor(private readonly chat: JsonChat) {
    this.model = chat.model;
  }

  async extract(request: ExtractionRequest): Promise<ExtractionResult> {
    const fields = [...new Set(request.fields)];
    for (const f of fields)
      if (!/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(f))
        throw new TypeError('field names are a letter then letters, digits or underscores, at most 64 characters');
    const document = capped(request.document);
    const warnings = [...document.warnings];
    const empty = (): ExtractedValue => ({ value: null, evidence: null, confidence: null });
    const result: ExtractionResult = {
      fields: Object.fromEntries(fields.map((f) => [f, empty()])),
      items: [],
      warnings,
    };
    if (!document.pages.some((p) => p.text.trim() !== '')) {
      warnings.push('The document has no text; the language model was not asked.');
      return result;
    }

    const { value: answer, rejected } = await this.chat.completeJson({
      messages: extractionMessages(document, fields, request.instructions),
      schemaName: 'document_fields',
      schema: extractionAnswerSchema(fields),
      signal: request.signal,
    });
    if (rejected.length > 0) {
      warnings.push(
        `The language model's first ${rejected.length === 1 ? 'answer was' : `${rejected.length} answers were`} unusable; it was asked again.`,
      );
    }

    const reader = new AnswerReader(document.pages);
    for (const f of fields)
      result.fields[f] = reader.read(answer.fields[f], fieldKind(f), f, conceptOf(f).id === 'tax');
    for (const row of answer.items) {
      if (result.items.length === EXTRACTION_LIMITS.maxLineItems) {
        warnings.push(
          `The document has more than ${EXTRACTION_LIMITS.maxLineItems} line items; only the first ${EXTRACTION_LIMITS.maxLineItems} were kept.`,
        );
        break;
      }
      const item = Object.fromEntries(
        LINE_ITEM_COLUMNS.map((c) => [
          c,
          reader.read(row[c], COLUMN_KINDS[c], `line item ${result.items.length + 1} ${c}`),
        ]),
      ) as LineItem;
      if (LINE_ITEM_COLUMNS.some((c) => item[c].value !== null)) result.items.push(item);
    }
    if (reader.computed.length > 0) {
      warnings.push(
        `Values the language model gave as a sum of figures were left empty (only a tax printed per VAT rate may be one): ${reader.computed.slice(0, 10).join(', ')}${reader.computed.length > 10 ? ', …' : ''}.`,
      );
    }
    if (reader.unreadable.length > 0) {
      const list = reader.unreadable.slice(0, 10).join(', ') + (reader.unreadable.length > 10 ? ', …' : '');
      warnings.push(`Values from the language model that are not valid for their kind were left empty: ${list}.`);
    }
    return result;
  }
}

const COLUMN_KINDS: Record<LineItemColumn, ValueKind> = {
  description: 'text',
  quantity: 'number',
  unit_price: 'amount',
  amount: 'amount',
};

/** The document with at most EXTRACTION_LIMITS.maxTextChars characters of text (normally already so). */
function capped(document: PositionedText): PositionedText {
  let left: number = EXTRACTION_LIMITS.maxTextChars;
  const pages: PageText[] = [];
  for (const page of document.pages) {
    if (left <= 0) break;
    if (page.text.length <= left) {
      pages.push(page);
      left -= page.text.length;
      continue;
    }
    const text = page.text.slice(0, left);
    pages.push({ ...page, text, words: page.words.filter((w) => w.offset + w.text.length <= text.length) });
    left = 0;
  }
  if (pages.length === document.pages.length && pages.at(-1)?.text === document.pages.at(-1)?.text) return document;
  const from = pages.at(-1)?.page ?? 1;
  return {
    pages,
    truncated: true,
    warnings: [
      ...document.warnings,
      `The text is longer than ${EXTRACTION_LIMITS.maxTextChars} characters: it was read up to page ${from} only.`,
    ],
  };
}

/** Turns the model's values into ExtractedValues: normalised, with evidence located in the page text. */
class AnswerReader {
  readonly unreadable: string[] = [];
  /** Values given as a sum of figures where none may be one. */
  readonly computed: string[] = [];
  private readonly indexes = new Map<number, PageIndex>();

  constructor(private readonly pages: readonly PageText[]) {}

  /**
   * `sum`: the value may be a sum of printed figures (a tax printed only per VAT rate), its snippet listing each
   * joined by SUM_SEPARATOR, as the offline engine gives it (domain/extraction-checks.ts, taxOfVatRows): each part is
   * looked up on the named page and the box is the one around them all. A sum given for any other value is computed,
   * not read: it is left empty (counted in `computed`).
   */
  read(answer: AnswerValue | undefined, kind: ValueKind, label: string, sum = false): ExtractedValue {
    if (!answer || answer.value === null) return { value: null, evidence: null, confidence: null };
    const value = normaliseModelValue(kind, answer.value);
    if (value === null) {
      if (answer.value.trim() !== '') this.unreadable.push(label);
      return { value: null, evidence: null, confidence: null };
    }
    const snippet = answer.snippet
      .replace(/\u200b/g, '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, EXTRACTION_LIMITS.maxValueChars * 2);
    const hit = this.locate(snippet, answer.page);
    if (!hit && snippet.includes(SUM_SEPARATOR)) {
      if (!sum || (kind !== 'amount' && kind !== 'number')) {
        this.computed.push(label);
        return { value: null, evidence: null, confidence: null };
      }
      return { value, evidence: this.locateSum(snippet, answer.page), confidence: null };
    }
    return {
      value,
      evidence: { page: hit?.page ?? answer.page, snippet: hit?.snippet ?? snippet, box: hit?.box ?? null },
      confidence: null,
    };
  }

  /** A sum's parts on the named page: the parts as printed, joined again, and the box around them (null if one is missing). */
  private locateSum(snippet: string, page: number): ExtractedValue['evidence'] {
    const named = this.pages.find((p) => p.page === page);
    const parts = snippet.split(SUM_SEPARATOR).map((p) => p.trim());
    const hits = named ? parts.map((p) => (p ? this.index(named).find(p) : null)) : [];
    if (!named || hits.some((h) => !h)) return { page, snippet: parts.join(SUM_SEPARATOR), box: null };
    const boxes = hits.map((h) => h!.box);
    const box = boxes.every((b): b is Box => b !== null) ? unionBox(boxes) : null;
    return { page, snippet: hits.map((h) => h!.snippet).join(SUM_SEPARATOR), box };
  }

  /** The snippet on the named page, else on the only other page that has it. */
  private locate(snippet: string, page: number): ({ page: number } & Found) | null {
    if (snippet === '') return null;
    const named = this.pages.find((p) => p.page === page);
    const onNamed = named ? this.index(named).find(snippet) : null;
    if (named && onNamed) return { page, ...onNamed };
    const others = this.pages
      .filter((p) => p !== named)
      .map((p) => ({ page: p.page, hit: this.index(p).find(snippet) }))
      .filter((o) => o.hit);
    return others.length === 1 ? { page: others[0]!.page, ...others[0]!.hit! } : null;
  }

  private index(page: PageText): PageIndex {
    let index = this.indexes.get(page.page);
    if (!index) this.indexes.set(page.page, (index = new PageIndex(page)));
    return index;
  }
}

/** A snippet found: the page's own text there (whitespace collapsed) and the box of its words. */
interface Found {
  snippet: string;
  box: Box | null;
}

/** A page's text with whitespace collapsed, mapped back to the original offsets, to find snippets and their words. */
class PageIndex {
  private readonly text: string;
  private readonly lower: string;
  /** For each character of `text`, its offset in the page's text. */
  private readonly offsets: number[] = [];

  constructor(private readonly page: PageText) {
    let text = '';
    let space = false;
    for (let i = 0; i < page.text.length; i++) {
      const c = page.text[i]!;
      if (/\s/.test(c)) {
        space = text.length > 0;
        continue;
      }
      if (space) {
        text += ' ';
        this.offsets.push(i - 1);
        space = false;
      }
      text += c;
      this.offsets.push(i);
    }
    this.text = text;
    this.lower = text.toLowerCase();
  }

  /** Where the snippet is (exactly, else ignoring case) and the box of its words (null when the page has none). */
  find(snippet: string): Found | null {
    let at = this.text.indexOf(snippet);
    if (at < 0 && this.lower.length === this.text.length) at = this.lower.indexOf(snippet.toLowerCase());
    if (at < 0) return null;
    const start = this.offsets[at]!;
    const end = this.offsets[at + snippet.length - 1]! + 1;
    return { snippet: this.text.slice(at, at + snippet.length), box: this.box(start, end) };
  }

  private box(start: number, end: number): Box | null {
    if (this.page.source === 'plain_text' || this.page.width <= 0 || this.page.height <= 0) return null;
    const words = this.page.words.filter((w) => w.offset < end && w.offset + w.text.length > start);
    if (words.length === 0) return null;
    return {
      x0: Math.min(...words.map((w) => w.box.x0)),
      y0: Math.min(...words.map((w) => w.box.y0)),
      x1: Math.max(...words.map((w) => w.box.x1)),
      y1: Math.max(...words.map((w) => w.box.y1)),
    };
  }
}
