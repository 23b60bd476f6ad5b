import { EXTRACTION_LIMITS, type ValueKind } from '../../../domain/extraction.js';
import { currencyCodeOf, isoDate, isValidIban, monthNumber } from '../../../domain/extraction-values.js';

/**
 * A language model's value normalised again on our side by its kind (domain/extraction.ts): the model is asked for
 * `YYYY-MM-DD` dates, `"1234.50"` amounts and ISO 4217 codes, but its formatting is not trusted. Returns the
 * normalised text, or null when the value cannot be read as its kind (the engine then leaves the field empty rather
 * than pass on a guess). Digits are never added or dropped: `"1,234.5"` becomes `"1234.5"`, not `"1234.50"`, so the
 * evidence check still finds the same digits in the snippet.
 *
 * The calendar, month names and currency markers are the domain's (domain/extraction-values.ts), shared with the
 * offline engine and the evidence check. The decimal rule differs on purpose: the model was asked for `.` as the
 * decimal mark, so a single `.` is one (`"1.234"` → `"1.234"`), where the offline engine reading a printed document
 * takes `1.234` as grouping.
 */
export function normaliseModelValue(kind: ValueKind, raw: string): string | null {
  const text = raw.replace(/\s+/g, ' ').trim();
  if (text === '') return null;
  switch (kind) {
    case 'date':
      return normaliseDate(text);
    case 'amount':
    case 'number':
      return normaliseDecimal(text);
    case 'currency':
      return normaliseCurrency(text);
    case 'iban':
      return normaliseIban(text);
    case 'email':
      return normaliseEmail(text);
    case 'tax_id': {
      const id = text.replace(/\s+/g, '').toUpperCase();
      return /^[A-Z0-9][A-Z0-9./-]{2,39}$/.test(id) ? id : null;
    }
    case 'text': {
      const chars = Array.from(text);
      return chars.length > EXTRACTION_LIMITS.maxValueChars
        ? chars.slice(0, EXTRACTION_LIMITS.maxValueChars).join('')
        : text;
    }
  }
}

/**
 * `2024-03-05`, `2024/3/5`, `2024-03-05T10:00:00Z`, `05.03.2024` (dots: day first), `25/12/2024` and `12/25/2024`
 * (slashes or dashes: whichever order is possible; both possible and different → null: the answer was asked for in
 * ISO form and we do not guess),
 * `5 March 2024`, `March 5, 2024`, `5. März 2024`.
 */
export function normaliseDate(text: string): string | null {
  const t = text.toLowerCase().replace(/(\d)(st|nd|rd|th)\b/g, '$1');
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[t ].*)?$/.exec(t);
  if (m) return isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})$/.exec(t);
  if (m) return isoDate(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /^(\d{1,2})([-/])(\d{1,2})\2(\d{4}|\d{2})$/.exec(t);
  if (m) {
    const a = Number(m[1]);
    const b = Number(m[3]);
    const y = Number(m[4]);
    if (a === b || a > 12 || b > 12) return a > 12 ? isoDate(y, b, a) : b > 12 ? isoDate(y, a, b) : isoDate(y, b, a);
    return null;
  }
  m = /^(\d{1,2})\.? ?([a-zäéû]+)\.?,? (\d{4})$/.exec(t);
  if (m && monthNumber(m[2]!)) return isoDate(Number(m[3]), monthNumber(m[2]!)!, Number(m[1]));
  m = /^([a-zäéû]+)\.? (\d{1,2}),? (\d{4})$/.exec(t);
  if (m && monthNumber(m[1]!)) return isoDate(Number(m[3]), monthNumber(m[1]!)!, Number(m[2]));
  return null;
}

/**
 * A plain decimal string (`.` as decimal point, no grouping, `-` for negatives) from `1234.50`, `$1,234.50`,
 * `1.234,50 €`, `1 234,50`, `1'234.50`, `(12.00)`, `EUR -5`. A single separator followed by exactly three digits is
 * grouping (`1,234` → `1234`); otherwise it is the decimal point (`12,5` → `12.5`). Anything else → null.
 */
export function normaliseDecimal(text: string): string | null {
  let t = text.replace(/[\s\u00a0\u202f']/g, '');
  let negative = false;
  const paren = /^\((.*)\)$/.exec(t);
  if (paren) {
    negative = true;
    t = paren[1]!;
  }
  // A sign, currency codes and symbols around the number (`-$5`, `$-5`, `EUR 5`, `5,00 €`, `5.00-`).
  let sign = /^([-+])/.exec(t);
  if (sign) t = t.slice(1);
  t = t
    .replace(/^(?:[A-Za-z]{3}|[^\d\-+.,]{1,3})(?=[-+]?\d)/, '')
    .replace(/(?<=\d)(?:[A-Za-z]{3}|[^\d.,+-]{1,3})$/, '');
  if (!sign) {
    sign = /^([-+])/.exec(t);
    if (sign) t = t.slice(1);
  }
  if (sign) negative = negative || sign[1] === '-';
  else if (/^\d[\d.,]*-$/.test(t)) {
    negative = true;
    t = t.slice(0, -1);
  }
  if (!/^(\d[\d.,]*\d|\d)$/.test(t)) return null;
  const lastDot = t.lastIndexOf('.');
  const lastComma = t.lastIndexOf(',');
  let intPart = t;
  let frac = '';
  if (lastDot >= 0 && lastComma >= 0) {
    const at = Math.max(lastDot, lastComma);
    const group = lastDot > lastComma ? ',' : '.';
    intPart = t.slice(0, at);
    frac = t.slice(at + 1);
    if (intPart.includes(t[at]!)) return null;
    if (!validGrouping(intPart, group)) return null;
    intPart = intPart.split(group).join('');
  } else if (lastDot >= 0 || lastComma >= 0) {
    const sep = lastDot >= 0 ? '.' : ',';
    const parts = t.split(sep);
    if (parts.length > 2) {
      if (!validGrouping(t, sep)) return null;
      intPart = parts.join('');
    } else if (sep === ',' && parts[1]!.length === 3) {
      intPart = parts.join('');
    } else {
      intPart = parts[0]!;
      frac = parts[1]!;
    }
  }
  if (!/^\d+$/.test(intPart) || (frac !== '' && !/^\d+$/.test(frac))) return null;
  const digits = intPart.replace(/^0+(?=\d)/, '');
  const value = frac ? `${digits}.${frac}` : digits;
  return negative && /[1-9]/.test(value) ? `-${value}` : value;
}

function validGrouping(text: string, sep: string): boolean {
  const groups = text.split(sep);
  return groups.length === 1 || (/^\d{1,3}$/.test(groups[0]!) && groups.slice(1).every((g) => /^\d{3}$/.test(g)));
}

/** An ISO 4217 code from a code in any case, an unambiguous symbol or a word (domain currencyCodeOf); a bare `$` is ambiguous. */
export const normaliseCurrency = (text: string): string | null => currencyCodeOf(text);

/** An IBAN without spaces, upper case, when it passes the same ISO 13616 check as the evidence check (isValidIban). */
export function normaliseIban(text: string): string | null {
  const iban = text
    .replace(/^iban:?/i, '')
    .replace(/[\s-]+/g, '')
    .toUpperCase();
  return isValidIban(iban) ? iban : null;
}

/** An e-mail address with its domain in lower case (`mailto:` and angle brackets removed). */
export function normaliseEmail(text: string): string | null {
  const t = text
    .replace(/^mailto:/i, '')
    .replace(/^<(.*)>$/, '$1')
    .trim();
  const m = /^([^\s@<>(),;:"]+)@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)$/.exec(t);
  return m ? `${m[1]}@${m[2]!.toLowerCase()}` : null;
}
