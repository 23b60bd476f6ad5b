import type { SpeechOperation } from '../../domain/speech.js';
import type { AvailableOperation } from '../../domain/validation/processing-request.js';

/*
 * The contract of an operation runner (what a job's activity hands an engine and gets back), apart from the runners
 * themselves so that the engines (OCR, extraction, media) and the activities depend on it, not on each other.
 */

/** One source of a job as the runner sees it: where its bytes are, and its display name. */
export interface RunnerSource {
  path: string;
  filename: string;
  /** The upload it is (named in results that list their sources). */
  uploadId?: string;
  /** Its pages as measured at upload: the count it was quoted and charged for (results that report pages say this). */
  pages?: number;
}

/**
 * One output of an operation: its bytes, or a file the runner wrote in `workDir` (large media: moved into storage,
 * never read into memory), and its format (the file extension without dot).
 */
export type RunnerOutput = ({ data: Uint8Array; format: string } | { path: string; format: string }) & {
  /** Notes about the result the client should see (the job's `result.warnings`), e.g. a page OCR could hardly read. */
  warnings?: string[];
};

/** Where a long operation stands: shown as the activity's heartbeat details (Temporal UI), and handed back on a retry. */
export interface RunnerProgress {
  /** Done so far, 0 to 1. */
  fraction: number;
  /** A short human-readable note (e.g. "page 3 of 10"). */
  detail?: string;
  /**
   * What a retry of the operation may start from (JSON; e.g. the pages already done). Files it names live in
   * `checkpointDir`; the runner must check they are there (a retry may run on another worker) and start over
   * when they are not.
   */
  checkpoint?: unknown;
}

export interface RunnerInput {
  sources: RunnerSource[];
  /** Validated options, including any password (which only ever lives in memory here). */
  options: Record<string, unknown>;
  /** A private scratch folder for tools that work on files (qpdf); emptied before each attempt, removed by the caller. */
  workDir: string;
  /** A private folder kept across attempts of the same job (for checkpointed partial results); removed when the job ends. */
  checkpointDir?: string;
  /** Reports progress; sent as the activity's heartbeat at once, so a checkpoint survives a worker that dies next. */
  progress?: (p: RunnerProgress) => void;
  /** The checkpoint of the last progress a previous attempt reported, if any. */
  resume?: unknown;
  /** Aborted when the attempt is cancelled (heartbeat timeout, worker shutdown): child processes are stopped. */
  signal?: AbortSignal;
}

/**
 * Runs one operation. Throws InvalidSourceError for inputs that cannot be processed and
 * ProviderUnavailableError (adapters/providers) when an outside provider is temporarily down. New operations
 * (media, OCR, transcription, extraction) drop in as further entries of an OperationRunners map.
 */
export type OperationRunner = (input: RunnerInput) => Promise<RunnerOutput[]>;
/** The operations that run as one activity; the speech operations run chunk by chunk (activities/speech.activities.ts). */
export type RunnerOperation = Exclude<AvailableOperation, SpeechOperation>;
export type OperationRunners = Readonly<Record<RunnerOperation, OperationRunner>>;
