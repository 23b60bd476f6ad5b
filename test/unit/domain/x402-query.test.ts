import { describe, expect, it } from 'vitest';
import { parseMatchQuery, parseTxQuery } from '../../../domain/validation/x402-query.js';
import { decimalToAtomic, formatUsdc, parseUsdcAmount } from '../../../domain/money.js';
import { base58Decode } from '../../../domain/base58.js';

const EVM_TX = `0x${'ab'.repeat(32)}`;
// A real mainnet signature (88 characters) and a real wallet (44 characters).
const SOL_SIG = '5UfDuX7WXY18keiz9mZ6zKkY8JyNuLDFz2QycQcr7skRkgVaNmo6tgFbsePRrX5C6crvycJ2A3UrkwYCsDxNC8XA';
const SOL_WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const EVM_ADDR = `0x${'1f'.repeat(20)}`;
const params = (r: { ok: boolean; issues?: Array<{ param: string }> }) => (r.ok ? [] : r.issues!.map((i) => i.param));

describe('tx_hash and network', () => {
  it('defaults network to base and accepts a well-formed EVM hash on every EVM network', () => {
    expect(parseTxQuery({ tx_hash: EVM_TX })).toEqual({ ok: true, value: { network: 'base', txHash: EVM_TX } });
    for (const network of ['base', 'polygon', 'arbitrum', 'optimism', 'ethereum', 'avalanche']) {
      expect(parseTxQuery({ tx_hash: EVM_TX.toUpperCase().replace('0X', '0x'), network }).ok).toBe(true);
    }
  });

  it('accepts Solana signatures of 64 to 88 base58 characters only on solana', () => {
    expect(parseTxQuery({ tx_hash: SOL_SIG, network: 'solana' })).toEqual({
      ok: true,
      value: { network: 'solana', txHash: SOL_SIG },
    });
    expect(params(parseTxQuery({ tx_hash: SOL_SIG }))).toEqual(['tx_hash']);
    expect(params(parseTxQuery({ tx_hash: EVM_TX, network: 'solana' }))).toEqual(['tx_hash']);
  });

  it.each([
    ['63 characters (below 64)', 'a'.repeat(63)],
    ['101 characters (above 100)', 'a'.repeat(101)],
    ['EVM hash with 63 hex digits', `0x${'a'.repeat(63)}`],
    ['EVM hash with 65 hex digits', `0x${'a'.repeat(65)}`],
    ['EVM hash without 0x', 'a'.repeat(66)],
    ['EVM hash with a non-hex character', `0x${'g'.repeat(64)}`],
    ['an empty value', ''],
  ])('rejects tx_hash: %s', (_label, tx_hash) => {
    expect(params(parseTxQuery({ tx_hash }))).toEqual(['tx_hash']);
  });

  it('enforces the Solana signature bounds and alphabet', () => {
    const sixtyFour = '1'.repeat(64);
    expect(parseTxQuery({ tx_hash: sixtyFour, network: 'solana' }).ok).toBe(true); // 64 zero bytes: 64 characters
    expect(params(parseTxQuery({ tx_hash: SOL_SIG + '1', network: 'solana' }))).toEqual(['tx_hash']); // 89 characters
    expect(params(parseTxQuery({ tx_hash: SOL_SIG.slice(0, 63), network: 'solana' }))).toEqual(['tx_hash']); // 63
    expect(params(parseTxQuery({ tx_hash: SOL_SIG.replace(/.$/, '0'), network: 'solana' }))).toEqual(['tx_hash']); // 0 is not base58
    expect(params(parseTxQuery({ tx_hash: SOL_SIG.replace(/.$/, 'l'), network: 'solana' }))).toEqual(['tx_hash']); // l is not base58
  });

  it('requires tx_hash, rejects unknown or repeated networks and repeated parameters', () => {
    expect(params(parseTxQuery({}))).toEqual(['tx_hash']);
    expect(params(parseTxQuery({ tx_hash: EVM_TX, network: 'bitcoin' }))).toEqual(['network']);
    expect(params(parseTxQuery({ tx_hash: EVM_TX, network: '' }))).toEqual(['network']);
    expect(params(parseTxQuery({ tx_hash: EVM_TX, network: 'Base' }))).toEqual(['network']);
    expect(params(parseTxQuery({ tx_hash: EVM_TX, network: ['base', 'polygon'] }))).toEqual(['network']);
    expect(params(parseTxQuery({ tx_hash: [EVM_TX, EVM_TX] }))).toEqual(['tx_hash']);
    expect(parseTxQuery({ tx_hash: EVM_TX, unknown: 'ignored' }).ok).toBe(true);
  });
});

describe('recipient', () => {
  const base = { tx_hash: EVM_TX, amount: '1' };
  it('accepts an EVM address in any case on EVM networks and a base58 wallet on solana', () => {
    expect(parseMatchQuery({ ...base, recipient: EVM_ADDR }).ok).toBe(true);
    expect(parseMatchQuery({ ...base, recipient: EVM_ADDR.toUpperCase().replace('0X', '0x') }).ok).toBe(true);
    expect(parseMatchQuery({ tx_hash: SOL_SIG, network: 'solana', amount: '1', recipient: SOL_WALLET }).ok).toBe(true);
    expect(parseMatchQuery({ tx_hash: SOL_SIG, network: 'solana', amount: '1', recipient: '1'.repeat(32) }).ok).toBe(
      true,
    ); // 32 chars
  });
  it.each([
    ['31 characters', 'a'.repeat(31), 'base'],
    ['45 characters', 'a'.repeat(45), 'base'],
    ['EVM address with 39 hex', `0x${'a'.repeat(39)}`, 'base'],
    ['EVM address on solana', EVM_ADDR, 'solana'],
    ['Solana wallet on base', SOL_WALLET, 'base'],
    ['base58 that is not 32 bytes', 'z'.repeat(44), 'solana'],
  ])('rejects recipient: %s', (_l, recipient, network) => {
    const tx_hash = network === 'solana' ? SOL_SIG : EVM_TX;
    expect(params(parseMatchQuery({ tx_hash, network, amount: '1', recipient }))).toEqual(['recipient']);
  });
});

describe('amount', () => {
  const base = { tx_hash: EVM_TX, recipient: EVM_ADDR };
  it.each([
    ['1', 1_000_000n],
    ['0.000001', 1n],
    ['12.5', 12_500_000n],
    ['12.500000', 12_500_000n],
    ['99999999999999999', 99_999_999_999_999_999_000_000n],
    ['99999999999999999.999999', 99_999_999_999_999_999_999_999n],
    ['007', 7_000_000n],
  ])('accepts %s', (amount, atomic) => {
    const r = parseMatchQuery({ ...base, amount });
    expect(r).toMatchObject({ ok: true, value: { amount, amountAtomic: atomic } });
  });
  it.each([
    ['', 'empty'],
    ['0', 'zero'],
    ['0.0', 'zero'],
    ['0.000000', 'zero'],
    ['100000000000000000', '18 integer digits'],
    ['1.1234567', '7 fraction digits'],
    ['1.', 'dot without fraction'],
    ['.5', 'no integer digits'],
    ['-1', 'a sign'],
    ['+1', 'a sign'],
    ['1e6', 'an exponent'],
    ['1,5', 'a comma'],
    [' 1', 'a space'],
    ['1 000', 'a space'],
    ['0x10', 'hex'],
    ['1.5.1', 'two dots'],
    ['1'.repeat(25), 'over 24 characters'],
    ['NaN', 'not a number'],
  ])('rejects %j (%s)', (amount) => {
    expect(params(parseMatchQuery({ ...base, amount }))).toEqual(['amount']);
  });
  it('reports every invalid parameter at once', () => {
    expect(params(parseMatchQuery({ tx_hash: 'x', recipient: 'y', amount: 'z' })).sort()).toEqual([
      'amount',
      'recipient',
      'tx_hash',
    ]);
  });
});

describe('money and base58', () => {
  it('formats atomic amounts with six decimals exactly', () => {
    expect(formatUsdc(1n)).toBe('0.000001');
    expect(formatUsdc(12_500_000n)).toBe('12.500000');
    expect(formatUsdc(0n)).toBe('0.000000');
    expect(formatUsdc(123_456_789_012_345_678_901_234n)).toBe('123456789012345678.901234');
  });
  it('parses the grammar and refuses zero', () => {
    expect(decimalToAtomic('0')).toBe(0n);
    expect(decimalToAtomic('1e6')).toBeNull();
    expect(() => parseUsdcAmount('0')).toThrow(/greater than zero/);
    expect(parseUsdcAmount('2.25')).toBe(2_250_000n);
  });
  it('decodes base58 with leading zeros', () => {
    expect(base58Decode('1')).toEqual(Uint8Array.from([0]));
    expect(base58Decode('2')).toEqual(Uint8Array.from([1]));
    expect(base58Decode(SOL_WALLET)?.length).toBe(32);
    expect(base58Decode('0OIl')).toBeNull();
  });
});
