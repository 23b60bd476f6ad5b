import { describe, expect, it } from 'vitest';
import { fieldKind } from '../../../domain/extraction.js';

describe('fieldKind', () => {
  it.each([
    ['invoice_number', 'text'],
    ['vendor_name', 'text'],
    ['invoiceDate', 'date'],
    ['due_date', 'date'],
    ['issued_on_day', 'date'],
    ['amount_due', 'amount'],
    ['total', 'amount'],
    ['subtotal', 'amount'],
    ['tax', 'amount'],
    ['tax_amount', 'amount'],
    ['vat', 'amount'],
    ['vat_number', 'tax_id'],
    ['taxId', 'tax_id'],
    ['supplier_vat_id', 'tax_id'],
    ['currency', 'currency'],
    ['supplier_email', 'email'],
    ['IBAN', 'iban'],
    ['quantity', 'number'],
    ['page_count', 'number'],
  ])('%s is %s', (name, kind) => expect(fieldKind(name)).toBe(kind));
});
