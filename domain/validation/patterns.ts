import { MAX_QUOTED_USDC } from '../proof/matching-delta.js';

/**
 * The text rules of the /proof request bodies as regular expressions, so that the zod schemas that parse the
 * bodies state them in the OpenAPI documents generated from them (a `.refine` or a trim-then-count does not
 * survive into JSON Schema; a `.regex` does). Each is written for both engines that read the documents: ECMAScript
 * (the server, ajv) and Python's `re` (schemathesis): no lookbehind, no named groups, no flags.
 * The server runs them on every body up to the size limit, so each is linear in its input: never two quantifiers
 * side by side that can match the same characters (a failing match would try every split between them).
 * test/unit/domain/validation-patterns.test.ts checks each against the arithmetic it stands for (`decimalToAtomic`,
 * `parseQuantity`, `parseTaxRate`, the calendar).
 */

/**
 * A string whose trimmed value (String.prototype.trim: the whitespace of `\s`) has `min` to `max` characters, as a
 * pattern on the untrimmed text: the validators trim after the check.
 */
export function trimmedLength(min: number, max: number): RegExp {
  const inner = min >= 2 ? `\\S[\\s\\S]{${min - 2},${max - 2}}\\S` : `\\S(?:[\\s\\S]{0,${max - 2}}\\S)?`;
  // Never two \s* side by side (`^\s*(?:…)?\s*$` is quadratic on a long run of whitespace that fails): when the text
  // may be empty, the trailing whitespace belongs to the optional part.
  return new RegExp(min === 0 ? `^\\s*(?:${inner}\\s*)?$` : `^\\s*${inner}\\s*$`);
}

/** Some character other than whitespace: the trimmed value is not empty. */
export const NOT_BLANK = /\S/;

/** The bound of every USDC amount of /proof, as the documents say it. */
export const AMOUNT_MAX_SENTENCE = `at most ${MAX_QUOTED_USDC} USDC (10^16), so that the amount plus its matching delta always has at most 17 integer digits`;

/** Every integer part of at most 17 digits that is at most `MAX_QUOTED_USDC` (10^16), with its fraction. */
const AT_MOST_MAX = `(?:0?[0-9]{1,16}(?:\\.[0-9]{1,6})?|${MAX_QUOTED_USDC}(?:\\.0{1,6})?)`;

/**
 * A USDC amount in the amount grammar (`AMOUNT_PATTERN`: 1 to 17 integer digits, up to 6 decimals), zero included,
 * at most the largest quote `MAX_QUOTED_USDC`: a unit price or a fixed tax (`isInvoiceAmount`).
 */
export const INVOICE_AMOUNT = new RegExp(`^${AT_MOST_MAX}$`);

/** A zero amount in the grammar (`0`, `000`, `0.000000`). */
const ZERO = '0{1,17}(?:\\.0{1,6})?';
/** The same as `INVOICE_AMOUNT` without zero: the amount of a payment request. */
export const POSITIVE_AMOUNT = new RegExp(`^(?!${ZERO}$)${AT_MOST_MAX}$`);

/** A quantity: greater than 0 and at most 1,000,000, 1 to 7 integer digits and up to 6 fraction digits (`parseQuantity`). */
export const QUANTITY = /^(?!0{1,7}(?:\.0{1,6})?$)(?:0?[0-9]{1,6}(?:\.[0-9]{1,6})?|1000000(?:\.0{1,6})?)$/;

/** A percentage 0 to 100 with up to 4 fraction digits, 1 to 3 integer digits (`parseTaxRate`). */
export const TAX_RATE = /^(?:0?[0-9]{1,2}(?:\.[0-9]{1,4})?|100(?:\.0{1,4})?)$/;

/**
 * `YYYY-MM-DD` naming a real day of the Gregorian calendar, years 0001 to 9999: February 29 only in years divisible
 * by 4 and not by 100, or by 400.
 */
export const CALENDAR_DATE = new RegExp(
  '^(?!0000)(?:' +
    '(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29' +
    '|[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))' +
    ')$',
);

/**
 * An e-mail address with a dot-atom local part of at most 64 characters and an ASCII (or punycode) host name of at
 * least two labels; no quoted parts or IP literals. Surrounding whitespace is allowed: the validators trim it.
 */
const LOCAL = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*";
const HOST = '(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})';
export const EMAIL_PATTERN = new RegExp(`^${LOCAL}@${HOST}$`);
// `[^@\\s]` (not `[^@]`): the lookahead fails at once where the leading whitespace is split, so a long run of it is
// linear, not 64 steps a character.
export const EMAIL = new RegExp(`^\\s*(?=[^@\\s]{1,64}@)${LOCAL}@${HOST}\\s*$`);
