import type { Logger } from '../logging/logger.js';
import { LanguageModelExtractionProvider } from '../providers/llm/extraction.provider.js';
import { OpenAiCompatibleChatClient } from '../providers/llm/openai-compatible-chat.js';
import type { ExtractionProvider } from './extraction-provider.js';

/** Which extraction engine runs (the same shape as Config['extraction']). */
export interface ExtractionSettings {
  readonly provider: 'offline' | 'openai';
  /** The OpenAI-compatible chat API (the LLM_API_* settings); present when `provider` is `openai`. `apiKey` is a secret. */
  readonly api?: {
    readonly baseUrl: string;
    readonly apiKey: string;
    readonly model: string;
    readonly timeoutMs: number;
  };
}

export interface ExtractionProviderDeps {
  logger?: Logger;
  /**
   * The offline engine (adapters/extraction/offline-engine.ts), given by the composition root: returned for
   * `offline`, not built for `openai`. A function is called only when the offline engine is chosen.
   */
  offline: ExtractionProvider | (() => ExtractionProvider);
}

/**
 * The extraction engine of a configuration: the offline engine for `offline` (the default), else a
 * LanguageModelExtractionProvider over the OpenAI-compatible chat client with the LLM_API_* settings.
 */
export function createExtractionProvider(
  settings: ExtractionSettings,
  deps: ExtractionProviderDeps,
): ExtractionProvider {
  if (settings.provider !== 'openai') return typeof deps.offline === 'function' ? deps.offline() : deps.offline;
  const api = settings.api;
  if (!api) throw new Error('EXTRACTION_PROVIDER=openai needs LLM_API_BASE_URL and LLM_API_KEY');
  const chat = new OpenAiCompatibleChatClient({
    baseUrl: api.baseUrl,
    apiKey: api.apiKey,
    model: api.model,
    timeoutMs: api.timeoutMs,
    logger: deps.logger,
  });
  return new LanguageModelExtractionProvider(chat);
}
