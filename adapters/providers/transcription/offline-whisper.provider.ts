import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../logging/logger.js';
import { mergeWordPieces } from '../../../domain/transcript-words.js';
import { InvalidSourceError, ProviderUnavailableError } from '../provider-errors.js';
import { decodeToWav16k } from './decode-audio.js';
import { defaultEngineLayout, type EngineLayout } from './install-layout.js';
import {
  TranscriptionEngineMissingError,
  type TranscribeRequest,
  type Transcript,
  type TranscriptionProvider,
} from './transcription-provider.js';
import type { SpeakerEmbedder, SpeakerEmbedRequest, SpeakerRegions } from './speakers.js';
import { normalizeLanguage, requestedLanguage, whisperLanguageCode } from './whisper-languages.js';
import {
  WhisperWorkerProcess,
  type SpeechCpuKernels,
  type WorkerAnswerOf,
  type WorkerRequestKind,
  type WorkerResult,
} from './whisper-worker-process.js';
import { inSpan } from '../../tracing/tracing.js';

export interface OfflineWhisperOptions {
  /** Python of the engine's environment; default: the one scripts/setup.sh installs in the tool cache. */
  python?: string;
  /** CTranslate2 Whisper model folder; default: the one scripts/setup.sh joins in the tool cache. */
  modelDir?: string;
  /** engines/transcription/worker.py; default: found from this module's place in the source tree. */
  workerScript?: string;
  /** The speaker encoder's pretrained.pt (embedSpeakers); default: the one scripts/setup.sh installs in the tool cache. */
  speakerModel?: string;
  /**
   * Whether the workers load the Whisper model (default true). False for a provider used only for embedSpeakers
   * (a deployment that transcribes over HTTP still finds speakers offline): its workers start faster and smaller.
   */
  transcription?: boolean;
  /** Worker processes, i.e. requests transcribed at once; more wait in a queue. Default 1. */
  concurrency?: number;
  /** Time limit of one transcription by a ready worker; past it the worker is killed (and replaced for the next). */
  timeoutMs: number;
  /** Time limit of decoding the source with ffmpeg. Default `timeoutMs`. */
  decodeTimeoutMs?: number;
  /** Time limit of a worker's start (loading the model). Default 120 s. */
  startTimeoutMs?: number;
  /** CPU threads of each worker; default the machine's cores divided among the workers. */
  cpuThreads?: number;
  /** The CPU kernels of the workers (whisper-worker-process.ts); default `native`. */
  cpuKernels?: SpeechCpuKernels;
  ffmpegPath?: string;
  logger?: Logger;
}

interface Slot {
  worker: WhisperWorkerProcess | null;
  busy: boolean;
}

function abortError(): Error {
  const error = new Error('the transcription was aborted');
  error.name = 'AbortError';
  return error;
}

/**
 * A worker's transcribe answer as the provider's transcript. Words are whole: faster-whisper starts a word at a hyphen
 * ("USB-C" is " USB", "-C") and the worker says which words it began with a space (`spaced`: " is", " -5" stay two
 * words); an answer without `spaced` (a worker.py before it) is joined by the hyphen alone (domain/transcript-words.ts).
 */
export function transcriptOfWorkerResult(answer: WorkerResult): Transcript {
  return {
    language: normalizeLanguage(answer.language) ?? answer.language, // Whisper's `jw` is the ISO `jv`
    duration: answer.duration,
    segments: answer.segments,
    words: mergeWordPieces(
      answer.words.map((w) => ({
        start: w.start,
        end: w.end,
        word: w.word,
        confidence: w.probability,
        ...(w.spaced === undefined ? {} : { spaced: w.spaced }),
      })),
    ),
  };
}

/**
 * The offline transcription provider: faster-whisper (Whisper base, CPU int8) in long-lived Python worker
 * processes (engines/transcription/worker.py) supervised here. Workers start lazily on the first request that
 * needs one and are replaced when they die; at most `concurrency` requests run at once and the rest queue in
 * order; a request past `timeoutMs` kills its worker. Every source is first decoded by ffmpeg into a 16 kHz mono
 * WAV in a private temporary folder, so the engine never sees a storage path.
 */
export class OfflineWhisperProvider implements TranscriptionProvider, SpeakerEmbedder {
  readonly name = 'offline-whisper';
  private readonly layout: EngineLayout;
  private readonly slots: Slot[];
  private readonly waiting: {
    resolve: (slot: Slot) => void;
    reject: (e: Error) => void;
    signal?: AbortSignal;
    onAbort: () => void;
  }[] = [];
  private readonly cpuThreads: number;
  private installChecked = false;
  private speakersChecked = false;
  private closed = false;

  constructor(private readonly opts: OfflineWhisperOptions) {
    const defaults = defaultEngineLayout();
    this.layout = {
      python: opts.python ?? defaults.python,
      modelDir: opts.modelDir ?? defaults.modelDir,
      workerScript: opts.workerScript ?? defaults.workerScript,
      speakerModel: opts.speakerModel ?? defaults.speakerModel,
    };
    const concurrency = Math.max(1, Math.floor(opts.concurrency ?? 1));
    this.slots = Array.from({ length: concurrency }, () => ({ worker: null, busy: false }));
    this.cpuThreads = opts.cpuThreads ?? Math.max(1, Math.floor(availableParallelism() / concurrency));
  }

  /** Process ids of the running workers (for operators and tests). */
  workerPids(): number[] {
    return this.slots.flatMap((s) => (s.worker?.alive && s.worker.pid !== undefined ? [s.worker.pid] : []));
  }

  /** Process ids of the workers with a request in flight (for tests). */
  busyWorkerPids(): number[] {
    return this.slots.flatMap((s) =>
      s.worker?.alive && s.worker.busy && s.worker.pid !== undefined ? [s.worker.pid] : [],
    );
  }

  async transcribe(request: TranscribeRequest): Promise<Transcript> {
    if (this.opts.transcription === false)
      throw new Error('this offline speech provider was created for speakers only');
    // The same languages as the HTTP provider (whisper-languages.ts): a name, any case or a region is accepted, an
    // unknown one refused before any work (InvalidSourceError); the worker gets Whisper's own code.
    const language = request.language ? requestedLanguage(request.language) : undefined;
    this.checkInstalled();
    return transcriptOfWorkerResult(await this.call('transcribe', { ...request, language }));
  }

  /**
   * Speech regions of an audio (or video) file with one voice embedding each (engines/transcription/speakers.py:
   * Silero VAD, regions of at most 3 s, Resemblyzer's encoder), times in seconds on the file's timeline. Same
   * supervision as transcribe: the same workers, queue, time limit and abort.
   */
  async embedSpeakers(request: SpeakerEmbedRequest): Promise<SpeakerRegions> {
    this.checkInstalled();
    if (!this.speakersChecked) {
      if (!existsSync(this.layout.speakerModel))
        throw new TranscriptionEngineMissingError(
          "the offline speech engine's speaker model is missing: run bash scripts/setup.sh",
        );
      this.speakersChecked = true;
    }
    const answer = await this.call('speakers', request);
    return { duration: answer.duration, regions: answer.regions };
  }

  /**
   * Queues for a worker, decodes the source into a private WAV, asks the worker and maps its failures. One
   * `engine speech` span of the caller's trace covers it (the worker is a long-lived process: it cannot take the trace
   * from its environment per run as the other engines do, adapters/infra/tool-process.ts).
   */
  private call<K extends WorkerRequestKind>(
    kind: K,
    request: TranscribeRequest,
  ): Promise<Exclude<WorkerAnswerOf<K>, { error: string }>> {
    return inSpan('engine speech', { 'engine.name': 'speech', 'engine.request': kind }, () => this.ask(kind, request));
  }

  private async ask<K extends WorkerRequestKind>(
    kind: K,
    request: TranscribeRequest,
  ): Promise<Exclude<WorkerAnswerOf<K>, { error: string }>> {
    const slot = await this.acquire(request.signal);
    let dir: string | null = null;
    let answer: WorkerAnswerOf<K>;
    try {
      dir = await mkdtemp(join(tmpdir(), 'paycore-stt-'));
      answer = await this.run(slot, kind, request, join(dir, 'audio.wav'));
    } finally {
      if (dir) await rm(dir, { recursive: true, force: true });
      this.release(slot);
    }
    if ('error' in answer) {
      if (answer.code === 'invalid_audio') throw new InvalidSourceError('the audio could not be decoded');
      throw new Error(`the speech engine failed: ${answer.error}`);
    }
    if ((kind === 'speakers') !== 'regions' in answer)
      throw new Error('the speech engine answered another kind of request');
    return answer as Exclude<WorkerAnswerOf<K>, { error: string }>;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) {
      w.signal?.removeEventListener('abort', w.onAbort);
      w.reject(new ProviderUnavailableError('the transcription provider is closing'));
    }
    await Promise.all(this.slots.map((s) => s.worker?.stop()));
  }

  private checkInstalled(): void {
    if (this.installChecked) return;
    for (const [what, path] of [
      ['Python environment', this.layout.python],
      ...(this.opts.transcription === false ? [] : ([['model', join(this.layout.modelDir, 'model.bin')]] as const)),
      ['worker script', this.layout.workerScript],
    ] as const) {
      if (!existsSync(path))
        throw new TranscriptionEngineMissingError(
          `the offline speech engine's ${what} is missing: run bash scripts/setup.sh`,
        );
    }
    this.installChecked = true;
  }

  private async run<K extends WorkerRequestKind>(
    slot: Slot,
    kind: K,
    request: TranscribeRequest,
    wav: string,
  ): Promise<WorkerAnswerOf<K>> {
    const signal = request.signal;
    await decodeToWav16k(request.path, wav, {
      ffmpegPath: this.opts.ffmpegPath,
      timeoutMs: this.opts.decodeTimeoutMs ?? this.opts.timeoutMs,
      signal,
    });
    if (signal?.aborted) throw abortError();

    if (!slot.worker?.alive) {
      slot.worker = new WhisperWorkerProcess({
        python: this.layout.python,
        workerScript: this.layout.workerScript,
        modelDir: this.opts.transcription === false ? undefined : this.layout.modelDir,
        // The voice encoder loads in 0.03 s, so every worker gets it when it is installed.
        speakerModel: existsSync(this.layout.speakerModel) ? this.layout.speakerModel : undefined,
        cpuThreads: this.cpuThreads,
        cpuKernels: this.opts.cpuKernels ?? 'native',
        startTimeoutMs: this.opts.startTimeoutMs ?? 120_000,
        logger: this.opts.logger,
      });
      try {
        await slot.worker.start();
      } catch (error) {
        slot.worker.kill();
        slot.worker = null;
        throw error;
      }
    }
    const worker = slot.worker;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      worker.kill();
    }, this.opts.timeoutMs);
    const onAbort = () => worker.kill();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await worker.request<K>({
        ...(kind === 'speakers' ? { kind } : {}),
        path: wav,
        ...(request.language && kind === 'transcribe' ? { language: whisperLanguageCode(request.language) } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw abortError();
      if (timedOut)
        throw new ProviderUnavailableError(
          `the transcription took longer than ${this.opts.timeoutMs} ms; its speech worker was stopped`,
        );
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private acquire(signal?: AbortSignal): Promise<Slot> {
    if (this.closed) return Promise.reject(new ProviderUnavailableError('the transcription provider is closed'));
    if (signal?.aborted) return Promise.reject(abortError());
    const free = this.slots.find((s) => !s.busy);
    if (free) {
      free.busy = true;
      return Promise.resolve(free);
    }
    return new Promise<Slot>((resolve, reject) => {
      const entry = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const i = this.waiting.indexOf(entry);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(abortError());
        },
      };
      signal?.addEventListener('abort', entry.onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  private release(slot: Slot): void {
    const next = this.waiting.shift();
    if (next) {
      next.signal?.removeEventListener('abort', next.onAbort);
      next.resolve(slot); // handed over still busy
    } else {
      slot.busy = false;
    }
  }
}
