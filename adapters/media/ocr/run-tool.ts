import { runToolProcess, ToolFailed, ToolTimeout, ToolUnavailable } from '../../infra/tool-process.js';

/**
 * Runs an OCR engine program (tesseract, ocrmypdf, pdftoppm, pdftotext, qpdf) with a time limit and an abort
 * signal, in its own process group (ocrmypdf's tesseract goes with it) that dies with the worker. Arguments are an
 * argument vector (no shell), and file paths are always ones this service chose (never a client's name).
 */

/** The program could not be started (not installed, no resources): the engine is unavailable, not the file bad. */
export class OcrEngineUnavailable extends Error {
  constructor(
    readonly program: string,
    cause: unknown,
  ) {
    super(`the OCR engine (${program}) could not be started`, { cause });
    this.name = 'OcrEngineUnavailable';
  }
}

/** The program ran past its time limit and was stopped. */
export class OcrEngineTimeout extends Error {
  constructor(
    readonly program: string,
    ms: number,
  ) {
    super(`the OCR engine (${program}) took longer than ${Math.round(ms / 1000)} s on one page`);
    this.name = 'OcrEngineTimeout';
  }
}

/** The program exited with a failure; `stderr` is its last lines (engine output about our own files, no secret). */
export class OcrEngineFailed extends Error {
  constructor(
    readonly program: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
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

/** Runs an engine program on the platform's runner (adapters/infra/tool-process.ts); resolves its standard output. */
export async function runTool(program: string, args: readonly string[], opts: RunToolOptions): Promise<Buffer> {
  try {
    return await runToolProcess(program, args, opts);
  } catch (e) {
    if (e instanceof ToolUnavailable) throw new OcrEngineUnavailable(program, e.cause);
    if (e instanceof ToolTimeout) throw new OcrEngineTimeout(program, e.timeoutMs);
    if (e instanceof ToolFailed) throw new OcrEngineFailed(program, e.exitCode, e.stderr);
    throw e;
  }
}
