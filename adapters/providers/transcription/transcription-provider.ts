/**
 * The transcription provider interface: audio (or video) in, words with timestamps and confidence, segments,
 * language and duration out. Implementations: the offline engine (offline-whisper.provider.ts, the default and what
 * tests use); a production HTTP client comes later behind the same interface.
 *
 * Failures use the provider errors of ../provider-errors.ts:
 * - ProviderUnavailableError: temporary (the engine process died or timed out mid-request, or could not start);
 *   the same request may be tried again.
 * - InvalidSourceError: permanent for this input (no decodable audio stream); the message is safe to show.
 * - TranscriptionEngineMissingError (below): the engine is not installed (or its model does not load); an operator
 *   must run the setup.
 * - Any other Error: unexpected (the engine raised on this input); retried a few times by the pipeline, then failed.
 * - An Error named AbortError when the request's signal aborted it.
 */

/** One recognised word; times in seconds on the source's timeline, `confidence` in [0, 1]. */
export interface TranscriptWord {
  start: number;
  end: number;
  word: string;
  confidence: number;
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
  /** ISO 639-1 code; detected when absent. */
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
export class TranscriptionEngineMissingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TranscriptionEngineMissingError';
  }
}
