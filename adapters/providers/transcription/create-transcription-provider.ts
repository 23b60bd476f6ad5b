import type { Logger } from '../../logging/logger.js';
import { OfflineWhisperProvider } from './offline-whisper.provider.js';
import { OpenAiCompatibleTranscriptionProvider } from './openai-compatible.provider.js';
import type { TranscriptionProvider } from './transcription-provider.js';
import type { SpeechCpuKernels } from './whisper-worker-process.js';

/** Which engine transcribes (the same shape as Config['transcription']). */
export interface TranscriptionSettings {
  readonly provider: 'offline' | 'openai';
  /** The offline engine's Python, model folder, worker processes and time limit of one transcription. */
  readonly python?: string;
  readonly modelDir?: string;
  /** The speaker encoder's weights (the offline engine also gives speaker regions). */
  readonly speakerModel?: string;
  readonly concurrency: number;
  readonly timeoutMs: number;
  /** CPU threads of each offline worker and their kernels (whisper-worker-process.ts). */
  readonly cpuThreads?: number;
  readonly cpuKernels?: SpeechCpuKernels;
  /** The OpenAI-compatible API; present when `provider` is `openai`. `apiKey` is a secret. */
  readonly api?: {
    readonly baseUrl: string;
    readonly apiKey: string;
    readonly model: string;
    readonly timeoutMs: number;
  };
}

/**
 * The transcription provider of a configuration: the offline speech engine (`offline`, the default) or the
 * OpenAI-compatible HTTP client (`openai`). Both decode the source with ffmpeg first, bounded by `timeoutMs`
 * of the offline engine and by the API's request time limit respectively.
 */
export function createTranscriptionProvider(
  settings: TranscriptionSettings,
  deps: { logger?: Logger; ffmpegPath?: string } = {},
): TranscriptionProvider {
  if (settings.provider === 'openai') {
    const api = settings.api;
    if (!api)
      throw new Error('TRANSCRIPTION_PROVIDER=openai needs TRANSCRIPTION_API_BASE_URL and TRANSCRIPTION_API_KEY');
    return new OpenAiCompatibleTranscriptionProvider({
      baseUrl: api.baseUrl,
      apiKey: api.apiKey,
      model: api.model,
      timeoutMs: api.timeoutMs,
      ffmpegPath: deps.ffmpegPath,
      logger: deps.logger,
    });
  }
  return new OfflineWhisperProvider({
    python: settings.python,
    modelDir: settings.modelDir,
    speakerModel: settings.speakerModel,
    concurrency: settings.concurrency,
    timeoutMs: settings.timeoutMs,
    cpuThreads: settings.cpuThreads,
    cpuKernels: settings.cpuKernels,
    ffmpegPath: deps.ffmpegPath,
    logger: deps.logger,
  });
}
