import { DomainError } from './errors.js';

/**
 * Jobs of the processing interface (spec section 3): queued → processing → completed | failed. A temporary
 * provider outage moves a processing job back to queued (its reservation kept). This service adds `cancelled`:
 * a queued job its company cancels (`POST /v1/jobs/{id}/cancel`), its reservation released; a job that has
 * started cannot be cancelled. Nothing leaves a terminal state.
 */
export type JobStatus = 'queued' | 'processing' | 'completed' | 'failed' | 'cancelled';
export const JOB_STATUSES: readonly JobStatus[] = ['queued', 'processing', 'completed', 'failed', 'cancelled'];
export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];
export const UNFINISHED_JOB_STATUSES: readonly JobStatus[] = ['queued', 'processing'];

const TRANSITIONS: Readonly<Record<JobStatus, readonly JobStatus[]>> = {
  queued: ['processing', 'failed', 'cancelled'],
  processing: ['completed', 'failed', 'queued'],
  completed: [],
  failed: [],
  cancelled: [],
};

export function canTransition(from: JobStatus, to: JobStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The states a job may enter `to` from: the WHERE clause of every status change. */
export function statusesBefore(to: JobStatus): JobStatus[] {
  return (Object.keys(TRANSITIONS) as JobStatus[]).filter((from) => canTransition(from, to));
}

export const isTerminal = (s: JobStatus): boolean => TERMINAL_JOB_STATUSES.includes(s);

/** Scheduler and queue limits (spec section 8), enforced in PostgreSQL across every worker process. */
export const JOB_LIMITS = {
  activePerCompany: 1,
  activePlatform: 3,
  /** Unfinished (queued or processing) jobs per company; one more is refused with 429. */
  pendingPerCompany: 100,
} as const;

/**
 * How a queued job waits for a processing slot (patch `job-slot-wake`): its workflow tries the claim once, and when the
 * slot is busy waits for the `slotFreed` signal, which the workflow of a job leaving its slot sends to the jobs that
 * could take it (and a cancel to the job it cancelled). The timer is the fallback for a wake that never comes (a worker
 * of an older build ended the job, or a signal could not be sent): first after `firstMs`, then twice as long each time,
 * up to `maxMs`, so a job waiting for hours adds a few events an hour to its history.
 */
export const SLOT_WAIT = { signal: 'slotFreed', firstMs: 15_000, maxMs: 300_000 } as const;

/** At most this many result files per job (the file operations produce one). */
export const MAX_RESULT_FILES = 20;

/**
 * Waits after a temporary provider outage before the job competes for a slot again: 30 s doubling to at most
 * 10 minutes. After `outageGiveUpHours` of consecutive outage the job fails and its reservation is released.
 */
export const OUTAGE_RETRY = { firstDelayMs: 30_000, maxDelayMs: 600_000, giveUpHours: 48 } as const;

export function outageDelayMs(
  outageNo: number,
  schedule: { firstDelayMs: number; maxDelayMs: number } = OUTAGE_RETRY,
): number {
  return Math.min(schedule.maxDelayMs, schedule.firstDelayMs * 2 ** Math.max(0, outageNo - 1));
}

/** Error codes a failed job records (stable, documented in docs/processing.md). */
export type JobErrorCode =
  | 'invalid_source' // the source could not be processed (damaged, wrong password at run time, crop outside image…)
  | 'source_missing' // a source disappeared before the job ran
  | 'provider_unavailable' // the outage outlasted OUTAGE_RETRY.giveUpHours
  | 'processing_timeout' // the engine ran past its time limit on the source (not retried; docs/processing.md)
  | 'processing_error'; // an unexpected error persisted through every retry

/** Why a job may not be deleted yet. */
export function assertDeletable(status: JobStatus): void {
  if (!isTerminal(status)) {
    throw new DomainError('conflict', `The job is ${status}; only a completed, failed or cancelled job can be deleted`);
  }
}

/** Why a job may not be cancelled: only a queued job can be (409 `job_not_cancellable` otherwise). */
export function assertCancellable(status: JobStatus): void {
  if (!canTransition(status, 'cancelled')) {
    throw new DomainError(
      'job_not_cancellable',
      status === 'processing'
        ? 'The job is processing; only a queued job can be cancelled'
        : `The job is ${status}; only a queued job can be cancelled`,
    );
  }
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  pdf: 'pdf',
  jpg: 'jpg',
  png: 'png',
  webp: 'webp',
  txt: 'txt',
  docx: 'docx',
  srt: 'srt',
  vtt: 'vtt',
  json: 'json',
  xlsx: 'xlsx',
  zip: 'zip',
};

/**
 * The download name of a result: the first source's name without its extension, a suffix naming the
 * operation, and the output's extension (`report.pdf` → `report-rotated.pdf`; pdf-merge → `merged.pdf`).
 */
export function resultFileName(operation: string, sourceName: string, format: string): string {
  const ext = EXTENSIONS[format] ?? format;
  if (operation === 'pdf-merge') return `merged.${ext}`;
  // flow-extract's CSV files come in one ZIP: `invoice-extracted-csv.zip` beside `invoice-extracted.xlsx`.
  if (operation === 'flow-extract' && format === 'zip')
    return `${sourceName.replace(/\.[A-Za-z0-9]{1,5}$/, '') || 'result'}-extracted-csv.zip`;
  const stem = sourceName.replace(/\.[A-Za-z0-9]{1,5}$/, '') || 'result';
  const suffix: Readonly<Record<string, string>> = {
    'pdf-extract': 'extracted',
    'pdf-delete': 'pages-deleted',
    'pdf-rotate': 'rotated',
    'pdf-protect': 'protected',
    'pdf-unlock': 'unlocked',
    'pdf-watermark': 'watermarked',
    'pdf-number': 'numbered',
    'image-edit': 'edited',
    'image-compress': 'compressed',
    webp: 'converted',
    'ocr-text': 'text',
    'ocr-docx': 'text',
    'ocr-pdf': 'searchable',
    'audio-trim': 'trimmed',
    'video-trim': 'trimmed',
    'video-rotate': 'rotated',
    'video-resize': 'resized',
    'audio-compress': 'compressed',
    'video-compress': 'compressed',
    transcribe: 'transcript',
    meeting: 'meeting',
    'flow-extract': 'extracted',
  };
  return `${stem}-${suffix[operation] ?? operation}.${ext}`;
}
