import { describe, expect, it } from 'vitest';
import {
  decideMatch,
  sameAddress,
  type MatchCandidate,
  type ObservedTransfer,
} from '../../../domain/proof/matching.js';

const at = new Date('2026-11-22T12:00:00Z');
const transfer = (extra: Partial<ObservedTransfer> = {}): ObservedTransfer => ({
  network: 'base',
  txHash: `0x${'ab'.repeat(32)}`,
  logIndex: 0,
  from: '0xAaAaaAaaaaAaaAAaaaAaAaaaAaAaaAAaAaAaAaAa',
  to: `0x${'11'.repeat(20)}`,
  amountAtomic: 12_500_001n,
  blockNumber: 100,
  blockTime: at,
  ...extra,
});
const request = (extra: Partial<MatchCandidate> = {}): MatchCandidate => ({
  status: 'AWAITING',
  expectedPayer: null,
  expiresAt: new Date(at.getTime() + 3600_000),
  ...extra,
});

describe('decideMatch', () => {
  it.each<[string, MatchCandidate, ObservedTransfer, ReturnType<typeof decideMatch>]>([
    ['an awaiting request paid in time', request(), transfer(), { next: 'PAID' }],
    [
      'paid by the expected payer (any letter case)',
      request({ expectedPayer: '0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' }),
      transfer(),
      { next: 'PAID' },
    ],
    [
      'paid by someone else',
      request({ expectedPayer: `0x${'bb'.repeat(20)}` }),
      transfer(),
      { next: 'REVIEW', reason: 'unexpected_payer' },
    ],
    [
      'paid after expiry',
      request({ expiresAt: new Date(at.getTime() - 1) }),
      transfer(),
      { next: 'REVIEW', reason: 'after_expiry' },
    ],
    ['paid at the expiry instant', request({ expiresAt: at }), transfer(), { next: 'PAID' }],
    [
      'an expired request paid late',
      request({ status: 'EXPIRED', expiresAt: new Date(at.getTime() - 1) }),
      transfer(),
      { next: 'REVIEW', reason: 'after_expiry' },
    ],
    [
      'a voided request paid in time, by the expected payer',
      request({ status: 'VOIDED', expectedPayer: '0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' }),
      transfer(),
      { next: 'REVIEW', reason: 'invoice_voided' },
    ],
    [
      'a voided request paid after its expiry',
      request({ status: 'VOIDED', expiresAt: new Date(at.getTime() - 1) }),
      transfer(),
      { next: 'REVIEW', reason: 'invoice_voided' },
    ],
    [
      'a second payment for a request in review',
      request({ status: 'REVIEW' }),
      transfer(),
      { next: null, reason: 'already_settled' },
    ],
    [
      'a second payment for a paid request',
      request({ status: 'PAID' }),
      transfer(),
      { next: null, reason: 'already_settled' },
    ],
  ])('%s', (_label, r, t, decision) => {
    expect(decideMatch(r, t)).toEqual(decision);
  });

  it('compares EVM addresses without case and Solana addresses exactly', () => {
    expect(
      sameAddress('base', '0xAbC0000000000000000000000000000000000000', '0xabc0000000000000000000000000000000000000'),
    ).toBe(true);
    expect(
      sameAddress(
        'solana',
        '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV',
        '7ecdhsygxxyscszyep35khn8vvw3svaulktzxwcfltv',
      ),
    ).toBe(false);
  });
});
