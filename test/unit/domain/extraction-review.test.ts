import { describe, expect, it } from 'vitest';
import { correctedValue } from '../../../domain/extraction-review.js';

/** A reviewer's value is accepted in the form the exports hold it, normalised, or refused naming that form. */
describe('correctedValue', () => {
  const ok = (field: string, raw: unknown) => correctedValue(field, raw);
  it('accepts each kind in its stored form and normalises it', () => {
    expect(ok('invoice_date', '2024-02-29')).toEqual({ value: '2024-02-29' });
    expect(ok('total', ' 0012.50 ')).toEqual({ value: '12.5' });
    expect(ok('total', '-3.00')).toEqual({ value: '-3' });
    expect(ok('quantity', '2.5')).toEqual({ value: '2.5' });
    expect(ok('currency', 'EUR')).toEqual({ value: 'EUR' });
    expect(ok('vendor_email', 'billing@example.com')).toEqual({ value: 'billing@example.com' });
    expect(ok('iban', 'de89 3704 0044 0532 0130 00')).toEqual({ value: 'DE89370400440532013000' });
    expect(ok('vendor_vat_number', 'DE 123.456.789')).toEqual({ value: 'DE123456789' });
    expect(ok('vendor_vat_number', '12-3456789')).toEqual({ value: '12-3456789' });
    expect(ok('vendor_name', '  Müller & Söhne  ')).toEqual({ value: 'Müller & Söhne' });
    expect(ok('total', null)).toEqual({ value: null });
    expect(ok('vendor_email', `${'a'.repeat(64)}@example.com`)).toEqual({ value: `${'a'.repeat(64)}@example.com` });
  });

  it('refuses other forms, naming the field and the form it takes', () => {
    const refused: Array<[string, unknown]> = [
      ['invoice_date', '2023-02-29'],
      ['invoice_date', '29/02/2024'],
      ['invoice_date', '2024-2-1'],
      ['total', '1,234.50'],
      ['total', '1e5'],
      ['total', '12.'],
      ['total', 12.5],
      ['total', '1'.repeat(16)],
      ['currency', 'eur'],
      ['currency', 'XYZ'],
      ['vendor_email', 'no at sign'],
      ['iban', 'DE89370400440532013001'],
      ['vendor_vat_number', 'A1'],
      ['vendor_name', ''],
      ['vendor_name', '   '],
      ['vendor_name', 'bell\u0007'],
      ['vendor_name', 'x'.repeat(2001)],
      ['vendor_name', ['a']],
      ['vendor_name', { value: 'a' }],
    ];
    for (const [field, raw] of refused) {
      const r = correctedValue(field, raw);
      expect(r, `${field} ${JSON.stringify(raw)}`).toHaveProperty('error');
      expect((r as { error: string }).error.startsWith(`${field} takes `)).toBe(true);
    }
    expect((correctedValue('total', '1,5') as { error: string }).error).toContain('"1234.50"');
  });
});
