import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../domain/errors.js';
import {
  parseEmptyBody,
  parseKeyCreate,
  parseSignIn,
  parseWebhookCreate,
  passwordIssue,
} from '../../../domain/validation/integrations.js';

const issuesOf = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    return ((e as DomainError).details['issues'] as Array<{ path: string }>).map((i) => i.path);
  }
  throw new Error('expected a validation error');
};

describe('management route bodies', () => {
  it('sign-in lower-cases the address and bounds the password', () => {
    expect(parseSignIn({ email: ' Owner@Example.COM ', password: 'x' })).toEqual({
      email: 'owner@example.com',
      password: 'x',
    });
    expect(issuesOf(() => parseSignIn({ email: 'owner@localhost', password: '' })).sort()).toEqual([
      'email',
      'password',
    ]);
    expect(issuesOf(() => parseSignIn({ email: 'a@example.com', password: 'x'.repeat(1025) }))).toEqual(['password']);
    expect(issuesOf(() => parseSignIn({ email: 'a@example.com', password: 'x', remember: true }))).toEqual(['(body)']);
  });

  it('keys need a name and read/write scopes without repeats; expires_at is whole seconds', () => {
    expect(parseKeyCreate({ name: ' server ', scopes: ['write', 'read'], expires_at: 1_900_000_000 })).toEqual({
      name: 'server',
      scopes: ['write', 'read'],
      expires_at: 1_900_000_000,
    });
    expect(issuesOf(() => parseKeyCreate({ name: 'x'.repeat(81), scopes: [] })).sort()).toEqual(['name', 'scopes']);
    expect(issuesOf(() => parseKeyCreate({ name: 'x', scopes: ['read', 'read'] }))).toEqual(['scopes']);
    expect(issuesOf(() => parseKeyCreate({ name: 'x', scopes: ['read'], expires_at: 1.5 }))).toEqual(['expires_at']);
    expect(issuesOf(() => parseKeyCreate({ name: 'x', scopes: ['read'], expires_at: '1900000000' }))).toEqual([
      'expires_at',
    ]);
  });

  it('expires_at is at most 9999-12-31T23:59:59Z: a later second is no ISO date-time (a /v1 key has no horizon)', () => {
    expect(parseKeyCreate({ name: 'x', scopes: ['read'], expires_at: 253_402_300_799 }).expires_at).toBe(
      253_402_300_799,
    );
    expect(issuesOf(() => parseKeyCreate({ name: 'x', scopes: ['read'], expires_at: 253_402_300_800 }))).toEqual([
      'expires_at',
    ]);
    // schemathesis's case of POST /api/company/keys, which answered 500 (an Invalid Date).
    expect(issuesOf(() => parseKeyCreate({ name: 'x', scopes: ['read'], expires_at: 9_007_199_254_740_990 }))).toEqual([
      'expires_at',
    ]);
  });

  it('webhooks need a URL and a non-empty set of known event types', () => {
    expect(
      parseWebhookCreate({ url: 'https://hooks.example.com/p', events: ['invoice.paid', 'payment.confirmed'] }).events,
    ).toEqual(['invoice.paid', 'payment.confirmed']);
    expect(issuesOf(() => parseWebhookCreate({ url: '', events: ['invoice.paid'] }))).toEqual(['url']);
    expect(
      issuesOf(() => parseWebhookCreate({ url: 'https://h.example.com', events: ['invoice.paid', 'invoice.paid'] })),
    ).toEqual(['events']);
    expect(issuesOf(() => parseWebhookCreate({ url: 'https://h.example.com', events: ['*'] }))).toEqual(['events.0']);
  });

  it('action routes take an empty object or nothing', () => {
    expect(() => parseEmptyBody(undefined)).not.toThrow();
    expect(() => parseEmptyBody({})).not.toThrow();
    for (const body of [{ force: true }, [], 'x', 1]) expect(issuesOf(() => parseEmptyBody(body))).toEqual(['(body)']);
  });

  it('passwords are 12 to 256 characters, counted as Unicode characters', () => {
    expect(passwordIssue('short pass')).toMatch(/at least 12/);
    expect(passwordIssue('twelve chars')).toBeNull();
    expect(passwordIssue('\u{1F511}'.repeat(12))).toBeNull();
    expect(passwordIssue('x'.repeat(257))).toMatch(/at most 256/);
  });
});
