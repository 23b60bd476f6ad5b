import { describe, expect, it } from 'vitest';
import {
  parseAuditDomain,
  parseAuditDomainArguments,
  registrableDomainOf,
} from '../../../domain/validation/audit-domain.js';

const message = (raw: unknown) => {
  const r = parseAuditDomain(raw);
  if (r.ok) throw new Error(`expected a refusal of ${String(raw)}, got ${r.value}`);
  expect(r.issues).toHaveLength(1);
  expect(r.issues[0]!.path).toEqual(['domain']);
  return r.issues[0]!.message;
};

describe('parseAuditDomain: accepted names', () => {
  it.each([
    ['example.com', 'example.com'],
    ['  WWW.Example.COM  ', 'www.example.com'],
    ['example.com.', 'example.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['ＥＸＡＭＰＬＥ.com', 'example.com'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ['a-b.example.co.uk', 'a-b.example.co.uk'],
    ['foo.github.io', 'foo.github.io'],
    ['123.example.com', '123.example.com'],
  ])('%s → %s', (raw, expected) => {
    expect(parseAuditDomain(raw)).toEqual({ ok: true, value: expected });
  });

  it('accepts a name of exactly 253 characters with 63-character labels', () => {
    const name = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;
    expect(name).toHaveLength(253);
    expect(parseAuditDomain(name)).toEqual({ ok: true, value: name });
    expect(parseAuditDomain(`${name}.`)).toEqual({ ok: true, value: name });
  });
});

describe('parseAuditDomain: refusals', () => {
  it.each([
    ['IPv4', '93.184.215.14'],
    ['IPv4 shorthand', '127.1'],
    ['IPv4 hex', '0x7f.0.0.1'],
    ['IPv4 as one number', '2130706433'],
    ['IPv4 with trailing dot', '10.0.0.1.'],
    ['bracketed IPv6', '[::1]'],
    ['IPv6', '2001:db8::1'],
    ['IPv4-mapped IPv6', '::ffff:127.0.0.1'],
  ])('an IP literal (%s)', (_label, raw) => {
    expect(message(raw)).toMatch(/not an IP address/);
  });

  it.each([
    ['single label', 'localhost', /at least two labels|special-use/],
    ['single label com', 'com', /at least two labels/],
    ['overlong name', `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`, /at most 253/],
    ['very long input', 'a'.repeat(10_000), /at most 253/],
    ['overlong label', `${'a'.repeat(64)}.com`, /63 characters/],
    ['leading hyphen', '-a.example.com', /hyphen/],
    ['trailing hyphen', 'a-.example.com', /hyphen/],
    ['underscore', '_dmarc.example.com', /letters, digits, hyphens/],
    ['scheme', 'https://example.com', /bare domain name/],
    ['port', 'example.com:443', /bare domain name/],
    ['path', 'example.com/x', /bare domain name/],
    ['user info', 'user@example.com', /bare domain name/],
    ['space inside', 'exa mple.com', /bare domain name/],
    ['empty label', 'a..example.com', /empty label/],
    ['two trailing dots', 'example.com..', /empty label/],
    ['leading dot', '.example.com', /empty label/],
    ['unknown suffix', 'example.notatld', /public suffix/],
    ['public suffix itself', 'co.uk', /public suffix itself/],
    ['.local', 'printer.local', /special-use/],
    ['.internal', 'db.internal', /special-use/],
    ['.arpa (an ICANN suffix)', '1.0.0.127.in-addr.arpa', /special-use/],
    ['.onion', 'abc.onion', /special-use/],
    ['.test', 'a.test', /special-use/],
    ['invalid punycode', 'xn--zz.com', /internationalised/],
    ['empty', '   ', /required/],
  ])('%s', (_label, raw, expected) => {
    expect(message(raw)).toMatch(expected);
  });

  it('refuses non-strings and a missing value', () => {
    expect(message(undefined)).toBe('domain is required');
    expect(message(null)).toBe('domain is required');
    expect(message(42)).toBe('domain must be a string');
    expect(message(['example.com'])).toBe('domain must be a string');
  });
});

describe('parseAuditDomainArguments', () => {
  it('takes exactly { domain }', () => {
    expect(parseAuditDomainArguments({ domain: 'Example.com' })).toEqual({ ok: true, value: 'example.com' });
    expect(parseAuditDomainArguments({ domain: 'example.com', port: 8443 })).toEqual({
      ok: false,
      issues: [{ path: ['port'], message: 'unknown argument port' }],
    });
    expect(parseAuditDomainArguments({})).toEqual({
      ok: false,
      issues: [{ path: ['domain'], message: 'domain is required' }],
    });
    expect(parseAuditDomainArguments('example.com')).toMatchObject({ ok: false, issues: [{ path: [] }] });
    expect(parseAuditDomainArguments(null)).toMatchObject({ ok: false, issues: [{ path: [] }] });
  });
});

describe('registrableDomainOf', () => {
  it('is the name under the public suffix', () => {
    expect(registrableDomainOf('www.example.co.uk')).toBe('example.co.uk');
    expect(registrableDomainOf('example.com')).toBe('example.com');
  });
});
