import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/**
 * PDF encryption work done with qpdf (pdf-lib cannot encrypt). Passwords are always written to qpdf's standard
 * input, never passed as arguments, so they never appear in a process list, an argument vector or a log.
 */
export class WrongPdfPassword extends Error {
  constructor() {
    super('the password does not open this PDF');
    this.name = 'WrongPdfPassword';
  }
}

/** qpdf could not be started (not installed, no resources): the engine is unavailable, not the file bad. */
export class QpdfUnavailable extends Error {
  constructor(cause: unknown) {
    super('the PDF engine (qpdf) could not be started', { cause });
    this.name = 'QpdfUnavailable';
  }
}

/** qpdf ran past its time limit and was stopped. */
export class QpdfTimeout extends Error {
  constructor(ms: number) {
    super(`the PDF engine (qpdf) took longer than ${Math.round(ms / 1000)} s`);
    this.name = 'QpdfTimeout';
  }
}

export interface QpdfOptions {
  qpdfPath?: string;
  timeoutMs?: number;
}

/** Runs qpdf with `stdinText` on standard input; resolves its stdout. */
function runQpdf(args: string[], stdinText: string, opts: QpdfOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(opts.qpdfPath ?? 'qpdf', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timeoutMs = opts.timeoutMs ?? 60_000;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new QpdfUnavailable(e));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) return reject(new QpdfTimeout(timeoutMs));
      if (code === 0 || code === 3) return resolve(out); // 3: succeeded with warnings
      if (/invalid password/i.test(err)) return reject(new WrongPdfPassword());
      reject(new Error(`qpdf could not process the PDF (exit ${code})`));
    });
    child.stdin.end(stdinText);
  });
}

/** Pages of an encrypted PDF opened with `password`. */
export async function encryptedPdfPageCount(path: string, password: string, opts: QpdfOptions = {}): Promise<number> {
  const out = await runQpdf(['--password-file=-', '--show-npages', '--', path], `${password}\n`, opts);
  if (!/^\d+\s*$/.test(out)) throw new Error('qpdf returned no page count');
  return Number(out.trim());
}

/**
 * Encrypts a PDF with AES-256 so it opens only with `password`; the owner password is random, so nobody can
 * lift the restrictions. qpdf reads all its arguments from standard input (`@-`), one per line, and with
 * `--password-mode=hex-bytes` both passwords are written as the hex of their UTF-8 bytes: a password is then
 * only ever `[0-9a-f]*`, which qpdf cannot take for an option (`--help`, `-v`), the end of the encryption
 * options (`--`) or an argument file (`@x`), whatever the client chose. (qpdf 11.7 added
 * `--user-password=…`; Debian's 11.3 has only the positional form.) 256-bit encryption keys on the UTF-8
 * bytes, which is what `--password-file` (auto mode) and other readers use to open it.
 */
export async function protectPdf(
  inputPath: string,
  outputPath: string,
  password: string,
  opts: QpdfOptions = {},
): Promise<void> {
  if (/[\r\n]/.test(password)) throw new Error('a PDF password cannot contain line breaks');
  const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
  const owner = randomBytes(24).toString('base64url');
  const args = [
    '--password-mode=hex-bytes',
    '--encrypt',
    hex(password),
    hex(owner),
    '256',
    '--',
    inputPath,
    outputPath,
  ];
  await runQpdf(['@-'], `${args.join('\n')}\n`, opts);
}

/** Writes a decrypted copy of a PDF opened with `password`. */
export async function unlockPdf(
  inputPath: string,
  outputPath: string,
  password: string,
  opts: QpdfOptions = {},
): Promise<void> {
  await runQpdf(['--password-file=-', '--decrypt', '--', inputPath, outputPath], `${password}\n`, opts);
}
