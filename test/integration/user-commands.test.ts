import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyAdminsCreate, usersCreate, usersPassword } from '../../cli/user-commands.js';
import { addMember, createCompany } from '../../services/company/memberships.js';
import { findMemberCredential } from '../../db/repositories/company-sessions.repo.js';
import { verifyPassword } from '../../adapters/crypto/password.js';
import { createMerchant } from '../../db/repositories/merchants.repo.js';
import { createSession, findLiveSession } from '../../db/repositories/merchant-sessions.repo.js';
import { findUserByEmail } from '../../db/repositories/merchant-users.repo.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

let tdb: TestDatabase;
const now = new Date();
const stdin = (text: string) => () => Promise.resolve(text);
const noStdin = () => Promise.reject(new Error('stdin must not be read'));

beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb?.drop());

describe('dashboard user commands', () => {
  it('users:create generates a password shown once, or reads one from stdin; the address is one account', async () => {
    const merchant = await createMerchant(tdb.db, { name: 'Users', trial: true }, now);
    const generated = await usersCreate(tdb.db, { merchant: merchant.id, email: 'Owner@Example.com' }, now, noStdin);
    expect(generated.user).toMatchObject({ merchant_id: merchant.id, email: 'owner@example.com' });
    expect(generated.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const stored = await findUserByEmail(tdb.db, 'owner@example.com');
    expect(await verifyPassword(generated.password!, stored!.passwordHash)).toBe(true);
    expect(JSON.stringify(generated.user)).not.toContain('hash');

    const chosen = await usersCreate(
      tdb.db,
      { merchant: merchant.id, email: 'second@example.com', 'password-stdin': 'true' },
      now,
      stdin('a long chosen passphrase\n'),
    );
    expect(chosen).not.toHaveProperty('password');
    expect(
      await verifyPassword(
        'a long chosen passphrase',
        (await findUserByEmail(tdb.db, 'second@example.com'))!.passwordHash,
      ),
    ).toBe(true);

    await expect(
      usersCreate(tdb.db, { merchant: merchant.id, email: 'OWNER@example.com' }, now, noStdin),
    ).rejects.toThrow(/exists already/);
    await expect(
      usersCreate(
        tdb.db,
        { merchant: merchant.id, email: 'third@example.com', 'password-stdin': 'true' },
        now,
        stdin('too short\n'),
      ),
    ).rejects.toThrow(/at least 12/);
    await expect(
      usersCreate(tdb.db, { merchant: 'mer_AAAAAAAAAAAAAAAAAAAA', email: 'x@example.com' }, now, noStdin),
    ).rejects.toThrow(/no such merchant/);
    await expect(usersCreate(tdb.db, { merchant: merchant.id, email: 'not-an-address' }, now, noStdin)).rejects.toThrow(
      /--email/,
    );
  });

  it('users:password replaces the hash and ends every session of the user', async () => {
    const merchant = await createMerchant(tdb.db, { name: 'Reset', trial: true }, now);
    await usersCreate(tdb.db, { merchant: merchant.id, email: 'reset@example.com' }, now, noStdin);
    const user = (await findUserByEmail(tdb.db, 'reset@example.com'))!;
    await createSession(
      tdb.db,
      { tokenHash: 'h-reset', userId: user.id, merchantId: merchant.id, expiresAt: new Date(Date.now() + 3_600_000) },
      new Date(),
    );
    expect(await findLiveSession(tdb.db, 'h-reset', new Date(), 60_000)).not.toBeNull();
    const out = await usersPassword(
      tdb.db,
      { email: 'reset@example.com', 'password-stdin': 'true' },
      new Date(),
      stdin('a brand new passphrase'),
    );
    expect(out).toMatchObject({ sessions_ended: true });
    expect(await findLiveSession(tdb.db, 'h-reset', new Date(), 60_000)).toBeNull();
    expect(
      await verifyPassword(
        'a brand new passphrase',
        (await findUserByEmail(tdb.db, 'reset@example.com'))!.passwordHash,
      ),
    ).toBe(true);
  });
});

describe('company administrator command', () => {
  it('company-admins:create gives the owner a password shown once, or adds a billing administrator; members and other companies are refused', async () => {
    const { company, owner } = await createCompany(tdb.db, { name: 'Admins Co', ownerEmail: 'boss@admins.example' });
    expect((await findMemberCredential(tdb.db, 'boss@admins.example'))!.passwordHash).toBeNull();
    const first = await companyAdminsCreate(
      tdb.db,
      { company: company.id, email: 'Boss@Admins.example' },
      now,
      noStdin,
    );
    expect(first.member).toMatchObject({
      id: owner.id,
      company_id: company.id,
      email: 'boss@admins.example',
      role: 'billing_admin',
    });
    expect(first.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(
      await verifyPassword(first.password!, (await findMemberCredential(tdb.db, 'boss@admins.example'))!.passwordHash!),
    ).toBe(true);
    expect(JSON.stringify(first.member)).not.toContain('hash');

    const second = await companyAdminsCreate(
      tdb.db,
      { company: company.id, email: 'deputy@admins.example', 'password-stdin': 'true' },
      now,
      stdin('a long chosen passphrase\n'),
    );
    expect(second).not.toHaveProperty('password');
    expect((await findMemberCredential(tdb.db, 'deputy@admins.example'))!.member).toMatchObject({
      companyId: company.id,
      role: 'billing_admin',
    });

    await addMember(tdb.db, company.id, 'plain@admins.example', 'member');
    await expect(
      companyAdminsCreate(tdb.db, { company: company.id, email: 'plain@admins.example' }, now, noStdin),
    ).rejects.toThrow(/ordinary member/);
    const other = await createCompany(tdb.db, { name: 'Other Admins Co', ownerEmail: 'other@admins.example' });
    await expect(
      companyAdminsCreate(tdb.db, { company: other.company.id, email: 'boss@admins.example' }, now, noStdin),
    ).rejects.toMatchObject({ code: 'account_in_other_company' });
    await expect(
      companyAdminsCreate(tdb.db, { company: 'co_AAAAAAAAAAAAAAAAAAAA', email: 'x@admins.example' }, now, noStdin),
    ).rejects.toThrow(/no such company/);
  });
});
