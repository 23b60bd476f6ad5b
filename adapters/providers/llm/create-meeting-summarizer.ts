import type { Logger } from '../../logging/logger.js';
import {
  LanguageModelMeetingSummarizer,
  type MeetingSummarizer,
  type MeetingSummaryOptions,
} from './meeting-summary.js';
import { OpenAiCompatibleChatClient } from './openai-compatible-chat.js';

/** Which language model summarises meetings (the same shape as Config['llm']). */
export interface LlmSettings {
  readonly provider: 'none' | 'openai';
  /** The OpenAI-compatible chat API; present when `provider` is `openai`. `apiKey` is a secret. */
  readonly api?: {
    readonly baseUrl: string;
    readonly apiKey: string;
    readonly model: string;
    readonly timeoutMs: number;
  };
}

/**
 * The meeting summariser of a configuration: null for `none` (the meeting document then carries an extractive
 * summary and says so), else a LanguageModelMeetingSummarizer over the OpenAI-compatible chat client.
 */
export function createMeetingSummarizer(
  settings: LlmSettings,
  deps: { logger?: Logger } & MeetingSummaryOptions = {},
): MeetingSummarizer | null {
  if (settings.provider !== 'openai') return null;
  const api = settings.api;
  if (!api) throw new Error('LLM_PROVIDER=openai needs LLM_API_BASE_URL and LLM_API_KEY');
  const chat = new OpenAiCompatibleChatClient({
    baseUrl: api.baseUrl,
    apiKey: api.apiKey,
    model: api.model,
    timeoutMs: api.timeoutMs,
    logger: deps.logger,
  });
  return new LanguageModelMeetingSummarizer(chat, { maxTranscriptChars: deps.maxTranscriptChars });
}
