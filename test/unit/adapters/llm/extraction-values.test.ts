import { describe, expect, it } from 'vitest';
import { normaliseModelValue } from '../../../../adapters/providers/llm/extraction-values.js';
import { EXTRACTION_LIMITS, type ValueKind } from '../../../../domain/extraction.js';

/** A language model's values normalised again by kind: its formatting is not trusted, digits are never invented. */
describe('normaliseModelValue', () => {
  const cases: [ValueKind, string, string | null][] = [
    ['date', '2024-03-05', '2024-03-05'],
    ['date', '2024/3/5', '2024-03-05'],
    ['date', '2024-03-05T00:00:00Z', '2024-03-05'],
    ['date', '05.03.2024', '2024-03-05'],
    ['date', '25/12/2024', '2024-12-25'],
    ['date', '12/25/2024', '2024-12-25'],
    ['date', '03/04/2024', null], // day and month order unknown: not guessed
    ['date', '4/4/24', '2024-04-04'],
    ['date', '5 March 2024', '2024-03-05'],
    ['date', 'March 5th, 2024', '2024-03-05'],
    ['date', '5. März 2024', '2024-03-05'],
    ['date', '2024-02-30', null],
    ['date', 'next Friday', null],
    ['amount', '1234.50', '1234.50'],
    ['amount', '$1,234.50', '1234.50'],
    ['amount', '1.234,50 €', '1234.50'],
    ['amount', '1 234,50', '1234.50'],
    ['amount', "1'234.50", '1234.50'],
    ['amount', '1,234', '1234'],
    ['amount', '12,5', '12.5'],
    ['amount', '1,234,567.8', '1234567.8'],
    ['amount', '(12.00)', '-12.00'],
    ['amount', '-$5', '-5'],
    ['amount', 'EUR -5.00', '-5.00'],
    ['amount', '5.00-', '-5.00'],
    ['amount', '0.00', '0.00'],
    ['amount', '1,23,4', null],
    ['amount', 'twelve', null],
    ['amount', '12.5.2024', null],
    ['number', '2', '2'],
    ['number', '1,5', '1.5'],
    ['currency', 'eur', 'EUR'],
    ['currency', '€', 'EUR'],
    ['currency', '£', 'GBP'],
    ['currency', 'US$', 'USD'],
    ['currency', '$', null], // ambiguous
    ['currency', 'XYZ', null],
    ['iban', 'de89 3704 0044 0532 0130 00', 'DE89370400440532013000'],
    ['iban', 'DE89 3704 0044 0532 0130 01', null], // check digits wrong
    ['email', 'mailto:Billing@ACME.Example', 'Billing@acme.example'],
    ['email', 'not an address', null],
    ['tax_id', 'de 123 456 789', 'DE123456789'],
    ['tax_id', '12-3456789', '12-3456789'],
    ['text', '  ACME\n  Supplies  ', 'ACME Supplies'],
    ['text', '   ', null],
  ];
  it.each(cases)('%s %j → %j', (kind, raw, expected) => {
    expect(normaliseModelValue(kind, raw)).toBe(expected);
  });

  it('caps text at EXTRACTION_LIMITS.maxValueChars', () => {
    expect(normaliseModelValue('text', 'x'.repeat(EXTRACTION_LIMITS.maxValueChars + 10))).toHaveLength(
      EXTRACTION_LIMITS.maxValueChars,
    );
  });
});
