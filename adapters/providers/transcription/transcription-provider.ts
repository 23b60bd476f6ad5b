/**
 * The transcription provider interface: audio (or video) in, words with timestamps and confidence, segments,
 * language and duration out. Implementations: the offline engine (offline-whisper.provider.ts, the default and what
 * tests use) and an OpenAI-compatible HTTP client (openai-compatible.provider.ts); create-transcription-provider.ts
 * picks one from the configuration.
 *
 * Failures use the provider errors of ../provider-errors.ts:
 * - ProviderUnavailableError: temporary (the engine process died or timed out mid-request, or could not start);
 *   the same request may be tried again.
 * - InvalidSourceError: permanent for this input (no decodable audio stream); the message is safe to show.
 * - TranscriptionEngineMissingError (below): the engine is not installed (or its model does not load); an operator
 *   must run the setup.
 * - TranscriptionProviderConfigError (below): the HTTP provider refuses the configuration (401/403, unknown endpoint
 *   or model); an operator must fix it.
 * - Any other Error: unexpected (the engine raised on this input); retried a few times by the pipeline, then failed.
 * - An Error named AbortError when the request's signal aborted it.
 */

import { ProviderUnusableError } from '../provider-errors.js';

/** One recognised word; times in seconds on the source's timeline, `confidence` in [0, 1]. */
export interface TranscriptWord {
  start: number;
  end: number;
  /** The word without its leading space. */
  word: string;
  confidence: number;
  /**
   * Whether the engine began the word with a space (a word of its own) or not (it continues the text before it:
   * faster-whisper's "-C" of " USB", "-C"); absent when the engine cannot say. The join rule of
   * domain/transcript-words.ts reads it: " is", " -5" stay two words. Not part of any result file.
   */
  spaced?: boolean;
}

/** A run of text the engine decoded together (roughly a sentence or a phrase); times in seconds. */
export interface TranscriptSegment {
  start: number;
  end: number;
  text: string;
}

export interface Transcript {
  /** ISO 639-1 code the engine detected (or was given). */
  language: string;
  /** Seconds of audio the engine decoded. */
  duration: number;
  segments: TranscriptSegment[];
  /** Every word of every segment, in time order. */
  words: TranscriptWord[];
}

export interface TranscribeRequest {
  /** A local audio or video file (any container ffmpeg reads); only its first audio stream is used. */
  path: string;
  /**
   * ISO 639-1 code (a Whisper language name, any case, or a code with a region such as `en-US` is accepted too:
   * whisper-languages.ts `requestedLanguage`); detected when absent. A language Whisper does not know is refused by
   * every provider with InvalidSourceError before any work.
   */
  language?: string;
  /** Aborts the request: a queued one is dropped, a running one ends its engine process (restarted for the next). */
  signal?: AbortSignal;
}

export interface TranscriptionProvider {
  readonly name: string;
  transcribe(request: TranscribeRequest): Promise<Transcript>;
  /** Stops every engine process and fails queued requests; the provider is not used afterwards. */
  close(): Promise<void>;
}

/** The offline engine's Python environment or model is missing: `bash scripts/setup.sh` installs them. */
export class TranscriptionEngineMissingError extends ProviderUnusableError {
  constructor(message: string) {
    super(message);
    this.name = 'TranscriptionEngineMissingError';
  }
}

/**
 * The HTTP transcription provider refuses the configuration: the key (401/403), the base URL (404, a redirect) or
 * the model (refused, or no word timestamps). Not the client's fault and not cured by waiting: the pipeline should
 * not retry it, fail the job as `processing_error` with its reservation released (as for
 * TranscriptionEngineMissingError) and log it at error level for an operator. The message names the variable to
 * check, never its value.
 */
export class TranscriptionProviderConfigError extends ProviderUnusableError {
  constructor(message: string) {
    super(message);
    this.name = 'TranscriptionProviderConfigError';
  }
}
