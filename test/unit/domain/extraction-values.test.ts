import { describe, expect, it } from 'vitest';
import {
  currencyCodeOf,
  documentDecimalMark,
  monthNumber,
  amountReadings,
  dateReadings,
  findAmounts,
  findCurrencies,
  findDates,
  findEmails,
  findIbans,
  findTaxIds,
  isValidIban,
  normaliseAmountToken,
  resolveDate,
} from '../../../domain/extraction-values.js';

describe('amounts', () => {
  it.each([
    ['1,234.56', '1234.56'],
    ['1.234,56', '1234.56'],
    ['1 234,56', '1234.56'],
    ['1\u00a0234,56', '1234.56'],
    ['1\u202f234.56', '1234.56'],
    ["1'234.50", '1234.50'],
    ['1’234.50', '1234.50'],
    ['1234.56', '1234.56'],
    ['1234,56', '1234.56'],
    ['12.5', '12.5'],
    ['1,234,567.89', '1234567.89'],
    ['1.234.567,89', '1234567.89'],
    ['1.234.567', '1234567'],
    ['0.125', '0.125'],
    ['007', '7'],
    // One mark before exactly three digits is grouping (amounts with three decimals are rare): the check accepts both.
    ['1,234', '1234'],
    ['1.234', '1234'],
  ])('%s reads as %s', (token, value) => expect(normaliseAmountToken(token)).toBe(value));

  it('one mark before three digits is the decimal mark when the document writes that mark as its decimal mark', () => {
    expect(normaliseAmountToken('5,000', ',')).toBe('5.000');
    expect(normaliseAmountToken('5,000', '.')).toBe('5000');
    expect(normaliseAmountToken('1.500', '.')).toBe('1.500');
    expect(normaliseAmountToken('1.500', ',')).toBe('1500');
    expect(normaliseAmountToken('1.234.567', '.')).toBe('1234567');
    expect(normaliseAmountToken('1.234,567', '.')).toBe('1234.567');
  });

  it("a document's decimal mark: the mark of 80 % of its amounts whose mark cannot be grouping, two at least", () => {
    expect(documentDecimalMark(['3,00 m² 4,00 12,00', 'Gesamt 1.234,56 EUR'])).toBe(',');
    expect(documentDecimalMark(['Qty 1,500 at $12.00 = $18,000.00'])).toBe('.');
    expect(documentDecimalMark(['Mo.-Fr. 08.30 Uhr 3,00 4,00 12,00 27,50 -2,00'])).toBe(',');
    expect(documentDecimalMark(['5,000 1.234 2,000'])).toBeNull();
    expect(documentDecimalMark(['12,00'])).toBeNull();
    expect(documentDecimalMark(['12,00 5.50 3,00 4.00'])).toBeNull();
  });

  it.each(['1,234,56', '12,34.5', '1.23,456', '12 34', 'abc'])('%s is malformed', (token) =>
    expect(normaliseAmountToken(token)).toBeNull(),
  );

  it('finds amounts in text, skipping percentages, dates and identifiers, with signs and currency symbols next to them', () => {
    const found = findAmounts(
      'Total: $1,234.56 VAT 20% 40.00 INV-2024-001 on 2024-03-05 -12.00 (5.00) € 1 234,56 EUR 9',
    );
    expect(found.map((a) => [a.raw, a.value])).toEqual([
      ['1,234.56', '1234.56'],
      ['40.00', '40.00'],
      ['-12.00', '-12.00'],
      ['(5.00)', '-5.00'],
      ['1 234,56', '1234.56'],
      ['9', '9'],
    ]);
  });

  it('lists every reading under either decimal mark, canonical', () => {
    expect([...amountReadings('1,234')].sort()).toEqual(['1.234', '1234']);
    expect([...amountReadings('1.234,50')]).toEqual(['1234.5']);
    expect([...amountReadings('12.5')]).toEqual(['12.5']);
  });
});

describe('dates', () => {
  it.each([
    ['2024-03-15', '2024-03-15'],
    ['2024/03/15', '2024-03-15'],
    ['2024.3.5', '2024-03-05'],
    ['15/03/2024', '2024-03-15'],
    ['03/15/2024', '2024-03-15'],
    ['15.03.2024', '2024-03-15'],
    ['15-03-24', '2024-03-15'],
    ['15 March 2024', '2024-03-15'],
    ['15 Mar 2024', '2024-03-15'],
    ['15-Mar-2024', '2024-03-15'],
    ['March 15, 2024', '2024-03-15'],
    ['Mar. 15th, 2024', '2024-03-15'],
    ['1st March 2024', '2024-03-01'],
    ['15. März 2024', '2024-03-15'],
    ['15 février 2024', '2024-02-15'],
    ['Sept. 3, 2023', '2023-09-03'],
    ['29/02/2024', '2024-02-29'],
    ['31/12/99', '1999-12-31'],
    ['05/05/2024', '2024-05-05'],
  ])('%s reads as %s', (text, value) => {
    const [d] = findDates(`Date: ${text}.`);
    expect(d?.value).toBe(value);
  });

  it.each(['31/02/2024', '29/02/2023', '2024-13-01', '32.01.2024', '12345/01/2024'])('%s is not a date', (text) => {
    expect(findDates(text).filter((d) => d.value || d.dmy || d.mdy)).toEqual([]);
  });

  it('a numeric date whose two first parts could both be the month is ambiguous: both readings, no value', () => {
    const [d] = findDates('03/04/2024');
    expect(d).toMatchObject({ value: null, dmy: '2024-04-03', mdy: '2024-03-04', separator: '/' });
    expect(resolveDate(d!, null)).toBeNull();
    expect(resolveDate(d!, 'dmy')).toBe('2024-04-03');
    expect(resolveDate(d!, 'mdy')).toBe('2024-03-04');
  });

  it('dateReadings gives every date a text could mean', () => {
    expect([...dateReadings('03/04/2024')].sort()).toEqual(['2024-03-04', '2024-04-03']);
    expect([...dateReadings('due 15 March 2024')]).toEqual(['2024-03-15']);
  });
});

describe('currencies, tax ids, e-mail, IBAN', () => {
  it('reads currency symbols and ISO codes Intl knows', () => {
    const found = findCurrencies('USD 100 € 5 £3 20 kr CHF 3 US$ 4 R$ 5 VAT 3 XYZ 2');
    expect(found.map((c) => [c.raw, c.codes.join('/')])).toEqual([
      ['USD', 'USD'],
      ['€', 'EUR'],
      ['£', 'GBP'],
      ['kr', 'SEK/NOK/DKK/ISK'],
      ['CHF', 'CHF'],
      ['US$', 'USD'],
      ['R$', 'BRL'],
    ]);
  });

  it('reads EU VAT numbers (compact) and US EINs', () => {
    const found = findTaxIds(
      'VAT: DE 123 456 789, GB123456789, EIN 12-3456789, CHE-123.456.789 MWST, FR12345678901, NL123456789B01',
    );
    expect(found.map((t) => t.value)).toEqual([
      'DE123456789',
      'GB123456789',
      '12-3456789',
      'CHE123456789',
      'FR12345678901',
      'NL123456789B01',
    ]);
  });

  it('reads a Spanish CIF without its ES prefix only when its control character holds', () => {
    expect(findTaxIds('CIF B87530432 · A-5800000-1 · B87530433 · X8753043B · ESB87530432').map((t) => t.value)).toEqual(
      ['B87530432', 'A58000001', 'ESB87530432'],
    );
  });

  it('reads e-mail addresses', () => {
    expect(findEmails('Mail billing@acme.example.com, or x.y+z@sub.y.io.').map((e) => e.value)).toEqual([
      'billing@acme.example.com',
      'x.y+z@sub.y.io',
    ]);
  });

  it('reads IBANs grouped or compact, stops before the next word, rejects a wrong checksum or length', () => {
    expect(isValidIban('DE89370400440532013000')).toBe(true);
    expect(isValidIban('GB82WEST12345698765432')).toBe(true);
    expect(isValidIban('DE89370400440532013001')).toBe(false);
    expect(isValidIban('DE8937040044053201300')).toBe(false);
    const found = findIbans(
      'IBAN: DE89 3704 0044 0532 0130 00 BIC COBADEFFXXX; GB82WEST12345698765432; bad DE89 3704 0044 0532 0130 01',
    );
    expect(found.map((i) => [i.raw, i.value])).toEqual([
      ['DE89 3704 0044 0532 0130 00', 'DE89370400440532013000'],
      ['GB82WEST12345698765432', 'GB82WEST12345698765432'],
    ]);
  });
});

describe('month names and currency markers on their own', () => {
  it('monthNumber reads names and abbreviations in any case; others are null', () => {
    expect(['January', 'févr', 'FEV', 'März', 'abr', 'ago', 'Dic', 'dicembre'].map(monthNumber)).toEqual([
      1, 2, 2, 3, 4, 8, 12, 12,
    ]);
    expect(monthNumber('Friday')).toBeNull();
  });
  it('currencyCodeOf: a code in any case, a symbol naming one currency, a word; ambiguous and unknown markers are null', () => {
    expect(['eur', 'EUR', '€', 'us$', 'Fr.', 'euros', 'sfr', 'zł'].map(currencyCodeOf)).toEqual([
      'EUR',
      'EUR',
      'EUR',
      'USD',
      'CHF',
      'EUR',
      'CHF',
      'PLN',
    ]);
    expect(['$', 'kr', '¥', 'XYZ', 'dollar', ''].map(currencyCodeOf)).toEqual([null, null, null, null, null, null]);
  });
});
