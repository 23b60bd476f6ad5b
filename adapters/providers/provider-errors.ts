/**
 * Errors every processing provider (the media and OCR engines, transcription, language models) uses to tell the job
 * pipeline what kind of failure happened:
 * - ProviderUnavailableError: temporary (an outage, a 429/5xx, a timeout). The job goes back to queued with
 *   its reservation held and competes for a slot again after a wait.
 * - InvalidSourceError: permanent for this input (a damaged file, an option that does not fit it). The job
 *   fails and its reservation is released. Its message is shown to the client (the job's `error` and its
 *   `job.failed` event), so it is always this service's own words, stable for a kind of failure: never an engine's
 *   or a library's text, which may name internals or server paths and changes with their versions. What the engine
 *   said goes in `detail`, which the job pipeline logs with the job's id and never shows
 *   (activities/processing.activities.ts, `sourceFailure`).
 * - ProviderUnusableError: this server cannot use the provider as configured: a missing engine, a refused key, URL or
 *   model, or answers that stay unusable after the provider's own retries. Not the client's fault and not cured by waiting: the job fails at once as
 *   `processing_error` with its reservation released and a message that names no setting; the error is logged for
 *   an operator. Its message names the variable to check, never its value.
 * - WorkTimeoutError: the engine ran past its time limit on this source and was stopped. The source's size is what
 *   it ran out of, so running it again would only hold a processing slot as long once more: the job fails at once as
 *   `processing_timeout`, its reservation released.
 * Anything else is unexpected: retried a few times, then the job fails as `processing_error`.
 */
export class ProviderUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ProviderUnavailableError';
  }
}

export class InvalidSourceError extends Error {
  /**
   * The engine's or library's own text about the failure, for the log only. Not enumerable, so nothing that copies or
   * serialises the error's fields carries it along: it is read by name where it is logged.
   */
  declare readonly detail: string | undefined;
  constructor(message: string, opts: { detail?: string | undefined } = {}) {
    super(message);
    this.name = 'InvalidSourceError';
    Object.defineProperty(this, 'detail', { value: opts.detail, enumerable: false });
  }
}

/** The text of a caught error, one line and bounded, for an InvalidSourceError's `detail` (logged, never shown). */
export const engineDetail = (e: unknown): string =>
  (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').trim().slice(0, 500);

export class ProviderUnusableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderUnusableError';
  }
}

export class WorkTimeoutError extends Error {
  constructor(readonly limitMs: number) {
    super(
      `The operation ran past its time limit of ${Math.round(limitMs / 60_000) || 1} minute(s) on this source and was stopped; it is not retried, ` +
        'and the reservation was released. Trim the source into shorter parts or lower its resolution, then submit a new job.',
    );
    this.name = 'WorkTimeoutError';
  }
}
