import { describe, expect, it } from 'vitest';
import { checkDestinationUrl, isPublicAddress } from '../../../adapters/webhooks/url-policy.js';

describe('destination URL policy', () => {
  it.each([
    'https://hooks.example.com/receive',
    'https://hooks.example.com:443/receive',
    'https://api.merchant.co.uk/webhooks/proof',
    'https://xn--bcher-kva.de/hook',
    'https://hooks.example.com.',
  ])('accepts %s', (url) => {
    const r = checkDestinationUrl(url);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.port).toBe(443);
  });

  it.each([
    ['http://hooks.example.com/x', 'https'],
    ['https://hooks.example.com:8443/x', 'port 443'],
    ['https://user:pass@hooks.example.com/x', 'userinfo'],
    ['https://user@hooks.example.com/x', 'userinfo'],
    ['https://hooks.example.com/x?token=1', 'query'],
    ['https://hooks.example.com/x?', 'query'],
    ['https://hooks.example.com/x#frag', 'fragment'],
    ['https://93.184.216.34/x', 'IP address'],
    ['https://[2606:2800:220:1:248:1893:25c8:1946]/x', 'IP address'],
    ['https://0x7f.1/x', 'IP address'],
    ['https://2130706433/x', 'IP address'],
    ['https://localhost/x', 'fully qualified'],
    ['https://intranet/x', 'fully qualified'],
    ['https://api.localhost/x', 'public'],
    ['https://printer.local/x', 'public'],
    ['https://db.internal/x', 'public'],
    ['https://box.home.arpa/x', 'local'],
    ['https://thing.test/x', 'public'],
    ['https://thing.invalid/x', 'public'],
    ['https://thing.example/x', 'public'],
    ['ftp://hooks.example.com/x', 'https'],
    ['notaurl', 'valid'],
    ['https://', 'valid'],
    ['', 'required'],
    ['https://hooks.example.com/a b', 'whitespace'],
    ['https://hooks.example.com\\@evil.com/', 'backslash'],
  ])('rejects %s', (url, reason) => {
    const r = checkDestinationUrl(url);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toContain(reason);
  });

  it('rejects overly long URLs', () => {
    expect(checkDestinationUrl(`https://hooks.example.com/${'a'.repeat(2100)}`).ok).toBe(false);
  });

  it('admits loopback http receivers only with the test-only setting', () => {
    expect(checkDestinationUrl('http://127.0.0.1:4000/hook').ok).toBe(false);
    const r = checkDestinationUrl('http://127.0.0.1:4000/hook', { allowLoopbackForTests: true });
    expect(r).toMatchObject({ ok: true, hostname: '127.0.0.1', port: 4000, loopbackTestTarget: true });
    // The setting does not open other private destinations.
    expect(checkDestinationUrl('http://10.0.0.1:4000/hook', { allowLoopbackForTests: true }).ok).toBe(false);
    expect(checkDestinationUrl('https://192.168.1.1/hook', { allowLoopbackForTests: true }).ok).toBe(false);
  });
});

describe('the normal form a destination is judged and stored in', () => {
  it.each([
    ['http://0x7f000001:9301/x', 'http://127.0.0.1:9301/x'],
    ['http://2130706433:9301/x', 'http://127.0.0.1:9301/x'],
    ['http://0177.0.0.1:9301/x', 'http://127.0.0.1:9301/x'],
    ['http://127.1:9301/x', 'http://127.0.0.1:9301/x'],
    ['http://%31%32%37.0.0.1:9301/x', 'http://127.0.0.1:9301/x'],
    ['http://[::ffff:127.0.0.1]:9301/x', 'http://127.0.0.1:9301/x'],
    ['http://[0:0:0:0:0:ffff:7f00:1]:9301/x', 'http://127.0.0.1:9301/x'],
    ['http://localhost:9301/x', 'http://localhost:9301/x'],
  ])('with the loopback test flag, %s is the loopback receiver, stored as %s', (raw, href) => {
    expect(checkDestinationUrl(raw, { allowLoopbackForTests: true })).toMatchObject({
      ok: true,
      href,
      hostname: '127.0.0.1',
      port: 9301,
      loopbackTestTarget: true,
    });
  });

  it.each(['https://[::ffff:8.8.8.8]/x', 'https://[::ffff:808:808]/x', 'https://0x08080808/x', 'https://8.526344/x'])(
    '%s is an IP literal',
    (raw) => {
      expect(checkDestinationUrl(raw)).toEqual({ ok: false, reason: 'url must use a DNS name, not an IP address' });
    },
  );

  it('names are lower case, in punycode, without the default port', () => {
    expect(checkDestinationUrl('https://Hooks.EXAMPLE.com:443/Proof')).toMatchObject({
      ok: true,
      href: 'https://hooks.example.com/Proof',
    });
    expect(checkDestinationUrl('https://bücher.de/hook')).toMatchObject({
      ok: true,
      href: 'https://xn--bcher-kva.de/hook',
    });
  });
});

describe('public address check', () => {
  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80e::200e',
    '::ffff:8.8.8.8',
  ])('%s is public', (ip) => expect(isPublicAddress(ip)).toBe(true));
  it.each([
    '127.0.0.1',
    '127.5.5.5',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.10',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '192.0.0.8',
    '192.0.2.1',
    '198.18.0.1',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '2001:db8::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    '2002:a00:1::',
    '100::1',
    'not-an-ip',
  ])('%s is not public', (ip) => expect(isPublicAddress(ip)).toBe(false));
});
