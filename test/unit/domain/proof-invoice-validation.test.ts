import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../domain/errors.js';
import {
  SEND_NOW_MESSAGE,
  isCalendarDate,
  parseContactCreate,
  parseInvoiceCreate,
} from '../../../domain/validation/proof-invoice.js';

const CON = `con_${'A1b2C3d4E5'.repeat(2)}`;
const WAL = `wal_${'x'.repeat(20)}`;
const base = () => ({
  customer_id: CON,
  wallet_id: WAL,
  due_date: '2026-03-31',
  items: [{ description: 'Design work', quantity: '2', unit_usdc: '10.50' }],
});
const with_ = (patch: Record<string, unknown>) => ({ ...base(), ...patch });

function issuesOf(parse: (b: unknown) => unknown, body: unknown): Array<{ path: string; message: string }> {
  try {
    parse(body);
    return [];
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).code).toBe('validation_failed');
    return (e as DomainError).details['issues'] as Array<{ path: string; message: string }>;
  }
}
const invoicePaths = (body: unknown) => issuesOf(parseInvoiceCreate, body).map((i) => i.path);
const contactPaths = (body: unknown) => issuesOf(parseContactCreate, body).map((i) => i.path);

describe('invoice create body', () => {
  it('accepts a minimal body: tax_mode none, never sent, totals computed', () => {
    const r = parseInvoiceCreate(base());
    expect(r).toMatchObject({
      customer_id: CON,
      wallet_id: WAL,
      due_date: '2026-03-31',
      tax_mode: 'none',
      send_now: false,
    });
    expect(r.totals).toMatchObject({
      subtotal_atomic: 21_000_000n,
      tax_atomic: 0n,
      total_atomic: 21_000_000n,
      tax_rate: null,
    });
  });

  it('accepts every optional field, trims text and drops empty optional text', () => {
    const r = parseInvoiceCreate(
      with_({
        items: [
          { description: '  Consulting  ', quantity: '1.5', unit_usdc: '100' },
          { description: 'Free setup', quantity: '1', unit_usdc: '0' },
        ],
        tax_mode: 'exclusive',
        tax_rate: '19',
        tax_notes: ' VAT ',
        accounting: { reference: ' PO-1 ', cost_center: 'CC-9', ledger_account: '' },
        send_now: false,
        memo: '',
      }),
    );
    expect(r.items[0]!.description).toBe('Consulting');
    expect(r.tax_notes).toBe('VAT');
    expect(r.accounting).toEqual({ reference: 'PO-1', cost_center: 'CC-9', ledger_account: undefined });
    expect(r.memo).toBeUndefined();
    expect(r.totals).toMatchObject({
      subtotal_atomic: 150_000_000n,
      tax_atomic: 28_500_000n,
      total_atomic: 178_500_000n,
      tax_rate: '19',
    });
    expect(
      parseInvoiceCreate(with_({ tax_mode: 'fixed', tax_usdc: '0', tax_notes: 'VAT reverse charge' })).totals
        .tax_atomic,
    ).toBe(0n);
    expect(
      parseInvoiceCreate(with_({ tax_mode: 'inclusive', tax_rate: '7.5', accounting: {} })).totals.total_atomic,
    ).toBe(21_000_000n);
  });

  it.each([
    ['missing customer_id', { customer_id: undefined }, ['customer_id']],
    ['a customer id of the wrong prefix', { customer_id: `cus_${'a'.repeat(20)}` }, ['customer_id']],
    ['a customer id of 19 characters', { customer_id: `con_${'a'.repeat(19)}` }, ['customer_id']],
    ['a customer id with a symbol', { customer_id: `con_${'a'.repeat(19)}-` }, ['customer_id']],
    ['missing wallet_id', { wallet_id: undefined }, ['wallet_id']],
    ['a raw address as wallet', { wallet_id: `0x${'a'.repeat(40)}` }, ['wallet_id']],
    ['missing due_date', { due_date: undefined }, ['due_date']],
    ['a timestamp as due_date', { due_date: '2026-03-31T00:00:00Z' }, ['due_date']],
    ['missing items', { items: undefined }, ['items']],
    ['no items', { items: [] }, ['items']],
    [
      '101 items',
      { items: Array.from({ length: 101 }, () => ({ description: 'x', quantity: '1', unit_usdc: '1' })) },
      ['items'],
    ],
    ['items not an array', { items: { description: 'x' } }, ['items']],
    [
      'an empty description',
      { items: [{ description: '   ', quantity: '1', unit_usdc: '1' }] },
      ['items.0.description'],
    ],
    [
      'a description of 301',
      { items: [{ description: 'd'.repeat(301), quantity: '1', unit_usdc: '1' }] },
      ['items.0.description'],
    ],
    ['a numeric quantity', { items: [{ description: 'x', quantity: 2, unit_usdc: '1' }] }, ['items.0.quantity']],
    ['a zero quantity', { items: [{ description: 'x', quantity: '0', unit_usdc: '1' }] }, ['items.0.quantity']],
    [
      'a quantity above 1,000,000',
      { items: [{ description: 'x', quantity: '1000000.5', unit_usdc: '1' }] },
      ['items.0.quantity'],
    ],
    [
      'a quantity of 7 decimals',
      { items: [{ description: 'x', quantity: '0.0000001', unit_usdc: '1' }] },
      ['items.0.quantity'],
    ],
    ['a numeric unit price', { items: [{ description: 'x', quantity: '1', unit_usdc: 1.5 }] }, ['items.0.unit_usdc']],
    [
      'a unit price of 7 decimals',
      { items: [{ description: 'x', quantity: '1', unit_usdc: '1.0000001' }] },
      ['items.0.unit_usdc'],
    ],
    ['an unknown item field', { items: [{ description: 'x', quantity: '1', unit_usdc: '1', sku: 'A' }] }, ['items.0']],
    ['an invoice totalling zero', { items: [{ description: 'x', quantity: '1', unit_usdc: '0' }] }, ['items']],
    [
      'a total above the maximum quote',
      { items: [{ description: 'x', quantity: '2', unit_usdc: '9999999999999999' }] },
      ['items'],
    ],
    [
      'a unit price above the maximum quote',
      { items: [{ description: 'x', quantity: '0.5', unit_usdc: '10000000000000000.000001' }] },
      ['items.0.unit_usdc'],
    ],
    ['a fixed tax above the maximum quote', { tax_mode: 'fixed', tax_usdc: '10000000000000001' }, ['tax_usdc']],
    ['an unknown tax_mode', { tax_mode: 'vat' }, ['tax_mode']],
    ['exclusive without tax_rate', { tax_mode: 'exclusive' }, ['tax_rate']],
    ['inclusive without tax_rate', { tax_mode: 'inclusive' }, ['tax_rate']],
    ['tax_rate without a rate mode', { tax_rate: '19' }, ['tax_rate']],
    ['tax_rate above 100', { tax_mode: 'exclusive', tax_rate: '100.5' }, ['tax_rate']],
    ['tax_rate with 5 decimals', { tax_mode: 'exclusive', tax_rate: '7.12345' }, ['tax_rate']],
    ['a numeric tax_rate', { tax_mode: 'exclusive', tax_rate: 19 }, ['tax_rate']],
    ['fixed without tax_usdc', { tax_mode: 'fixed' }, ['tax_usdc']],
    ['tax_usdc outside fixed mode', { tax_mode: 'exclusive', tax_rate: '19', tax_usdc: '1' }, ['tax_usdc']],
    ['a negative tax_usdc', { tax_mode: 'fixed', tax_usdc: '-1' }, ['tax_usdc']],
    ['tax_notes of 501', { tax_notes: 'n'.repeat(501) }, ['tax_notes']],
    ['accounting not an object', { accounting: 'PO-1' }, ['accounting']],
    ['an unknown accounting key', { accounting: { project: 'x' } }, ['accounting']],
    ['an accounting reference of 121', { accounting: { reference: 'r'.repeat(121) } }, ['accounting.reference']],
    ['a cost center of 121', { accounting: { cost_center: 'c'.repeat(121) } }, ['accounting.cost_center']],
    ['a ledger account of 121', { accounting: { ledger_account: 'l'.repeat(121) } }, ['accounting.ledger_account']],
    ['send_now true', { send_now: true }, ['send_now']],
    ['send_now as a string', { send_now: 'false' }, ['send_now']],
    ['memo of 1001', { memo: 'm'.repeat(1001) }, ['memo']],
    ['an unknown top-level field', { status: 'paid' }, ['(body)']],
  ])('rejects %s', (_label, patch, paths) => {
    expect(invoicePaths(with_(patch))).toEqual(paths);
  });

  it('accepts the bounds: 100 items, 300-character descriptions, 1,000,000 quantity, 120/500/1000-character text', () => {
    const items = Array.from({ length: 100 }, (_, i) => ({
      description: `${i}`.padEnd(300, 'd'),
      quantity: '1000000',
      unit_usdc: '0.000001',
    }));
    const r = parseInvoiceCreate(
      with_({
        items,
        tax_notes: 'n'.repeat(500),
        memo: 'm'.repeat(1000),
        accounting: { reference: 'r'.repeat(120), cost_center: 'c'.repeat(120), ledger_account: 'l'.repeat(120) },
      }),
    );
    expect(r.totals.total_atomic).toBe(100_000_000n);
    expect(r.items).toHaveLength(100);
  });

  it('explains that sending needs the send endpoint and user approval', () => {
    const [issue] = issuesOf(parseInvoiceCreate, with_({ send_now: true }));
    expect(issue!.message).toBe(SEND_NOW_MESSAGE);
    expect(issue!.message).toContain('POST /v1/invoices/{id}/send');
    expect(issue!.message).toContain('user_approved');
  });

  it('reports every problem at once, including the tax pairing while other fields are wrong', () => {
    const issues = issuesOf(parseInvoiceCreate, {
      customer_id: 'con_short',
      due_date: '2026-02-30',
      items: [
        { description: '', quantity: '0', unit_usdc: '1' },
        { description: 'ok', quantity: '1', unit_usdc: 'ten' },
      ],
      tax_mode: 'fixed',
      send_now: true,
      extra: 1,
    });
    expect(issues.map((i) => i.path).sort()).toEqual(
      [
        '(body)',
        'customer_id',
        'due_date',
        'items.0.description',
        'items.0.quantity',
        'items.1.unit_usdc',
        'send_now',
        'tax_usdc',
        'wallet_id',
      ].sort(),
    );
    expect(issues.find((i) => i.path === 'wallet_id')!.message).toBe('wallet_id is required');
  });

  it('reports both tax pairing issues together; the total is checked once the fields it depends on are valid', () => {
    expect(invoicePaths(with_({ tax_mode: 'exclusive', tax_usdc: '1' }))).toEqual(['tax_rate', 'tax_usdc']);
    const zeroItems = [{ description: 'x', quantity: '1', unit_usdc: '0' }];
    expect(invoicePaths(with_({ items: zeroItems, tax_usdc: '1' }))).toEqual(['tax_usdc']);
    expect(invoicePaths(with_({ items: zeroItems, tax_mode: 'fixed', tax_usdc: '1' }))).toEqual([]);
  });

  it('rejects a body that is not an object', () => {
    for (const body of [null, [], 'x', 42]) expect(invoicePaths(body)).toEqual(['(body)']);
  });

  it('puts the issues in the error message too, without echoing values', () => {
    try {
      parseInvoiceCreate(with_({ customer_id: 'con_SECRETVALUE' }));
      expect.unreachable();
    } catch (e) {
      expect((e as DomainError).message).toContain('customer_id:');
      expect((e as DomainError).message).not.toContain('SECRETVALUE');
    }
  });
});

describe('due_date is a real calendar date', () => {
  it.each(['2026-02-28', '2024-02-29', '2000-02-29', '2026-04-30', '2026-12-31', '2026-01-01', '9999-12-31'])(
    '%s is valid',
    (d) => {
      expect(isCalendarDate(d)).toBe(true);
      expect(parseInvoiceCreate(with_({ due_date: d })).due_date).toBe(d);
    },
  );

  it.each([
    '2026-02-30',
    '2026-02-29',
    '1900-02-29',
    '2026-04-31',
    '2026-06-31',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '2026-01-32',
    '0000-01-01',
    '2026-1-01',
    '26-01-01',
    ' 2026-01-01',
    '2026/01/01',
    '2026-01-01\n',
    '',
  ])('%j is rejected', (d) => {
    expect(isCalendarDate(d)).toBe(false);
    expect(invoicePaths(with_({ due_date: d }))).toEqual(['due_date']);
  });
});

describe('contact create body', () => {
  const contact = { legal_name: 'Zoë Ltd', email: 'billing@example.com' };

  it('accepts a minimal and a full contact; trims and lower-cases the email domain only', () => {
    expect(parseContactCreate(contact)).toEqual(contact);
    expect(
      parseContactCreate({
        legal_name: '  Acme GmbH ',
        email: ' Jane.Doe+inv@Example.COM ',
        address: 'Hauptstr. 1\n10115 Berlin',
        reference: ' C-7 ',
      }),
    ).toEqual({
      legal_name: 'Acme GmbH',
      email: 'Jane.Doe+inv@example.com',
      address: 'Hauptstr. 1\n10115 Berlin',
      reference: 'C-7',
    });
    expect(parseContactCreate({ ...contact, address: '', reference: '  ' })).toEqual(contact);
    expect(
      parseContactCreate({
        legal_name: 'n'.repeat(160),
        email: `${'l'.repeat(64)}@${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(57)}.com`,
        address: 'a'.repeat(600),
        reference: 'r'.repeat(120),
      }).email,
    ).toHaveLength(254);
  });

  it.each([
    ['missing legal_name', { email: 'a@example.com' }, ['legal_name']],
    ['a blank legal_name', { ...contact, legal_name: '   ' }, ['legal_name']],
    ['a legal_name of 161', { ...contact, legal_name: 'n'.repeat(161) }, ['legal_name']],
    ['missing email', { legal_name: 'X' }, ['email']],
    ['an address of 601', { ...contact, address: 'a'.repeat(601) }, ['address']],
    ['a reference of 121', { ...contact, reference: 'r'.repeat(121) }, ['reference']],
    ['a numeric reference', { ...contact, reference: 7 }, ['reference']],
    ['an unknown field', { ...contact, phone: '+49' }, ['(body)']],
    ['both required fields missing', {}, ['legal_name', 'email']],
  ])('rejects %s', (_label, body, paths) => {
    expect(contactPaths(body)).toEqual(paths);
  });

  it.each([
    'plain',
    'a@b',
    'a@@example.com',
    'a b@example.com',
    '.a@example.com',
    'a.@example.com',
    'a..b@example.com',
    'a@-example.com',
    'a@example-.com',
    'a@example.c',
    'a@example..com',
    'a@[192.0.2.1]',
    '"a"@example.com',
    'zoë@example.com',
    'a@exämple.com',
    `${'l'.repeat(65)}@example.com`,
    `a@${'d'.repeat(64)}.com`,
    `${'l'.repeat(64)}@${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(58)}.com`,
  ])('rejects the email %j', (email) => {
    expect(new Set(contactPaths({ ...contact, email }))).toEqual(new Set(['email']));
  });

  it.each([
    'a@example.com',
    'first.last@sub.example.co.uk',
    'x+tag@example.io',
    "o'brien@example.ie",
    'a@xn--bcher-kva.example',
    'a@example.xn--p1ai',
    '1@2.example',
  ])('accepts the email %j', (email) => {
    expect(parseContactCreate({ ...contact, email }).email).toBe(email);
  });
});
