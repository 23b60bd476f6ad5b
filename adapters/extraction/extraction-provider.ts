import type { ExtractionRequest, ExtractionResult } from '../../domain/extraction.js';

/**
 * An extraction engine (issue 17): positioned text + field names (+ instructions) → values, line items and for each
 * value the exact source snippet it came from. Implementations: the offline engine (offline-engine.ts, the default
 * and what tests use) and an OpenAI-compatible language model (adapters/providers/llm/extraction.provider.ts).
 *
 * Failures use the provider errors of adapters/providers/provider-errors.ts: ProviderUnavailableError (temporary:
 * the job goes back to the queue with its reservation), a configuration error of the provider (the job fails as
 * `processing_error`), any other Error (unexpected; retried a few times, then failed). An engine's values are never
 * trusted as they are: the pipeline checks every value's evidence against the source (domain/extraction-evidence.ts).
 */
export interface ExtractionProvider {
  readonly name: string;
  extract(request: ExtractionRequest): Promise<ExtractionResult>;
  close?(): Promise<void>;
}
