import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { Logger } from '../../logging/logger.js';
import { ProviderUnavailableError } from '../provider-errors.js';
import { TranscriptionEngineMissingError } from './transcription-provider.js';

/** One line of engines/transcription/worker.py (see the protocol there). */
const WorkerAnswer = z.union([
  z.object({ ready: z.literal(true) }),
  z.object({ fatal: z.string() }),
  z.object({ id: z.string().nullable(), error: z.string(), code: z.string().optional() }),
  z.object({
    id: z.string(),
    language: z.string(),
    duration: z.number(),
    segments: z.array(z.object({ start: z.number(), end: z.number(), text: z.string() })),
    // spaced: whether faster-whisper began the word with a space; absent in answers of a worker.py before it.
    words: z.array(
      z.object({
        start: z.number(),
        end: z.number(),
        word: z.string(),
        probability: z.number(),
        spaced: z.boolean().optional(),
      }),
    ),
  }),
  z.object({
    id: z.string(),
    duration: z.number(),
    regions: z.array(
      z.object({
        start: z.number(),
        end: z.number(),
        embedding: z.union([z.array(z.number()).length(192), z.array(z.number()).length(256)]),
        highBand: z.number().min(0).max(1).optional(),
      }),
    ),
  }),
]);
type WorkerAnswer = z.infer<typeof WorkerAnswer>;
export type WorkerResult = Extract<WorkerAnswer, { segments: unknown }>;
export type WorkerFailure = Extract<WorkerAnswer, { error: string }>;
export type WorkerSpeakersResult = Extract<WorkerAnswer, { regions: unknown }>;
export type WorkerAnswerOf<K extends WorkerRequestKind> =
  (K extends 'speakers' ? WorkerSpeakersResult : WorkerResult) | WorkerFailure;
/** `transcribe` (the default) or `speakers` (speech regions with voice embeddings). */
export type WorkerRequestKind = 'transcribe' | 'speakers';

/**
 * The CPU kernels a speech worker computes with. `native`: CTranslate2's own choice, the fastest the CPU has (Intel MKL
 * on Intel CPUs, oneDNN on others, which itself goes up to AVX-512 with VNNI). Different CPUs then give slightly
 * different numbers, and now and then a different word or timestamp. `portable`: oneDNN on every CPU, capped at AVX2,
 * so every x86-64 CPU with AVX2 computes the same numbers and gives the same transcript. Other architectures have one
 * kernel family each, and are not affected.
 */
export type SpeechCpuKernels = 'native' | 'portable';

export interface WorkerProcessOptions {
  python: string;
  workerScript: string;
  /** The Whisper model folder; without it the worker answers only speakers requests. */
  modelDir?: string;
  /** The speaker encoder's pretrained.pt; without it the worker answers only transcription requests. */
  speakerModel?: string;
  cpuThreads: number;
  cpuKernels: SpeechCpuKernels;
  startTimeoutMs: number;
  logger?: Logger;
}

/** Absolute paths in the engine's messages (tracebacks name the decoded file and library files) are not logged. */
export function redactPaths(line: string): string {
  return line.replace(/(?:[A-Za-z]:)?[/\\][^\s'":,)]+/g, '<path>');
}

/**
 * One long-lived speech worker process: the model is loaded once, then requests are answered one at a time over
 * JSON lines. When the process ends (crash, kill, time-out) the request in flight fails with a
 * ProviderUnavailableError and the object is dead: the pool replaces it with a new one for the next request.
 */
export class WhisperWorkerProcess {
  private child: ChildProcessWithoutNullStreams | null = null;
  private pending: {
    id: string;
    resolve: (a: WorkerResult | WorkerSpeakersResult | WorkerFailure) => void;
    reject: (e: Error) => void;
  } | null = null;
  private exited = false;
  private nextId = 0;

  constructor(private readonly opts: WorkerProcessOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** True while a request is in flight. */
  get busy(): boolean {
    return this.pending !== null;
  }

  get alive(): boolean {
    return this.child !== null && !this.exited;
  }

  /** Spawns the process and waits for its `ready` line (the model is loaded). */
  start(): Promise<void> {
    const { python, workerScript, modelDir, speakerModel, cpuThreads, cpuKernels, logger } = this.opts;
    const args = [
      workerScript,
      ...(modelDir ? ['--model', modelDir] : []),
      ...(speakerModel ? ['--speaker-model', speakerModel] : []),
      '--cpu-threads',
      String(cpuThreads),
      '--compute-type',
      'int8',
      '--cpu-kernels',
      cpuKernels,
    ];
    const child = spawn(python, args, {
      // The environment is inherited, like every engine's (qpdf, ffmpeg); worker.py sets HF_HUB_OFFLINE=1 itself.
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    createInterface({ input: child.stderr }).on('line', (line) =>
      logger?.debug({ engine: 'whisper', pid: child.pid, line: redactPaths(line) }, 'speech worker stderr'),
    );
    child.stdin.on('error', () => {}); // a write to a dead process: reported by 'exit'

    return new Promise<void>((resolve, reject) => {
      let ready = false;
      const startTimer = setTimeout(() => {
        if (ready) return;
        this.kill();
        reject(new ProviderUnavailableError(`the speech worker did not start within ${this.opts.startTimeoutMs} ms`));
      }, this.opts.startTimeoutMs);
      createInterface({ input: child.stdout }).on('line', (line) => {
        let answer: WorkerAnswer;
        try {
          answer = WorkerAnswer.parse(JSON.parse(line));
        } catch {
          logger?.warn({ engine: 'whisper', pid: child.pid }, 'speech worker wrote a line that is not its protocol');
          // While a request is in flight this line was its answer: the request fails now (never waits for a time-out)
          // and the worker, out of step with its protocol, is ended; the pool starts a new one for the next request.
          if (this.pending) {
            const p = this.pending;
            this.pending = null;
            this.kill();
            p.reject(new ProviderUnavailableError('the speech worker answered outside its protocol'));
          }
          return;
        }
        if ('ready' in answer) {
          ready = true;
          clearTimeout(startTimer);
          resolve();
        } else if ('fatal' in answer) {
          clearTimeout(startTimer);
          reject(new TranscriptionEngineMissingError(`the speech model could not be loaded: ${answer.fatal}`));
        } else if (this.pending && (answer.id === this.pending.id || answer.id === null)) {
          const p = this.pending;
          this.pending = null;
          p.resolve(answer);
        }
      });
      child.on('error', (error) => {
        this.exited = true;
        clearTimeout(startTimer);
        reject(
          new TranscriptionEngineMissingError(
            `the speech worker could not be started (${(error as NodeJS.ErrnoException).code ?? error.name})`,
          ),
        );
      });
      child.on('exit', (code, signal) => {
        this.exited = true;
        clearTimeout(startTimer);
        logger?.debug({ engine: 'whisper', pid: child.pid, code, signal }, 'speech worker ended');
        if (!ready)
          reject(new ProviderUnavailableError(`the speech worker ended while starting (${signal ?? `exit ${code}`})`));
        const p = this.pending;
        this.pending = null;
        p?.reject(
          new ProviderUnavailableError(`the speech worker ended during the request (${signal ?? `exit ${code}`})`),
        );
      });
    });
  }

  /** Sends one request; the caller (the pool) never sends a second before the first is answered. */
  request<K extends WorkerRequestKind = 'transcribe'>(body: {
    kind?: K;
    path: string;
    language?: string;
  }): Promise<WorkerAnswerOf<K>> {
    const child = this.child;
    if (!child || this.exited) return Promise.reject(new ProviderUnavailableError('the speech worker is not running'));
    if (this.pending) return Promise.reject(new Error('the speech worker is busy'));
    const id = `r${++this.nextId}`;
    return new Promise<WorkerAnswerOf<K>>((resolve, reject) => {
      // The answer's shape follows the request's kind (the worker answers each kind with its own fields).
      this.pending = {
        id,
        resolve: resolve as (a: WorkerResult | WorkerSpeakersResult | WorkerFailure) => void,
        reject,
      };
      child.stdin.write(`${JSON.stringify({ id, ...body })}\n`);
    });
  }

  /** Ends the process at once (SIGKILL); a request in flight fails with ProviderUnavailableError. */
  kill(): void {
    if (this.child && !this.exited) this.child.kill('SIGKILL');
  }

  /** Closes stdin (the worker ends after its current request) and waits, killing it after `graceMs`. */
  async stop(graceMs = 5_000): Promise<void> {
    const child = this.child;
    if (!child || this.exited) return;
    const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin.end();
    const timer = setTimeout(() => this.kill(), graceMs);
    await ended;
    clearTimeout(timer);
  }
}
