/**
 * Errors every processing provider (the local media engines now; LLM, OCR and transcription providers later)
 * uses to tell the job pipeline what kind of failure happened:
 * - ProviderUnavailableError: temporary (an outage, a 429/5xx, a timeout). The job goes back to queued with
 *   its reservation held and competes for a slot again after a wait.
 * - InvalidSourceError: permanent for this input (a damaged file, an option that does not fit it). The job
 *   fails and its reservation is released. The message is shown to the client, so it never holds a secret.
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
