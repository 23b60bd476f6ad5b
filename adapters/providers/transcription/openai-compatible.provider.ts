import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../logging/logger.js';
import { InvalidSourceError, ProviderUnavailableError } from '../provider-errors.js';
import { causeCode, errorDetail, readCapped, retryAfterMs, scrubError } from '../openai-http.js';
import { encodeToOggOpus16k } from './decode-audio.js';
import { parseVerboseTranscription, TranscriptionAnswerError } from './openai-compatible.response.js';
import {
  TranscriptionProviderConfigError,
  type TranscribeRequest,
  type Transcript,
  type TranscriptionProvider,
} from './transcription-provider.js';
import { requestedLanguage } from './whisper-languages.js';

export { TranscriptionAnswerError } from './openai-compatible.response.js';

/** OpenAI's upload limit of `/v1/audio/transcriptions` (25 MB); the encoded audio must not exceed it. */
export const OPENAI_MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

export interface OpenAiCompatibleOptions {
  /** The API's base URL including its version path, e.g. `https://api.openai.com/v1`; `/audio/transcriptions` is appended. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` and nowhere else: never logged, never in an error. */
  apiKey: string;
  /** e.g. `whisper-1` (it must support `verbose_json` with word timestamps). */
  model: string;
  /** Time limit of one HTTP request (upload, transcription and answer). */
  timeoutMs: number;
  /** Time limit of encoding the source with ffmpeg. Default `timeoutMs`. */
  encodeTimeoutMs?: number;
  /** Requests made when answers are malformed or violate the schema (1 = no retry). Default 3. */
  attempts?: number;
  /** Largest upload; a longer source is refused before sending. Default OPENAI_MAX_UPLOAD_BYTES. */
  maxUploadBytes?: number;
  /** Largest answer read (a transcript of the longest upload is a few MB). Default 64 MB. */
  maxAnswerBytes?: number;
  ffmpegPath?: string;
  logger?: Logger;
  /** The clock Retry-After dates are measured against. Default Date.now. */
  now?: () => number;
}

function abortError(): Error {
  const error = new Error('the transcription was aborted');
  error.name = 'AbortError';
  return error;
}

/** Request parameters whose refusal (HTTP 400) is the configuration's fault, not the audio's. */
const CONFIG_PARAMS = new Set(['model', 'response_format', 'timestamp_granularities', 'timestamp_granularities[]']);

/**
 * A client of an OpenAI-compatible `POST {baseUrl}/audio/transcriptions` (OpenAI, Groq, a self-hosted
 * faster-whisper server, …). The source is encoded by ffmpeg into 16 kHz mono Opus (24 kbit/s, about 10.8 MB an
 * hour) in a private temporary folder and uploaded as multipart form data with `response_format=verbose_json` and
 * `timestamp_granularities[]=word` and `segment`; the answer is checked against a schema and mapped onto the
 * Transcript. Failures (documented in engines/transcription/README.md, "Transcription providers"):
 * - 429, 5xx, 408, a time-out, a connection error → ProviderUnavailableError (retryAfterMs from Retry-After);
 * - 400/413/415/422 about the audio, or a source longer than the upload limit → InvalidSourceError (safe message);
 * - 401/403, 404, a redirect, a refused model or response format, an answer without word timestamps →
 *   TranscriptionProviderConfigError (an operator must fix the configuration);
 * - a malformed or schema-violating answer → tried again up to `attempts` requests, then TranscriptionAnswerError.
 * The API key and the base URL never appear in an error or a log line.
 */
export class OpenAiCompatibleTranscriptionProvider implements TranscriptionProvider {
  readonly name = 'openai-compatible';
  readonly #apiKey: string;
  readonly #endpoint: string;
  readonly #scrub: (text: string) => string;
  readonly #inFlight = new Set<AbortController>();
  #closed = false;

  private readonly opts: Omit<OpenAiCompatibleOptions, 'apiKey'>;

  constructor({ apiKey, ...opts }: OpenAiCompatibleOptions) {
    this.#apiKey = apiKey;
    this.opts = opts;
    const base = new URL(opts.baseUrl);
    base.pathname = `${base.pathname.replace(/\/+$/, '')}/audio/transcriptions`;
    this.#endpoint = base.toString();
    const secrets = [apiKey, opts.baseUrl, this.#endpoint, base.username, base.password].filter((s) => s.length >= 4);
    this.#scrub = (text) => secrets.reduce((t, s) => t.split(s).join('[redacted]'), text);
  }

  async transcribe(request: TranscribeRequest): Promise<Transcript> {
    try {
      return await this.run(request);
    } catch (error) {
      throw this.scrubbed(error);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const controller of this.#inFlight) controller.abort();
  }

  private async run(asked: TranscribeRequest): Promise<Transcript> {
    // The same languages as the offline engine (whisper-languages.ts): sent as the ISO 639-1 code the API expects,
    // an unknown one refused here (InvalidSourceError) before anything is encoded or sent.
    const request = { ...asked, language: asked.language ? requestedLanguage(asked.language) : undefined };
    if (this.#closed) throw new ProviderUnavailableError('the transcription provider is closed');
    if (request.signal?.aborted) throw abortError();
    const dir = await mkdtemp(join(tmpdir(), 'paycore-stt-api-'));
    try {
      const file = join(dir, 'audio.ogg');
      await encodeToOggOpus16k(request.path, file, {
        ffmpegPath: this.opts.ffmpegPath,
        timeoutMs: this.opts.encodeTimeoutMs ?? this.opts.timeoutMs,
        signal: request.signal,
      });
      if (request.signal?.aborted) throw abortError();
      const { size } = await stat(file);
      const limit = this.opts.maxUploadBytes ?? OPENAI_MAX_UPLOAD_BYTES;
      if (size > limit) {
        throw new InvalidSourceError(
          `the audio is too long for one request to the transcription provider (${mb(size)} MB encoded, at most ${mb(limit)} MB, about ${Math.floor(limit / 3000 / 360) / 10} hours)`,
        );
      }
      const audio = await openAsBlob(file, { type: 'audio/ogg' });
      const attempts = Math.max(1, Math.floor(this.opts.attempts ?? 3));
      let lastProblem = '';
      for (let attempt = 1; attempt <= attempts; attempt++) {
        try {
          return parseVerboseTranscription(await this.post(audio, request), request.language);
        } catch (error) {
          if (!(error instanceof TranscriptionAnswerError)) throw error;
          lastProblem = error.message;
          this.opts.logger?.warn(
            { provider: this.name, attempt, attempts, problem: this.#scrub(error.message) },
            'transcription API answer rejected',
          );
        }
      }
      throw new TranscriptionAnswerError(
        `the transcription API gave no usable answer in ${attempts} attempts (last: ${lastProblem})`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** One request; resolves with the raw body of a 2xx answer, throws a mapped error for anything else. */
  private async post(audio: Blob, request: TranscribeRequest): Promise<string> {
    const form = new FormData();
    form.append('file', audio, 'audio.ogg');
    form.append('model', this.opts.model);
    form.append('response_format', 'verbose_json');
    form.append('timestamp_granularities[]', 'word');
    form.append('timestamp_granularities[]', 'segment');
    if (request.language) form.append('language', request.language);

    const closer = new AbortController();
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    const signal = AbortSignal.any([timeout, closer.signal, ...(request.signal ? [request.signal] : [])]);
    this.#inFlight.add(closer);
    const started = Date.now();
    try {
      const response = await fetch(this.#endpoint, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.#apiKey}`, accept: 'application/json' },
        body: form,
        redirect: 'manual',
        signal,
      });
      const text = await readCapped(response, this.opts.maxAnswerBytes ?? 64 * 1024 * 1024);
      this.opts.logger?.debug(
        { provider: this.name, status: response.status, ms: Date.now() - started, bytes: audio.size },
        'transcription API answered',
      );
      if (response.ok) {
        if (text === null) throw new TranscriptionAnswerError('the answer is larger than the answer limit');
        return text;
      }
      throw this.failure(response, text ?? '');
    } catch (error) {
      if (request.signal?.aborted) throw abortError();
      if (closer.signal.aborted) throw new ProviderUnavailableError('the transcription provider is closing');
      if (timeout.aborted)
        throw new ProviderUnavailableError(`the transcription API did not answer within ${this.opts.timeoutMs} ms`);
      if (error instanceof Error && error.name === 'TypeError') {
        const code = causeCode(error);
        throw new ProviderUnavailableError(`the transcription API could not be reached${code ? ` (${code})` : ''}`);
      }
      throw error;
    } finally {
      this.#inFlight.delete(closer);
    }
  }

  /** The error for a non-2xx answer. The provider's own message is never passed on (OpenAI's 401 echoes part of the key). */
  private failure(response: Response, text: string): Error {
    const status = response.status;
    const detail = errorDetail(text);
    this.opts.logger?.warn(
      { provider: this.name, status, providerCode: detail.code, providerParam: detail.param },
      'transcription API refused the request',
    );
    if (status === 429 || status === 408 || status >= 500) {
      return new ProviderUnavailableError(
        status === 429
          ? 'the transcription API is rate limiting (HTTP 429)'
          : `the transcription API is unavailable (HTTP ${status})`,
        retryAfterMs(response.headers, this.opts.now ?? Date.now),
      );
    }
    if (status === 401 || status === 403) {
      return new TranscriptionProviderConfigError(
        `the transcription API refused the credentials (HTTP ${status}): check TRANSCRIPTION_API_KEY`,
      );
    }
    if (status === 404) {
      return new TranscriptionProviderConfigError(
        'the transcription API has no such endpoint or model (HTTP 404): check TRANSCRIPTION_API_BASE_URL and TRANSCRIPTION_API_MODEL',
      );
    }
    if (status >= 300 && status < 400) {
      return new TranscriptionProviderConfigError(
        `the transcription API answered with a redirect (HTTP ${status}): check TRANSCRIPTION_API_BASE_URL`,
      );
    }
    if (status === 400 || status === 413 || status === 415 || status === 422) {
      if (detail.param && CONFIG_PARAMS.has(detail.param)) {
        return new TranscriptionProviderConfigError(
          `the transcription API refused the request's ${detail.param} (HTTP ${status}): check TRANSCRIPTION_API_MODEL`,
        );
      }
      if (detail.param === 'language')
        return new InvalidSourceError('the transcription provider does not support the requested language');
      if (status === 413) return new InvalidSourceError('the audio is too large for the transcription provider');
      return new InvalidSourceError(`the transcription provider could not process the audio (HTTP ${status})`);
    }
    return new Error(`the transcription API answered HTTP ${status}`);
  }

  /** Defence in depth: whatever leaves this class is scrubbed of the key and the URLs (message, stack, causes). */
  private scrubbed(error: unknown): unknown {
    return scrubError(error, (text) => this.#scrub(text));
  }
}

const mb = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 10) / 10;
