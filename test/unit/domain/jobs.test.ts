import { describe, expect, it } from 'vitest';
import { assertDeletable, canTransition, isTerminal, outageDelayMs, resultFileName, statusesBefore, type JobStatus } from '../../../domain/jobs.js';

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
  ])('%s → %s allowed: %s', (from, to, allowed) => {
    expect(canTransition(from, to)).toBe(allowed);
  });

  it('only completed and failed are terminal, and only they can be deleted', () => {
    expect((['queued', 'processing', 'completed', 'failed'] as const).filter(isTerminal)).toEqual(['completed', 'failed']);
    expect(() => assertDeletable('queued')).toThrow(/only a completed or failed job/);
    expect(() => assertDeletable('processing')).toThrow(/processing/);
    expect(() => assertDeletable('failed')).not.toThrow();
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
