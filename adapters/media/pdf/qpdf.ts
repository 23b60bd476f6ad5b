import { spawn } from 'node:child_process';

/** The password does not open the PDF. */
export class WrongPdfPassword extends Error {
  constructor() {
    super('the password does not open this PDF');
    this.name = 'WrongPdfPassword';
  }
}

/**
 * Pages of an encrypted PDF opened with `password`, using qpdf. The password is written to qpdf's standard
 * input (`--password-file=-`), so it never appears in a process list, an argument vector or a log.
 */
export function encryptedPdfPageCount(path: string, password: string, opts: { qpdfPath?: string; timeoutMs?: number } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(opts.qpdfPath ?? 'qpdf', ['--password-file=-', '--show-npages', '--', path], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0 && /^\d+\s*$/.test(out)) return resolve(Number(out.trim()));
      if (/invalid password/i.test(err)) return reject(new WrongPdfPassword());
      reject(new Error(`qpdf could not read the PDF (exit ${code})`));
    });
    child.stdin.end(`${password}\n`);
  });
}
