import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { encryptedPdfPageCount, protectPdf, unlockPdf, WrongPdfPassword } from '../../../adapters/media/pdf/qpdf.js';
import { samplePdf } from '../../../support/sample-files.js';

/**
 * PDF passwords are the client's choice (1 to 128 characters, no line break). Whatever they look like, qpdf
 * must take them as passwords, never as options or argument files, and they must never reach a command line.
 */
const PASSWORDS = [
  '--',
  '--help',
  '--decrypt',
  '-',
  '-v',
  '@x',
  '@-',
  'two words',
  '  leading and trailing  ',
  `it's "quoted"`,
  'pässwörd ✓ 密码 🔑',
];

/** Opens `file` with exactly `password` (qpdf's re-encoding recovery off), independently of the adapter. */
function opensWith(file: string, password: string): boolean {
  const r = spawnSync('qpdf', ['--suppress-password-recovery', '--password-file=-', '--show-npages', '--', file], {
    input: `${password}\n`,
  });
  return r.status === 0;
}

const hexOf = (s: string) => Buffer.from(s, 'utf8').toString('hex');

describe('qpdf passwords', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qpdf-pw-'));
  const plain = join(dir, 'plain.pdf');

  it.each(PASSWORDS)('protects and unlocks with the password %j; the result opens only with it', async (password) => {
    writeFileSync(plain, await samplePdf(2));
    const tag = hexOf(password).slice(0, 16) + password.length;
    const locked = join(dir, `locked-${tag}.pdf`);
    const unlocked = join(dir, `unlocked-${tag}.pdf`);
    await protectPdf(plain, locked, password);
    expect(spawnSync('qpdf', ['--is-encrypted', locked]).status).toBe(0);
    expect(opensWith(locked, password)).toBe(true);
    for (const other of [
      '',
      'x',
      `${password} `,
      password.trim() === password ? `${password}x` : password.trim(),
      hexOf(password),
    ]) {
      if (other !== password) expect(opensWith(locked, other)).toBe(false);
    }
    expect(await encryptedPdfPageCount(locked, password)).toBe(2);
    await expect(encryptedPdfPageCount(locked, `${password}!`)).rejects.toBeInstanceOf(WrongPdfPassword);
    await expect(unlockPdf(locked, unlocked, `${password}!`)).rejects.toBeInstanceOf(WrongPdfPassword);
    await unlockPdf(locked, unlocked, password);
    expect((await PDFDocument.load(readFileSync(unlocked))).getPageCount()).toBe(2);
  });

  it("never puts the password (or an encoding of it) on qpdf's command line, nor in an error", async () => {
    writeFileSync(plain, await samplePdf(1));
    const argvLog = join(dir, 'argv.log');
    const spy = join(dir, 'qpdf-spy');
    // Records every argument it is started with, then runs the real qpdf with them (standard input passes through).
    writeFileSync(spy, `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a" >> '${argvLog}'; done\nexec qpdf "$@"\n`, {
      mode: 0o755,
    });
    const password = '--Secret pw ünï';
    const locked = join(dir, 'spy-locked.pdf');
    await protectPdf(plain, locked, password, { qpdfPath: spy });
    expect(await encryptedPdfPageCount(locked, password, { qpdfPath: spy })).toBe(1);
    await unlockPdf(locked, join(dir, 'spy-unlocked.pdf'), password, { qpdfPath: spy });
    const argv = readFileSync(argvLog, 'utf8');
    expect(argv.length).toBeGreaterThan(0);
    for (const form of [password, 'Secret', hexOf(password), Buffer.from(password).toString('base64')])
      expect(argv).not.toContain(form);

    writeFileSync(join(dir, 'junk.pdf'), 'not a pdf');
    const failure = await protectPdf(join(dir, 'junk.pdf'), join(dir, 'junk-out.pdf'), password).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).message)).not.toContain('Secret');
    expect(String((failure as Error).message)).not.toContain(hexOf(password));
  });
});
