import { describe, expect, it } from 'vitest';
import {
  assertCancellable,
  assertDeletable,
  canTransition,
  isTerminal,
  outageDelayMs,
  resultFileName,
  statusesBefore,
  type JobStatus,
} from '../../../domain/jobs.js';

describe('job states', () => {
  it.each<[JobStatus, JobStatus, boolean]>([
    ['queued', 'processing', true],
    ['queued', 'failed', true],
    ['queued', 'completed', false],
    ['processing', 'completed', true],
    ['processing', 'failed', true],
    ['processing', 'queued', true], // a provider outage
    ['completed', 'failed', false],
    ['completed', 'queued', false],
    ['failed', 'processing', false],
    ['failed', 'completed', false],
    ['queued', 'cancelled', true], // POST /v1/jobs/{id}/cancel
    ['processing', 'cancelled', false],
    ['completed', 'cancelled', false],
    ['failed', 'cancelled', false],
    ['cancelled', 'queued', false],
    ['cancelled', 'processing', false],
  ])('%s → %s allowed: %s', (from, to, allowed) => {
    expect(canTransition(from, to)).toBe(allowed);
  });

  it('only completed, failed and cancelled are terminal, and only they can be deleted', () => {
    expect((['queued', 'processing', 'completed', 'failed', 'cancelled'] as const).filter(isTerminal)).toEqual([
      'completed',
      'failed',
      'cancelled',
    ]);
    expect(() => assertDeletable('queued')).toThrow(/only a completed, failed or cancelled job/);
    expect(() => assertDeletable('processing')).toThrow(/processing/);
    expect(() => assertDeletable('failed')).not.toThrow();
    expect(() => assertDeletable('cancelled')).not.toThrow();
  });

  it('only a queued job can be cancelled (409 job_not_cancellable otherwise)', () => {
    expect(() => assertCancellable('queued')).not.toThrow();
    for (const s of ['processing', 'completed', 'failed', 'cancelled'] as const) {
      expect(() => assertCancellable(s)).toThrow(expect.objectContaining({ code: 'job_not_cancellable' }));
    }
    expect(statusesBefore('cancelled')).toEqual(['queued']);
  });
});

describe('outage waits', () => {
  it.each([
    [1, 30_000],
    [2, 60_000],
    [3, 120_000],
    [5, 480_000],
    [6, 600_000],
    [40, 600_000],
  ])('outage %i waits %i ms', (n, ms) => {
    expect(outageDelayMs(n)).toBe(ms);
  });
});

describe('result file names', () => {
  it.each([
    ['pdf-rotate', 'report.pdf', 'pdf', 'report-rotated.pdf'],
    ['pdf-merge', 'a.pdf', 'pdf', 'merged.pdf'],
    ['image-edit', 'photo.PNG', 'jpg', 'photo-edited.jpg'],
    ['webp', 'scan.tiff', 'webp', 'scan-converted.webp'],
    ['image-compress', 'no-extension', 'png', 'no-extension-compressed.png'],
    ['pdf-unlock', '.pdf', 'pdf', 'result-unlocked.pdf'],
    ['pdf-number', 'v1.2 final.pdf', 'pdf', 'v1.2 final-numbered.pdf'],
  ])('%s of %s (%s) → %s', (op, source, format, expected) => {
    expect(resultFileName(op, source, format)).toBe(expected);
  });
});

describe('statusesBefore', () => {
  it('lists where each status change may start', () => {
    expect(statusesBefore('processing')).toEqual(['queued']);
    expect(statusesBefore('completed')).toEqual(['processing']);
    expect(statusesBefore('failed')).toEqual(['queued', 'processing']);
    expect(statusesBefore('queued')).toEqual(['processing']);
  });
});
