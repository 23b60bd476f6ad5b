import { describe, expect, it } from 'vitest';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../../adapters/crypto/password.js';

describe('scrypt password hashing', () => {
  it('stores the parameters and a fresh salt, and verifies only the right password', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$15\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(a).not.toBe(b); // salted
    expect(a).not.toContain('correct horse battery');
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('treats composed and decomposed Unicode the same (NFKC) and never matches a malformed or weakened hash', async () => {
    const h = await hashPassword('caf\u00e9 au lait 2026');
    expect(await verifyPassword('cafe\u0301 au lait 2026', h)).toBe(true);
    for (const bad of [
      '',
      'plain',
      h.replace('scrypt$15', 'scrypt$4'),
      h.replace('scrypt$15', 'scrypt$25'),
      h.replace(/\$[^$]+$/, '$'),
      `bcrypt${h.slice(6)}`,
    ]) {
      expect(await verifyPassword('caf\u00e9 au lait 2026', bad), bad).toBe(false);
    }
  });

  it('spends a real check when there is no user (and never succeeds)', async () => {
    expect(await burnPasswordCheck('anything at all')).toBe(false);
  });
});
