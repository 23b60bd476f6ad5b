import { describe, expect, it } from 'vitest';
import { parseIdempotencyKey } from '../../../domain/idempotency.js';
import {
  normalizeScopes,
  parsePresentedKey,
  requiredScope,
  validateExpiry,
  looksLikeApiKey,
} from '../../../domain/api-keys.js';
import {
  emptyAt,
  emptyAtFromLatest,
  latestAt,
  recordedTime,
  roomAt,
  secondsUntil,
  windowGrainMs,
} from '../../../domain/rate-limits.js';
import { canonicalJson } from '../../../domain/canonical-json.js';
import { jsonBodyIssues, MAX_JSON_DEPTH } from '../../../domain/validation/json-body.js';
import type { DomainError } from '../../../domain/errors.js';

const code = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (e) {
    return (e as DomainError).code;
  }
};

describe('Idempotency-Key grammar', () => {
  it.each([
    ['v1', 'a'.repeat(8), 'ok'],
    ['v1', 'a'.repeat(7), 'idempotency_key_invalid'],
    ['v1', 'a'.repeat(128), 'ok'],
    ['v1', 'a'.repeat(129), 'idempotency_key_invalid'],
    ['v1', 'job:2024.01_x-1', 'ok'],
    ['v1', 'abcdefg h', 'idempotency_key_invalid'],
    ['v1', 'abcdefgh/', 'idempotency_key_invalid'],
    ['v1', undefined, 'idempotency_key_required'],
    ['proof', 'a'.repeat(16), 'ok'],
    ['proof', 'a'.repeat(15), 'idempotency_key_invalid'],
    ['proof', 'a'.repeat(80), 'ok'],
    ['proof', 'a'.repeat(81), 'idempotency_key_invalid'],
    ['proof', 'order_123-abc_DEF456', 'ok'],
    ['proof', 'order.123.abc.DEF456', 'idempotency_key_invalid'],
    ['proof', 'order:123:abc:DEF456', 'idempotency_key_invalid'],
    ['proof', '', 'idempotency_key_required'],
    ['proof', 'ääääääääääääääääää', 'idempotency_key_invalid'],
  ] as const)('%s %j -> %s', (dialect, key, expected) => {
    expect(code(() => parseIdempotencyKey(dialect, key))).toBe(expected);
  });
});

describe('API key rules', () => {
  const body = 'A'.repeat(12) + 'b'.repeat(32);
  it('parses only well-formed keys of the interface', () => {
    expect(parsePresentedKey('v1', `sk_live_${body}`)).toEqual({ lookupId: 'A'.repeat(12) });
    expect(parsePresentedKey('proof', `skp_${body}`)).toEqual({ lookupId: 'A'.repeat(12) });
    expect(parsePresentedKey('proof', `sk_live_${body}`)).toBeNull();
    expect(parsePresentedKey('v1', `skp_${body}`)).toBeNull();
    expect(parsePresentedKey('v1', `sk_live_${body}x`)).toBeNull();
    expect(parsePresentedKey('v1', `sk_live_${body.slice(1)}!`)).toBeNull();
  });
  it('recognises keys in arbitrary strings', () => {
    expect(looksLikeApiKey('xx sk_live_abc')).toBe(true);
    expect(looksLikeApiKey('skp_abc')).toBe(true);
    expect(looksLikeApiKey('hello')).toBe(false);
  });
  it('normalises scopes; write implies read', () => {
    expect(normalizeScopes(['read'])).toEqual(['read']);
    expect(normalizeScopes(['write'])).toEqual(['read', 'write']);
    expect(normalizeScopes(['write', 'read', 'read'])).toEqual(['read', 'write']);
    expect(normalizeScopes(['write'], 'proof')).toEqual(['write']);
    expect(normalizeScopes(['read', 'write', 'write'], 'proof')).toEqual(['read', 'write']);
    expect(code(() => normalizeScopes([]))).toBe('validation_failed');
    expect(code(() => normalizeScopes(['admin']))).toBe('validation_failed');
  });
  it('GET and HEAD need read; every other method needs write', () => {
    expect(requiredScope('GET')).toBe('read');
    expect(requiredScope('HEAD')).toBe('read');
    for (const m of ['POST', 'PUT', 'PATCH', 'DELETE']) expect(requiredScope(m)).toBe('write');
  });
  it('proof keys expire at most 366 days ahead, as a Unix UTC second', () => {
    const now = new Date('2026-11-22T00:00:00Z');
    const nowSec = now.getTime() / 1000;
    expect(validateExpiry('proof', undefined, now)).toBeNull();
    expect(validateExpiry('proof', nowSec + 366 * 86400, now)?.toISOString()).toBe('2027-11-23T00:00:00.000Z');
    expect(code(() => validateExpiry('proof', nowSec + 366 * 86400 + 1, now))).toBe('validation_failed');
    expect(code(() => validateExpiry('proof', nowSec, now))).toBe('validation_failed');
    expect(code(() => validateExpiry('proof', 1.5, now))).toBe('validation_failed');
    expect(validateExpiry('v1', nowSec + 5 * 366 * 86400, now)).not.toBeNull();
  });
});

describe('sliding windows', () => {
  const now = new Date('2026-11-22T10:15:42.300Z');
  const t = now.getTime();
  it('records hits on a grain of a sixtieth of the window (at least 1 s), rounded up; a reservation one grain later', () => {
    expect([windowGrainMs(60), windowGrainMs(900), windowGrainMs(3600), windowGrainMs(10)]).toEqual([
      1000, 15_000, 60_000, 1000,
    ]);
    expect(new Date(recordedTime(now, 60, false)).toISOString()).toBe('2026-11-22T10:15:43.000Z');
    expect(new Date(recordedTime(now, 60, true)).toISOString()).toBe('2026-11-22T10:15:44.000Z');
    expect(new Date(recordedTime(now, 3600, false)).toISOString()).toBe('2026-11-22T10:16:00.000Z');
    expect(recordedTime(new Date('2026-11-22T10:15:42.000Z'), 60, false)).toBe(
      new Date('2026-11-22T10:15:42.000Z').getTime(),
    );
  });
  it('has room again once enough of the oldest hits have left the window; is empty once the newest has', () => {
    const entries = [
      { at: t - 50_000, hits: 2 },
      { at: t - 20_000, hits: 3 },
      { at: t - 70_000, hits: 9 },
    ];
    // 9 hits left the window already; 5 remain.
    expect(roomAt(entries, 6, 60, t)).toBe(t);
    expect(roomAt(entries, 5, 60, t)).toBe(t + 10_000); // the 2 of 50 s ago leave in 10 s
    expect(roomAt(entries, 4, 60, t)).toBe(t + 10_000);
    expect(roomAt(entries, 3, 60, t)).toBe(t + 40_000); // 3 left are not fewer than 3: the 3 of 20 s ago must leave too
    expect(emptyAt(entries, 60, t)).toBe(t + 40_000);
    expect(emptyAt([], 60, t)).toBe(t);
  });
  it('reads when a window is empty from its latest recorded time as emptyAt does, a clock set wrong included', () => {
    const cases = [
      [],
      [{ at: t - 70_000, hits: 9 }],
      [{ at: t - 60_000, hits: 1 }],
      [
        { at: t - 50_000, hits: 2 },
        { at: t - 20_000, hits: 3 },
        { at: t - 70_000, hits: 9 },
      ],
      [
        { at: t + 5_000, hits: 1 },
        { at: t - 10_000, hits: 0 },
      ],
      [{ at: t + 60_000, hits: 4 }],
      // more than a window ahead: dropped by both, the hits in the window still count
      [
        { at: t + 90_000, hits: 4 },
        { at: t - 30_000, hits: 1 },
      ],
      [{ at: t + 90_000, hits: 4 }],
    ];
    for (const entries of cases) {
      for (const now of [t, t + 30_000, t + 61_000, t - 45_000]) {
        expect(emptyAtFromLatest(entries, latestAt(entries), 60, now)).toBe(emptyAt(entries, 60, now));
      }
    }
    expect(latestAt([{ at: t, hits: 0 }])).toBe(-Infinity);
  });
  it('says waits in whole seconds, at least one', () => {
    expect(secondsUntil(now, t + 17_700)).toBe(18);
    expect(secondsUntil(now, t + 1)).toBe(1);
    expect(secondsUntil(now, t - 5000)).toBe(1);
  });
});

describe('canonical JSON', () => {
  it('ignores key order but not values or array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
  });

  it('keeps every own key of a parsed body: "__proto__" and "constructor" change the fingerprint', () => {
    const plain = JSON.parse('{"amount":"1.00"}') as unknown;
    const proto = JSON.parse('{"amount":"1.00","__proto__":{"admin":true}}') as unknown;
    expect(canonicalJson(proto)).toBe('{"__proto__":{"admin":true},"amount":"1.00"}');
    expect(canonicalJson(proto)).not.toBe(canonicalJson(plain));
    expect(canonicalJson(JSON.parse('{"constructor":1}'))).toBe('{"constructor":1}');
    expect(canonicalJson(JSON.parse('{"a":{"__proto__":[]}}'))).toBe('{"a":{"__proto__":[]}}');
  });
});

describe('JSON body rules', () => {
  it('names every field holding NUL, keys included, and nothing else', () => {
    expect(
      jsonBodyIssues({ a: 'ok', b: ['x', 'y\u0000'], c: { d: '\u0000' }, 'e\u0000': 1 })
        .map((i) => i.path)
        .sort(),
    ).toEqual(['b.1', 'c.d', 'e\\u0000']);
    expect(jsonBodyIssues('\u0000')).toEqual([{ kind: 'nul', path: '', message: expect.any(String) }]);
    expect(jsonBodyIssues({ a: 1, b: null, c: true, d: [{}], e: 'text' })).toEqual([]);
  });

  it(`bounds nesting at ${MAX_JSON_DEPTH} levels without recursion, even 100,000 deep`, () => {
    const nest = (n: number) => JSON.parse('['.repeat(n) + ']'.repeat(n)) as unknown;
    expect(jsonBodyIssues(nest(MAX_JSON_DEPTH))).toEqual([]);
    expect(jsonBodyIssues(nest(MAX_JSON_DEPTH + 1))).toEqual([
      { kind: 'depth', path: expect.any(String), message: expect.stringContaining('nested') },
    ]);
    expect(jsonBodyIssues(nest(100_000))[0]!.kind).toBe('depth');
    const objects = JSON.parse('{"a":'.repeat(3000) + '1' + '}'.repeat(3000)) as unknown;
    expect(jsonBodyIssues(objects)[0]!.kind).toBe('depth');
  });
});
