/**
 * Value grammars of field extraction (issue 17): where dates, amounts, currencies, tax ids, e-mail addresses and IBANs
 * occur in a text and what they normalise to (the forms of domain/extraction.ts: dates `YYYY-MM-DD`, amounts plain
 * decimal strings with `.`, currencies ISO 4217 codes). Shared by the offline engine (which reads values) and the
 * evidence check (which asks whether a value can be read from its snippet), so both agree on the formats.
 *
 * Pure: no I/O. Every `find*` returns matches in text order with their index and raw text.
 */

export interface Match {
  index: number;
  /** The exact text matched. */
  raw: string;
}

const NOT_BEFORE = String.raw`(?<![\p{L}\p{N}])`;
const NOT_AFTER = String.raw`(?![\p{L}\p{N}])`;

// ---------------------------------------------------------------------------------------------------------- amounts

export interface AmountMatch extends Match {
  /** Plain decimal string, `.` as decimal mark, no grouping; `-` when the amount is negative. */
  value: string;
}

/**
 * Grouping characters: comma, dot, space (incl. no-break and narrow no-break), apostrophe (incl. ’). Digits around a
 * colon (a time, or OCR's "526:79") and a number followed by a spaced decimal part ("7.891 ,21") are no amount.
 */
const AMOUNT_RE = new RegExp(
  String.raw`(?<![\p{L}\p{N}.,/_#]|[\p{L}\p{N}][-–]|\p{N}:)(\d{1,3}(?:([,.'’\u00a0\u202f ])\d{3})(?:\2\d{3})*(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,3})?)(?![\p{N}%]|\s?%|[.,'’]\d|[-/:]\d|\s[.,]\d)`,
  'gu',
);

/** A document's decimal mark, when its numbers show one (documentDecimalMark). */
export type DecimalMark = ',' | '.';

/**
 * Reads one amount token (digits with grouping and a decimal mark) the way the engine does; null when malformed. One
 * mark before exactly three digits ("5,000", "1.500") is grouping, unless `decimalMark` (the document's, known from
 * its other numbers) is that mark: then it is the decimal mark ("5,000" kg on a page of decimal commas is 5).
 */
export function normaliseAmountToken(token: string, decimalMark?: DecimalMark | null): string | null {
  const t = token.replace(/[\s\u00a0\u202f]/gu, ' ');
  if (!/^\d[\d,.'’ ]*$/u.test(t)) return null;
  const seps = [...t.matchAll(/[,.'’ ]/gu)].map((m) => ({ ch: m[0], at: m.index }));
  if (seps.length === 0) return stripZeros(t);
  const last = seps[seps.length - 1]!;
  const tail = t.slice(last.at + 1);
  const marks = seps.filter((x) => x.ch === '.' || x.ch === ',');
  let decimal: string | null = null;
  if (last.ch === '.' || last.ch === ',') {
    const sameMark = marks.filter((x) => x.ch === last.ch).length;
    if (marks.some((x) => x.ch !== last.ch) || seps.some((x) => x.ch !== last.ch))
      decimal = sameMark === 1 ? last.ch : null; // 1,234.56 · 1 234,56
    else if (sameMark === 1 && (tail.length !== 3 || /^0+$/u.test(t.slice(0, last.at)) || last.ch === decimalMark))
      decimal = last.ch; // 12.5 · 0.125; 1.234 is grouping, unless the document's decimal mark is the point
  }
  const intPart = decimal ? t.slice(0, last.at) : t;
  const frac = decimal ? tail : '';
  const groups = intPart.split(/[,.'’ ]/u);
  // Groups after the first must have three digits, one grouping character throughout, never the decimal mark.
  if (groups.length > 1) {
    const groupSeps = new Set(seps.filter((s) => s.at < (decimal ? last.at : Infinity)).map((s) => s.ch));
    if (groupSeps.size !== 1 || (decimal && groupSeps.has(decimal))) return null;
    if (groups[0]!.length > 3 || groups.slice(1).some((g) => g.length !== 3)) return null;
  }
  return stripZeros(groups.join('') + (frac ? `.${frac}` : ''));
}

function stripZeros(s: string): string {
  const [i, f] = s.split('.');
  const int = i!.replace(/^0+(?=\d)/u, '');
  return f === undefined ? int : `${int}.${f}`;
}

/**
 * Amounts in a text (percentages, parts of dates and of identifiers excluded). `decimalMark`: the document's, for a
 * token whose one mark stands before three digits (normaliseAmountToken).
 */
export function findAmounts(text: string, decimalMark?: DecimalMark | null): AmountMatch[] {
  const out: AmountMatch[] = [];
  for (const m of text.matchAll(AMOUNT_RE)) {
    const value = normaliseAmountToken(m[1]!, decimalMark);
    if (value === null) continue;
    const before = text.slice(Math.max(0, m.index - 2), m.index);
    const negative = /(^|[^\p{L}\p{N}])[-−]$/u.test(before) || /\($/u.test(before);
    let raw = m[1]!;
    let index = m.index;
    // Space grouping reads "2 100.00" as 2100.00 (groups of exactly three digits): how such amounts are written.
    if (negative && /[-−]$/u.test(before)) {
      raw = text.slice(m.index - 1, m.index + m[1]!.length);
      index = m.index - 1;
    } else if (negative && text[m.index + raw.length] === ')') {
      raw = `(${raw})`;
      index = m.index - 1;
    }
    out.push({ index, raw, value: negative ? `-${value}` : value });
  }
  return out;
}

/**
 * The decimal mark a document writes, from its amounts whose mark cannot be grouping: one or two digits after the last
 * mark ("12,50", "3.5"), or two different marks ("1.234,56": the last one). The mark of at least 80 % of those, and of
 * two at least (a time "08.30" or an OCR misreading among decimal commas does not change it); null when the document
 * shows none or both alike.
 */
export function documentDecimalMark(texts: readonly string[]): DecimalMark | null {
  let commas = 0;
  let points = 0;
  for (const text of texts)
    for (const a of findAmounts(text)) {
      const raw = a.raw.replace(/^[-(]+|\)$/gu, '');
      const marks = [...raw.matchAll(/[.,]/gu)].map((m) => m[0]);
      const last = marks[marks.length - 1];
      if (!last) continue;
      const tail = raw.slice(raw.lastIndexOf(last) + 1);
      if (tail.length > 2 && new Set(marks).size === 1) continue;
      if (last === ',') commas++;
      else points++;
    }
  const n = commas + points;
  if (n < 2) return null;
  if (commas >= 0.8 * n) return ',';
  if (points >= 0.8 * n) return '.';
  return null;
}

/**
 * Every decimal value an amount token can mean under either decimal mark (for the evidence check): "1,234" →
 * {1234, 1.234}; "1.234,56" → {1234.56}; canonical form: no leading zeros, no trailing fractional zeros.
 */
export function amountReadings(token: string): Set<string> {
  const out = new Set<string>();
  const t = token.replace(/[\s\u00a0\u202f'’]/gu, ' ').trim();
  if (!/^\d[\d,. ]*$/u.test(t)) return out;
  const marks = [...t.matchAll(/[.,]/gu)].map((m) => m.index);
  // The last mark as the decimal mark, every other separator as grouping.
  if (marks.length > 0) {
    const at = marks[marks.length - 1]!;
    out.add(canonicalDecimal(`${t.slice(0, at).replace(/[., ]/gu, '')}.${t.slice(at + 1)}`));
  }
  // Every separator as grouping, when the groups after the first have three digits.
  const groups = t.split(/[., ]/u);
  if (groups.length === 1 || (groups[0]!.length <= 3 && groups.slice(1).every((g) => g.length === 3)))
    out.add(canonicalDecimal(groups.join('')));
  return out;
}

/**
 * A number as the exports hold it: a plain decimal with `.`, at most 15 integer and 10 fraction digits (what a
 * spreadsheet number keeps exactly). Reviewers' amounts must have this form; the XLSX writes such values as numbers.
 */
export const PLAIN_DECIMAL = /^-?\d{1,15}(\.\d{1,10})?$/u;

/** `"0012.500"` → `"12.5"`, `"-3.00"` → `"-3"`; anything that is not a plain decimal string is returned as it is. */
export function canonicalDecimal(s: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/u.exec(s);
  if (!m) return s;
  const int = m[2]!.replace(/^0+(?=\d)/u, '');
  const frac = (m[3] ?? '').replace(/0+$/u, '');
  const sign = m[1] && (int !== '0' || frac) ? '-' : '';
  return `${sign}${int}${frac ? `.${frac}` : ''}`;
}

// ------------------------------------------------------------------------------------------------------------ dates

const MONTHS: Record<string, number> = {};
const monthNames: [number, string[]][] = [
  [1, ['january', 'jan', 'januar', 'jänner', 'janvier', 'janv', 'enero', 'ene', 'gennaio', 'gen', 'januari']],
  [
    2,
    [
      'february',
      'feb',
      'februar',
      'février',
      'fevrier',
      'févr',
      'fevr',
      'fév',
      'fev',
      'febrero',
      'febbraio',
      'februari',
    ],
  ],
  [3, ['march', 'mar', 'märz', 'maerz', 'mrz', 'mars', 'marzo', 'maart', 'mrt', 'marts']],
  [4, ['april', 'apr', 'avril', 'avr', 'abril', 'abr', 'aprile']],
  [5, ['may', 'mai', 'mayo', 'maggio', 'mag', 'mei', 'maj']],
  [6, ['june', 'jun', 'juni', 'juin', 'junio', 'giugno', 'giu']],
  [7, ['july', 'jul', 'juli', 'juillet', 'juil', 'julio', 'luglio', 'lug']],
  [8, ['august', 'aug', 'août', 'aout', 'agosto', 'ago', 'augustus', 'augusti']],
  [9, ['september', 'sep', 'sept', 'septembre', 'septiembre', 'setiembre', 'settembre', 'sett', 'set']],
  [10, ['october', 'oct', 'oktober', 'okt', 'octobre', 'octubre', 'ottobre', 'ott']],
  [11, ['november', 'nov', 'novembre', 'noviembre']],
  [
    12,
    ['december', 'dec', 'dezember', 'dez', 'décembre', 'decembre', 'déc', 'diciembre', 'dic', 'dicembre', 'desember'],
  ],
];
for (const [n, names] of monthNames) for (const name of names) MONTHS[name] = n;

/** The month (1–12) a written-out month name or abbreviation names, in any case, in EN/DE/FR/ES/IT/NL; else null. */
export const monthNumber = (name: string): number | null => MONTHS[name.toLowerCase()] ?? null;
const MONTH_ALT = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join('|');

const ISO_DATE = new RegExp(`${NOT_BEFORE}(\\d{4})([-/.])(\\d{1,2})\\2(\\d{1,2})${NOT_AFTER}`, 'gu');
const NUMERIC_DATE = new RegExp(`${NOT_BEFORE}(\\d{1,2})([-/.])(\\d{1,2})\\2(\\d{4}|\\d{2})${NOT_AFTER}`, 'gu');
// "3. März 2024", "1er janvier 2024", "5 de mayo de 2024", "1º aprile 2024", "3 maart 2024".
const DAY_MONTH_YEAR = new RegExp(
  `${NOT_BEFORE}(\\d{1,2})(?:st|nd|rd|th|er|º|°|ª)?\\.?[\\s/-]*(?:de\\s+)?(${MONTH_ALT})\\.?,?[\\s/-]*(?:del?\\s+)?(\\d{4})${NOT_AFTER}`,
  'giu',
);
// "March 3, 2024", "August 3 , 2014" (a text layer that spaces the comma off).
const MONTH_DAY_YEAR = new RegExp(
  `${NOT_BEFORE}(${MONTH_ALT})\\.?\\s*(\\d{1,2})(?:st|nd|rd|th)?(?:\\s*,\\s*|\\s+)(\\d{4})${NOT_AFTER}`,
  'giu',
);

export type DateOrder = 'dmy' | 'mdy';

export interface DateMatch extends Match {
  /**
   * The date when the text says it unambiguously; null for a numeric day/month date whose two first parts could
   * each be the month (e.g. 03/04/2024): `dmy` and `mdy` then give both readings.
   */
  value: string | null;
  dmy: string | null;
  mdy: string | null;
  /** The separator of a numeric date (`/`, `.`, `-`), null for ISO and written-out months. */
  separator: string | null;
}

/** A valid calendar date as `YYYY-MM-DD`, else null. Two-digit years: 00–69 → 20xx, 70–99 → 19xx. */
export function isoDate(year: number, month: number, day: number): string | null {
  const y = year < 100 ? (year < 70 ? 2000 + year : 1900 + year) : year;
  if (month < 1 || month > 12 || day < 1 || y < 1900 || y > 2199) return null;
  const dim = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][
    month - 1
  ]!;
  if (day > dim) return null;
  return `${y}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Dates in a text in the common formats (ISO, numeric day/month either way, written-out months in EN/DE/FR/ES/IT). */
export function findDates(text: string): DateMatch[] {
  const out: DateMatch[] = [];
  const taken: [number, number][] = [];
  const free = (i: number, len: number) => !taken.some(([a, b]) => i < b && i + len > a);
  const add = (m: RegExpMatchArray, d: Omit<DateMatch, 'index' | 'raw'>) => {
    if (!free(m.index!, m[0].length)) return;
    taken.push([m.index!, m.index! + m[0].length]);
    out.push({ index: m.index!, raw: m[0], ...d });
  };
  for (const m of text.matchAll(ISO_DATE)) {
    const v = isoDate(+m[1]!, +m[3]!, +m[4]!);
    if (v) add(m, { value: v, dmy: v, mdy: v, separator: null });
  }
  for (const m of text.matchAll(DAY_MONTH_YEAR)) {
    const v = isoDate(+m[3]!, MONTHS[m[2]!.toLowerCase()]!, +m[1]!);
    if (v) add(m, { value: v, dmy: v, mdy: v, separator: null });
  }
  for (const m of text.matchAll(MONTH_DAY_YEAR)) {
    const v = isoDate(+m[3]!, MONTHS[m[1]!.toLowerCase()]!, +m[2]!);
    if (v) add(m, { value: v, dmy: v, mdy: v, separator: null });
  }
  for (const m of text.matchAll(NUMERIC_DATE)) {
    const a = +m[1]!;
    const b = +m[3]!;
    const y = +m[4]!;
    const dmy = isoDate(y, b, a);
    const mdy = isoDate(y, a, b);
    if (!dmy && !mdy) continue;
    const value = dmy && mdy ? (dmy === mdy ? dmy : null) : (dmy ?? mdy);
    add(m, { value, dmy, mdy, separator: m[2]! });
  }
  return out.sort((x, y) => x.index - y.index);
}

/**
 * The reading of a numeric date under a document's order: its own value when unambiguous, else the reading of the
 * order, else null (never a guess).
 */
export function resolveDate(d: DateMatch, order: DateOrder | null): string | null {
  if (d.value) return d.value;
  if (order === 'dmy') return d.dmy;
  if (order === 'mdy') return d.mdy;
  return null;
}

/** Every date a text could mean under any common format (evidence check). */
export function dateReadings(text: string): Set<string> {
  const out = new Set<string>();
  for (const d of findDates(text)) for (const v of [d.value, d.dmy, d.mdy]) if (v) out.add(v);
  return out;
}

// ------------------------------------------------------------------------------------------------------- currencies

const ISO_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
/** Symbols and what they name; `$` alone is read as USD unless the document names another dollar by its code. */
export const CURRENCY_SYMBOLS: Readonly<Record<string, readonly string[]>> = {
  US$: ['USD'],
  C$: ['CAD'],
  CA$: ['CAD'],
  A$: ['AUD'],
  AU$: ['AUD'],
  NZ$: ['NZD'],
  HK$: ['HKD'],
  S$: ['SGD'],
  R$: ['BRL'],
  MX$: ['MXN'],
  $: ['USD', 'CAD', 'AUD', 'NZD', 'HKD', 'SGD', 'MXN', 'TWD', 'ARS', 'CLP', 'COP'],
  '€': ['EUR'],
  '£': ['GBP'],
  '¥': ['JPY', 'CNY'],
  '₹': ['INR'],
  '₩': ['KRW'],
  '₽': ['RUB'],
  '₺': ['TRY'],
  '₪': ['ILS'],
  '₫': ['VND'],
  '₱': ['PHP'],
  zł: ['PLN'],
  Kč: ['CZK'],
  'Fr.': ['CHF'],
  kr: ['SEK', 'NOK', 'DKK', 'ISK'],
};
const SYMBOL_ALT = Object.keys(CURRENCY_SYMBOLS)
  .sort((a, b) => b.length - a.length)
  .map((s) => s.replace(/[$.]/gu, '\\$&'))
  .join('|');
const CURRENCY_RE = new RegExp(`(${SYMBOL_ALT})|${NOT_BEFORE}([A-Z]{3})${NOT_AFTER}`, 'gu');

export interface CurrencyMatch extends Match {
  /** The ISO 4217 codes the marker can name (one for a code, one or more for a symbol). */
  codes: readonly string[];
  /** True for an ISO code written out. */
  isCode: boolean;
}

/** Currency symbols and ISO 4217 codes in a text. Codes are only those Intl knows; `kr`, `Fr.` need a word boundary. */
export function findCurrencies(text: string): CurrencyMatch[] {
  const out: CurrencyMatch[] = [];
  for (const m of text.matchAll(CURRENCY_RE)) {
    if (m[1]) {
      // A symbol that is a word ("Fr.", "kr", "zł") stands alone: "Mo.-Fr. 08.30" is Friday, not francs.
      if (/^[\p{L}]/u.test(m[1]) && /[^\s(]/u.test(text[m.index - 1] ?? ' ')) continue;
      if (/[\p{L}]$/u.test(m[1]) && /[\p{L}]/u.test(text[m.index + m[1].length] ?? '')) continue;
      out.push({ index: m.index, raw: m[1], codes: CURRENCY_SYMBOLS[m[1]]!, isCode: false });
    } else if (m[2] && ISO_CURRENCIES.has(m[2])) {
      out.push({ index: m.index, raw: m[2], codes: [m[2]], isCode: true });
    }
  }
  return out;
}

export function isCurrencyCode(s: string): boolean {
  return /^[A-Z]{3}$/u.test(s) && ISO_CURRENCIES.has(s);
}

/** Words for a currency that are neither a code nor a symbol. */
const CURRENCY_WORDS: Readonly<Record<string, string>> = { euro: 'EUR', euros: 'EUR', sfr: 'CHF' };

/**
 * The ISO 4217 code a marker alone names: a code in any case, a symbol of CURRENCY_SYMBOLS that names one currency
 * (any case: `us$`, `fr.`), or a word (`euro`); null when it names none or several (a bare `$`, `kr`, `¥`).
 */
export function currencyCodeOf(marker: string): string | null {
  const t = marker.trim();
  if (isCurrencyCode(t.toUpperCase())) return t.toUpperCase();
  const symbol = Object.entries(CURRENCY_SYMBOLS).find(([k]) => k.toLowerCase() === t.toLowerCase());
  if (symbol) return symbol[1].length === 1 ? symbol[1][0]! : null;
  return CURRENCY_WORDS[t.toLowerCase()] ?? null;
}

/** The usual day/month order where a currency is used: USD → month first; most others → day first; else unknown. */
export function dateOrderOfCurrency(code: string): DateOrder | null {
  if (code === 'USD') return 'mdy';
  return [
    'ARS',
    'CLP',
    'COP',
    'EUR',
    'GBP',
    'CHF',
    'AUD',
    'NZD',
    'INR',
    'SEK',
    'NOK',
    'DKK',
    'PLN',
    'CZK',
    'HUF',
    'BRL',
    'ZAR',
    'TRY',
    'RUB',
    'MXN',
    'ILS',
    'SGD',
    'HKD',
  ].includes(code)
    ? 'dmy'
    : null;
}

/**
 * The countries whose own currency is written `$` (a peso) and the marks a document of theirs prints: its tax
 * authority or tax id's name, its tax status words, the peso's code or name. A `strong` mark says the country alone;
 * the others (a word that may be a name elsewhere) only on a Spanish or Portuguese document.
 */
const PESO_COUNTRIES: readonly { code: string; country: string; strong: readonly RegExp[]; weak: RegExp | null }[] = [
  {
    code: 'ARS',
    country: 'Argentina',
    strong: [
      /(?<![\p{L}\p{N}])(?:CUIT|CUIL|AFIP|ARS)(?![\p{L}\p{N}])/u,
      /responsable\s+inscripto|monotributista|pesos\s+argentinos/iu,
    ],
    weak: /(?<![\p{L}\p{N}])ARCA(?![\p{L}\p{N}])/u,
  },
  {
    code: 'MXN',
    country: 'Mexico',
    strong: [
      /(?<![\p{L}\p{N}])(?:CFDI|MXN)(?![\p{L}\p{N}])/u,
      /R\.?F\.?C\.?\s*:?\s*[A-ZÑ&]{3,4}\d{6}[A-Z\d]{3}(?![\p{L}\p{N}])/u,
      /pesos\s+mexicanos/iu,
    ],
    weak: /(?<![\p{L}\p{N}])M\.\s?N\.(?!\p{L})/u,
  },
  {
    code: 'CLP',
    country: 'Chile',
    strong: [/(?<![\p{L}\p{N}])CLP(?![\p{L}\p{N}])/u, /pesos\s+chilenos/iu],
    weak: /(?<![\p{L}\p{N}.])S\.?I\.?I\.?(?![\p{L}\p{N}])/u,
  },
  {
    code: 'COP',
    country: 'Colombia',
    strong: [/(?<![\p{L}\p{N}])COP(?![\p{L}\p{N}])/u, /pesos\s+colombianos/iu],
    weak: /(?<![\p{L}\p{N}])DIAN(?![\p{L}\p{N}])/u,
  },
];

/** Words of a Spanish or Portuguese invoice (the languages of the countries writing a peso or real as `$`). */
const IBERIAN_WORDS =
  /(?<!\p{L})(?:factura|fecha|importe|cantidad|precio|comprobante|punto\s+de\s+venta|raz[oó]n\s+social|domicilio|emisi[oó]n|vencimiento|moneda|descripci[oó]n|nota\s+fiscal|data\s+de\s+emiss[aã]o|quantidade|pre[cç]o|valor\s+total)(?!\p{L})/iu;

/** How a document's bare `$` is read (dollarOfDocument). */
export interface DollarReading {
  /** The ISO 4217 code given for a bare `$`. */
  code: string;
  /** Why that code needs a look (the document's evidence is missing or mixed), or null. */
  reason: string | null;
  /** Whether the document's numeric dates are written day first (a peso country's, or a Spanish/Portuguese page's). */
  dayFirst: boolean;
}

/**
 * What a bare `$` on this document is, from the document's own evidence: the peso of the one peso country it names
 * (PESO_COUNTRIES: "CUIT", "Responsable Inscripto", "CFDI" …), dates day first; a US dollar with a reason to review
 * it when it names several such countries, or none but is written in Spanish or Portuguese (a peso is likelier than a
 * dollar there, but not sure: Ecuador, Panama, El Salvador pay in dollars); a US dollar otherwise (an English or
 * European invoice in dollars, "$1,234.56" or "1.234,56 $").
 */
export function dollarOfDocument(text: string): DollarReading {
  const iberian = IBERIAN_WORDS.test(text);
  const named = PESO_COUNTRIES.filter(
    (c) => c.strong.some((r) => r.test(text)) || (iberian && c.weak !== null && c.weak.test(text)),
  );
  if (named.length === 1) return { code: named[0]!.code, reason: null, dayFirst: true };
  if (named.length > 1)
    return {
      code: 'USD',
      reason: `the document names ${named.map((c) => `${c.country} (${c.code})`).join(' and ')}: its "$" may be a peso or a US dollar`,
      dayFirst: iberian,
    };
  if (iberian)
    return {
      code: 'USD',
      reason:
        'a "$" on a Spanish or Portuguese document that names no country may be a peso (ARS, MXN, CLP, COP …) rather than a US dollar',
      dayFirst: true,
    };
  return { code: 'USD', reason: null, dayFirst: false };
}

// ---------------------------------------------------------------------------------------- tax ids, e-mail and IBAN

const VAT_PREFIX = 'AT|BE|BG|CY|CZ|DE|DK|EE|EL|GR|ES|FI|FR|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|XI|GB|CHE|NO';
const VAT_RE = new RegExp(`${NOT_BEFORE}(?:${VAT_PREFIX})[ .-]?[0-9A-Z](?:[.-]?[0-9A-Z]| \\d){7,13}${NOT_AFTER}`, 'gu');
const EIN_RE = new RegExp(`${NOT_BEFORE}\\d{2}-\\d{7}${NOT_AFTER}`, 'gu');
/** An Argentine CUIT/CUIL as printed: its kind (20, 23, 24, 27: a person; 30, 33, 34: a company), 8 digits, a check digit. */
const CUIT_RE = new RegExp(`${NOT_BEFORE}(?:2[0347]|3[034])-\\d{8}-\\d${NOT_AFTER}`, 'gu');
/** A CUIT's eleven digits, written without separators. */
const CUIT_DIGITS = /^(?:2[0347]|3[034])\d{9}$/u;

/**
 * The CUIT's check digit (AFIP): the first ten digits weighted 5 4 3 2 7 6 5 4 3 2, the sum's remainder modulo 11
 * taken from 11 (11 → 0; 10 is no check digit: such a number is issued under prefix 23 or 33 instead).
 */
export function cuitValid(id: string): boolean {
  const d = id.replace(/[\s.-]/gu, '');
  if (!CUIT_DIGITS.test(d)) return false;
  const sum = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2].reduce((s, w, i) => s + w * Number(d[i]), 0);
  const check = 11 - (sum % 11);
  return check !== 10 && (check === 11 ? 0 : check) === Number(d[10]);
}

/**
 * A Spanish company's tax id (CIF, today's NIF of a legal person) printed without its `ES` prefix ("B87530432"): its
 * letter, seven digits and a control character, taken only when the control character holds (validCif).
 */
const CIF_RE = new RegExp(`${NOT_BEFORE}([ABCDEFGHJNPQRSUVW])[-]?(\\d{7})[-]?([0-9A-J])${NOT_AFTER}`, 'gu');

/**
 * The CIF's control: the digits at odd places doubled (digits of the product summed) plus those at even places; the
 * control digit is 10 minus the sum's last digit (0 for 10), or its letter J=0, A=1 … I=9 (the letter's kind decides
 * which is printed; both are accepted here).
 */
function validCif(_letter: string, digits: string, control: string): boolean {
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const d = Number(digits[i]);
    sum += i % 2 === 0 ? Math.floor((2 * d) / 10) + ((2 * d) % 10) : d;
  }
  const c = (10 - (sum % 10)) % 10;
  return control === String(c) || control === 'JABCDEFGHI'[c];
}

export interface ValueMatch extends Match {
  value: string;
}

/** Compact form of an identifier: upper case, without spaces, dots and hyphens. */
export function compactId(s: string): string {
  return s.toUpperCase().replace(/[\s.\-–]/gu, '');
}

/**
 * EU (and GB, CH, NO) VAT numbers and US EINs. VAT numbers normalise to their compact form, EINs stay `12-3456789`.
 * Nothing inside an IBAN is a tax id (`DE12 5854 0436 9189 …` has the shape of a German VAT number).
 */
export function findTaxIds(text: string): ValueMatch[] {
  const out: ValueMatch[] = [];
  for (const m of text.matchAll(VAT_RE)) {
    const raw = m[0].replace(/\s+$/u, '');
    if ((raw.match(/\d/gu) ?? []).length < 7) continue;
    out.push({ index: m.index, raw, value: compactId(raw) });
  }
  for (const m of text.matchAll(EIN_RE)) out.push({ index: m.index, raw: m[0], value: m[0] });
  for (const m of text.matchAll(CUIT_RE))
    if (cuitValid(m[0])) out.push({ index: m.index, raw: m[0], value: compactId(m[0]) });
  for (const m of text.matchAll(CIF_RE))
    if (validCif(m[1]!, m[2]!, m[3]!) && !insideAny(out, m.index, m.index + m[0].length))
      out.push({ index: m.index, raw: m[0], value: compactId(m[0]) });
  const ibans = findIbans(text);
  return out.filter((t) => !insideAny(ibans, t.index, t.index + t.raw.length)).sort((a, b) => a.index - b.index);
}

/** True when `[start, end)` overlaps one of the matches. */
export function insideAny(matches: readonly Match[], start: number, end: number): boolean {
  return matches.some((m) => start < m.index + m.raw.length && end > m.index);
}

const EMAIL_RE = /(?<![\w.%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![\w-])/gu;

export function findEmails(text: string): ValueMatch[] {
  return [...text.matchAll(EMAIL_RE)].map((m) => ({ index: m.index, raw: m[0], value: m[0] }));
}

/** IBAN lengths of the countries that use one (SWIFT IBAN registry); other countries: 15–34. */
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24,
  AE: 23,
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SA: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  TR: 26,
};

/** ISO 13616 check: country length and the mod-97 checksum of the compact form. */
export function isValidIban(iban: string): boolean {
  const s = iban.replace(/\s/gu, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/u.test(s)) return false;
  const len = IBAN_LENGTHS[s.slice(0, 2)];
  if (len !== undefined && s.length !== len) return false;
  return mod97(s.slice(4) + s.slice(0, 4)) === 1;
}

const IBAN_RE = new RegExp(`${NOT_BEFORE}[A-Z]{2}\\d{2}(?: ?[A-Z0-9]){11,32}`, 'gu');

/** On an OCR page the check digits may be read as the letter O ("DEO8 7009 …"). */
const OCR_IBAN_RE = new RegExp(`${NOT_BEFORE}[A-Z]{2}[\\dO]{2}(?: ?[A-Z0-9]){11,32}`, 'gu');

/**
 * The compact form of an IBAN the OCR printed with the letter O for the digit 0 ("DEO8 7009 0100 …"), when the
 * repaired form's checksum holds; null otherwise. Only O → 0 after the country code: the one confusion a checksum
 * still decides (a wrong repair passes mod 97 by chance once in 97, and the value is returned unsure).
 */
function repairedOcrIban(raw: string): string | null {
  const compact = raw.replace(/ /gu, '');
  if (!compact.slice(2).includes('O')) return null;
  const repaired = compact.slice(0, 2) + compact.slice(2).replace(/O/gu, '0');
  return isValidIban(repaired) ? repaired : null;
}

/**
 * IBANs with a valid checksum, printed or grouped by four; the value is the compact electronic form. With `ocr`
 * (an OCR page), an IBAN whose zeros were read as the letter O is found too, `repaired: true` (findIbans' callers
 * return it unsure: its printed form is not its value).
 */
export function findIbans(text: string, opts: { ocr?: boolean } = {}): Array<ValueMatch & { repaired?: true }> {
  const out: Array<ValueMatch & { repaired?: true }> = [];
  for (const m of text.matchAll(opts.ocr ? OCR_IBAN_RE : IBAN_RE)) {
    // The greedy match may run into the next word (e.g. "BIC"): shorten it to the longest valid IBAN ending at a
    // word or group boundary.
    for (let end = m[0].length; end >= 15; end--) {
      const raw = m[0].slice(0, end);
      if (raw.endsWith(' ') || /[A-Z0-9]/u.test(m[0][end] ?? '')) continue;
      if (isValidIban(raw)) {
        out.push({ index: m.index, raw, value: raw.replace(/ /gu, '') });
        break;
      }
      const repaired = opts.ocr ? repairedOcrIban(raw) : null;
      if (repaired) {
        out.push({ index: m.index, raw, value: repaired, repaired: true });
        break;
      }
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------------- VAT id formats and checks

/**
 * The format of each EU member state's VAT id after its prefix (EU VIES formats), and of GB/XI, CH and NO. Greece's
 * prefix is EL (GR is accepted as printed).
 */
const VAT_FORMATS: Readonly<Record<string, RegExp>> = {
  AT: /^U\d{8}$/u,
  BE: /^[01]\d{9}$/u,
  BG: /^\d{9,10}$/u,
  CY: /^\d{8}[A-Z]$/u,
  CZ: /^\d{8,10}$/u,
  DE: /^[1-9]\d{8}$/u,
  DK: /^\d{8}$/u,
  EE: /^\d{9}$/u,
  EL: /^\d{9}$/u,
  GR: /^\d{9}$/u,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/u,
  FI: /^\d{8}$/u,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/u,
  HR: /^\d{11}$/u,
  HU: /^\d{8}$/u,
  IE: /^\d[A-Z0-9+*]\d{5}[A-Z]{1,2}$/u,
  IT: /^\d{11}$/u,
  LT: /^(?:\d{9}|\d{12})$/u,
  LU: /^\d{8}$/u,
  LV: /^\d{11}$/u,
  MT: /^\d{8}$/u,
  NL: /^\d{9}B\d{2}$/u,
  PL: /^\d{10}$/u,
  PT: /^\d{9}$/u,
  RO: /^[1-9]\d{1,9}$/u,
  SE: /^\d{10}01$/u,
  SI: /^[1-9]\d{7}$/u,
  SK: /^[1-9]\d{9}$/u,
  GB: /^(?:\d{9}|\d{12}|GD[0-4]\d{2}|HA[5-9]\d{2})$/u,
  XI: /^(?:\d{9}|\d{12}|GD[0-4]\d{2}|HA[5-9]\d{2})$/u,
  CHE: /^\d{9}(?:MWST|TVA|IVA)?$/u,
  NO: /^\d{9}(?:MVA)?$/u,
};

const digitsOf = (s: string) => [...s].map(Number);
const digitSum = (n: number) => (n > 9 ? n - 9 : n);

/** Checksums of the member states whose VAT ids carry one that is published (true: it holds). */
const VAT_CHECKSUMS: Record<string, (body: string) => boolean> = {
  // ISO 7064 MOD 11,10.
  DE: (b) => {
    let product = 10;
    for (const d of digitsOf(b.slice(0, 8))) {
      let sum = (d + product) % 10;
      if (sum === 0) sum = 10;
      product = (2 * sum) % 11;
    }
    return (11 - product) % 10 === Number(b[8]);
  },
  AT: (b) => {
    const d = digitsOf(b.slice(1));
    const r =
      d[0]! + d[2]! + d[4]! + d[6]! + [d[1]!, d[3]!, d[5]!].reduce((s, x) => s + Math.floor(x / 5) + ((2 * x) % 10), 0);
    return (10 - ((r + 4) % 10)) % 10 === d[7];
  },
  BE: (b) => 97 - (Number(b.slice(0, 8)) % 97) === Number(b.slice(8)),
  // The key of a numeric French id: (12 + 3 × (SIREN mod 97)) mod 97; letter keys have no published check.
  FR: (b) => !/^\d{2}/u.test(b) || (12 + 3 * (Number(b.slice(2)) % 97)) % 97 === Number(b.slice(0, 2)),
  // Luhn over the 11 digits.
  IT: (b) => digitsOf(b).reduce((s, d, i) => s + (i % 2 === 1 ? digitSum(2 * d) : d), 0) % 10 === 0,
  // The RSIN's mod 11, or the mod 97 of the whole id (the numbers of sole traders since 2020).
  NL: (b) => {
    const d = digitsOf(b.slice(0, 9));
    const mod11 = d.slice(0, 8).reduce((s, x, i) => s + x * (9 - i), 0) % 11 === d[8];
    return mod11 || mod97(`NL${b}`) === 1;
  },
  ES: (b) => spanishIdValid(b),
  // Weights 8…2 and the last two digits (mod 97, or the 9755 series).
  GB: (b) => {
    if (!/^\d{9}/u.test(b)) return true;
    const d = digitsOf(b.slice(0, 9));
    const sum = d.slice(0, 7).reduce((s, x, i) => s + x * (8 - i), 0) + Number(b.slice(7, 9));
    return sum % 97 === 0 || (sum + 55) % 97 === 0;
  },
};
VAT_CHECKSUMS['XI'] = VAT_CHECKSUMS['GB']!;

/** ISO 7064 MOD 97-10 of an alphanumeric string (letters as 10–35). */
function mod97(s: string): number {
  let rem = 0;
  for (const ch of s.toUpperCase().replace(/[A-Z]/gu, (c) => String(c.charCodeAt(0) - 55)))
    rem = (rem * 10 + Number(ch)) % 97;
  return rem;
}

/** A Spanish NIF (DNI: 8 digits + letter), NIE (X/Y/Z) or CIF (letter, 7 digits, control digit or letter). */
function spanishIdValid(id: string): boolean {
  const letters = 'TRWAGMYFPDXBNJZSQVHLCKE';
  if (/^\d{8}[A-Z]$/u.test(id)) return letters[Number(id.slice(0, 8)) % 23] === id[8];
  if (/^[XYZ]\d{7}[A-Z]$/u.test(id))
    return letters[Number(String('XYZ'.indexOf(id[0]!)) + id.slice(1, 8)) % 23] === id[8];
  if (/^[ABCDEFGHJKLMNPQRSUVW]\d{7}[0-9A-J]$/u.test(id)) {
    const d = digitsOf(id.slice(1, 8));
    const sum = d.reduce((s, x, i) => s + (i % 2 === 0 ? digitSum(2 * x) : x), 0);
    const control = (10 - (sum % 10)) % 10;
    return id[8] === String(control) || id[8] === 'JABCDEFGHI'[control];
  }
  return false;
}

/**
 * What is wrong with a VAT id, or null: an EU (or GB, XI, CH, NO) prefix with its country's format and, where the
 * country publishes one, its checksum. A US EIN (`12-3456789`) has nothing to check; an id printed without its prefix
 * passes only as a Spanish NIF/CIF with a valid control character (how Spanish invoices print it at home). The reason
 * is written for a reviewer.
 */
/**
 * Whether a VAT id carries check digits and they hold (DE, AT, BE, FR, IT, NL, GB…): a misread digit then mostly fails
 * them, so the id confirms itself as a sum confirms an amount. False for a country without a checksum here.
 */
export function vatIdChecksumHolds(value: string): boolean {
  const m = /^(CHE|[A-Z]{2})(.*)$/u.exec(compactId(value));
  const format = m ? VAT_FORMATS[m[1]!] : undefined;
  const check = m ? VAT_CHECKSUMS[m[1]!] : undefined;
  return !!m && !!format && !!check && format.test(m[2]!) && check(m[2]!);
}

export function vatIdProblem(value: string): string | null {
  const id = compactId(value);
  if (/^\d{2}-\d{7}$/u.test(value.trim())) return null;
  const m = /^(CHE|[A-Z]{2})(.*)$/u.exec(id);
  const format = m ? VAT_FORMATS[m[1]!] : undefined;
  if (!m || !format) {
    if (spanishIdValid(id)) return null;
    // An Argentine CUIT (11 digits, "20-12345678-9").
    if (CUIT_DIGITS.test(id))
      return cuitValid(id) ? null : 'fails the check digit of Argentine CUITs (a digit may be misread or mistyped)';
    if (/^[A-Z]{2}\d/u.test(id)) return `starts with "${id.slice(0, 2)}", which is no EU country prefix`;
    return 'has no EU country prefix (two letters such as DE, FR) and is in no national format it could be printed in';
  }
  const [, country, body] = m;
  if (!format.test(body!)) return `is not in the format of ${country} VAT ids`;
  const check = VAT_CHECKSUMS[country!];
  if (check && !check(body!)) return `fails the checksum of ${country} VAT ids (a digit may be misread or mistyped)`;
  return null;
}
