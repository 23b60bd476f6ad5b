import { EXTRACTION_LIMITS, fieldKind, type ValueKind } from './extraction.js';
import {
  canonicalDecimal,
  compactId,
  findEmails,
  isCurrencyCode,
  isoDate,
  isValidIban,
  PLAIN_DECIMAL,
} from './extraction-values.js';

/**
 * Review corrections of extracted scalar fields (spec section 2, Records: "made in the dashboard, are recorded, and
 * regenerate exports without a new charge"; docs/processing.md "Review corrections"). A reviewer gives a field's
 * value in the form the exports hold it; this module says whether the value has that form and returns it
 * normalised. Pure: no I/O.
 */

/** At most this many corrections in one request (one new revision of the exports). */
export const MAX_CORRECTIONS_PER_REQUEST = 100;
/** At most this many revisions per job: each regenerates the exports, and the log keeps every one. */
export const MAX_REVIEW_REVISIONS = 200;

/** What a corrected value of each kind must look like, for the error message. */
const FORMS: Readonly<Record<ValueKind, string>> = {
  date: 'a date as YYYY-MM-DD, e.g. "2026-03-31"',
  amount: 'a plain decimal with "." and no grouping, e.g. "1234.50" or "-12"',
  number: 'a plain decimal with "." and no grouping, e.g. "3" or "2.5"',
  currency: 'an ISO 4217 currency code, e.g. "EUR"',
  email: 'an e-mail address, e.g. "billing@example.com"',
  iban: 'an IBAN with a valid checksum, e.g. "DE89370400440532013000"',
  tax_id: 'a tax identifier of 4 to 20 letters and digits, e.g. "DE123456789" or "12-3456789"',
  text: `text of 1 to ${EXTRACTION_LIMITS.maxValueChars} characters without control characters`,
};

const CONTROL = /\p{Cc}/u;

/** The form a correction of `field` takes, as the review shows it beside the field (and a refusal words it). */
export const expectedForm = (field: string): string => FORMS[fieldKind(field)];

/**
 * A corrected value of field `field` in its stored form, or `{ error }` naming the expected form. `null` clears the
 * field (the document does not give it). Amounts and numbers are stored canonical (`"0012.50"` → `"12.5"`, as the
 * engines' values compare); IBANs and VAT numbers in their compact upper-case form; text trimmed.
 */
export function correctedValue(field: string, raw: unknown): { value: string | null } | { error: string } {
  if (raw === null) return { value: null };
  const kind = fieldKind(field);
  const expected = { error: `${field} takes ${FORMS[kind]}, or null when the document does not give it` };
  if (typeof raw !== 'string') return expected;
  const s = raw.trim();
  if (s === '' || s.length > EXTRACTION_LIMITS.maxValueChars || CONTROL.test(s)) return expected;
  switch (kind) {
    case 'date': {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/u.exec(s);
      return m && isoDate(Number(m[1]), Number(m[2]), Number(m[3])) === s ? { value: s } : expected;
    }
    case 'amount':
    case 'number':
      return PLAIN_DECIMAL.test(s) ? { value: canonicalDecimal(s) } : expected;
    case 'currency':
      return isCurrencyCode(s) ? { value: s } : expected;
    case 'email': {
      // One address, the whole value, by the grammar the engines read addresses with; at most 64 before the @.
      const found = findEmails(s);
      return found.length === 1 && found[0]!.raw === s && s.indexOf('@') <= 64 && s.length <= 254
        ? { value: s }
        : expected;
    }
    case 'iban': {
      const iban = s.replace(/\s/gu, '').toUpperCase();
      return isValidIban(iban) ? { value: iban } : expected;
    }
    case 'tax_id': {
      // EINs keep their hyphen (as the engines give them); other ids their compact form.
      if (/^\d{2}-\d{7}$/u.test(s)) return { value: s };
      const id = compactId(s);
      return /^[A-Z0-9]{4,20}$/u.test(id) ? { value: id } : expected;
    }
    case 'text':
      return { value: s };
  }
}
