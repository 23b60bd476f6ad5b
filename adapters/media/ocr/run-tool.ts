import { spawn } from 'node:child_process';

/**
 * Runs an OCR engine program (tesseract, ocrmypdf, pdftoppm, pdftotext, qpdf) as a child process with a time
 * limit and an abort signal; resolves its standard output. Arguments are an argument vector (no shell), and file
 * paths are always ones this service chose (never a client's name).
 */

/** The program could not be started (not installed, no resources): the engine is unavailable, not the file bad. */
export class OcrEngineUnavailable extends Error {
  constructor(readonly program: string, cause: unknown) {
    super(`the OCR engine (${program}) could not be started`, { cause });
    this.name = 'OcrEngineUnavailable';
  }
}

/** The program ran past its time limit and was stopped. */
export class OcrEngineTimeout extends Error {
  constructor(readonly program: string, ms: number) {
    super(`the OCR engine (${program}) took longer than ${Math.round(ms / 1000)} s on one page`);
    this.name = 'OcrEngineTimeout';
  }
}

/** The program exited with a failure; `stderr` is its last lines (engine output about our own files, no secret). */
export class OcrEngineFailed extends Error {
  constructor(readonly program: string, readonly exitCode: number | null, readonly stderr: string) {
    super(`${program} failed (exit ${exitCode ?? 'signal'}): ${stderr.replace(/\s+/g, ' ').trim().slice(-200)}`);
    this.name = 'OcrEngineFailed';
  }
}

export interface RunToolOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Extra environment (merged over the process environment). */
  env?: Record<string, string>;
  /** Upper bound of kept standard output, in bytes (default 64 MB). */
  maxStdoutBytes?: number;
}

export function runTool(program: string, args: readonly string[], opts: RunToolOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(opts.signal.reason instanceof Error ? opts.signal.reason : new Error('aborted'));
    // The child inherits the environment (PATH for the programs ocrmypdf runs) plus engine settings; no config is read here.
    // eslint-disable-next-line no-restricted-properties
    const env = opts.env ? { ...process.env, ...opts.env } : undefined;
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(env ? { env } : {}) });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let timedOut = false;
    let aborted = false;
    const max = opts.maxStdoutBytes ?? 64 * 1024 * 1024;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs);
    const onAbort = () => {
      aborted = true;
      child.kill('SIGKILL');
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (c: Buffer) => {
      outBytes += c.length;
      if (outBytes <= max) out.push(c);
    });
    child.stderr.on('data', (c: Buffer) => {
      err = (err + c.toString()).slice(-4000);
    });
    const done = () => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (e) => {
      done();
      reject(new OcrEngineUnavailable(program, e));
    });
    child.on('close', (code) => {
      done();
      if (aborted) return reject(opts.signal?.reason instanceof Error ? opts.signal.reason : new Error('aborted'));
      if (timedOut) return reject(new OcrEngineTimeout(program, opts.timeoutMs));
      if (code !== 0) return reject(new OcrEngineFailed(program, code, err));
      if (outBytes > max) return reject(new OcrEngineFailed(program, code, `more than ${max} bytes of output`));
      resolve(Buffer.concat(out));
    });
  });
}
