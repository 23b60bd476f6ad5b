import { describe, expect, it } from 'vitest';
import { signInRefusals, signInRetryAt } from '../../../domain/sign-in.js';

const limits = { perIpAccount: 5, perIp: 30, perAccount: 20 };
const t = Date.parse('2026-11-22T10:00:00.000Z');
const ago = (s: number) => t - s * 1000;

describe('failed sign-ins', () => {
  it('refuses an address whose own windows are full; under attack, an address that already failed for the account', () => {
    const taken = (o: Partial<Parameters<typeof signInRefusals>[0]>) =>
      signInRefusals({ ipGranted: true, pairGranted: true, pairTotal: 1, accountTotal: 0, ...o }, limits);
    expect(taken({})).toEqual([]);
    expect(taken({ pairTotal: 5, accountTotal: 19 })).toEqual([]);
    expect(taken({ ipGranted: false })).toEqual(['ip']);
    expect(taken({ pairGranted: false, pairTotal: 5 })).toEqual(['ip_account']);
    // Under attack (20 failures for the account): the first attempt of an address goes through, a second does not.
    expect(taken({ accountTotal: 20, pairTotal: 1 })).toEqual([]);
    expect(taken({ accountTotal: 20, pairTotal: 2 })).toEqual(['account_under_attack']);
    expect(taken({ ipGranted: false, pairGranted: false, accountTotal: 25, pairTotal: 5 })).toEqual([
      'ip',
      'ip_account',
    ]);
  });

  it("says when every reason has passed; under attack, whichever ends first: the address's failure or the attack", () => {
    const w = (entries: Array<[number, number]>) => ({
      total: entries.reduce((s, [, n]) => s + n, 0),
      entries: entries.map(([at, hits]) => ({ at, hits })),
    });
    const pair = w([[ago(600), 1]]); // one failure 10 minutes ago: leaves in 5
    const account = w([[ago(840), 20]]); // the attack's failures 14 minutes ago: leave in 1
    expect(signInRetryAt(['account_under_attack'], { ip: w([]), pair, account }, limits, t)).toBe(t + 60_000);
    expect(signInRetryAt(['account_under_attack'], { ip: w([]), pair, account: w([[ago(60), 20]]) }, limits, t)).toBe(
      t + 300_000,
    );
    expect(
      signInRetryAt(
        ['ip_account'],
        {
          ip: w([]),
          pair: w([
            [ago(900 - 30), 2],
            [ago(100), 3],
          ]),
          account,
        },
        limits,
        t,
      ),
    ).toBe(t + 30_000);
    expect(
      signInRetryAt(['ip', 'ip_account'], { ip: w([[ago(100), 30]]), pair: w([[ago(800), 5]]), account }, limits, t),
    ).toBe(t + 800_000);
  });
});
