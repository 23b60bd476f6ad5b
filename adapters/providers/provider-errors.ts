/**
 * Errors every processing provider (the media and OCR engines, transcription, language models) uses to tell the job
 * pipeline what kind of failure happened:
 * - ProviderUnavailableError: temporary (an outage, a 429/5xx, a timeout). The job goes back to queued with
 *   its reservation held and competes for a slot again after a wait.
 * - InvalidSourceError: permanent for this input (a damaged file, an option that does not fit it). The job
 *   fails and its reservation is released. The message is shown to the client, so it never holds a secret.
 * - ProviderUnusableError: this server cannot use the provider as configured: a missing engine, a refused key, URL or
 *   model, or answers that stay unusable after the provider's own retries. Not the client's fault and not cured by waiting: the job fails at once as
 *   `processing_error` with its reservation released and a message that names no setting; the error is logged for
 *   an operator. Its message names the variable to check, never its value.
 * Anything else is unexpected: retried a few times, then the job fails as `processing_error`.
 */
export class ProviderUnavailableError extends Error {
  constructor(message: string, readonly retryAfterMs?: number) {
    super(message);
    this.name = 'ProviderUnavailableError';
  }
}

export class InvalidSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSourceError';
  }
}

export class ProviderUnusableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderUnusableError';
  }
}
