import { describe, expect, it } from 'vitest';
import { parseBatchRequest } from '../../../domain/validation/processing-request.js';
import { countChildren, finalBatchStatus } from '../../../domain/batches.js';
import { DomainError } from '../../../domain/errors.js';

const U = (c: string) => `upl_${c.repeat(20)}`;
const issuesOf = (body: unknown): string[] => {
  try {
    parseBatchRequest(body);
    return [];
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    return ((e as DomainError).details['issues'] as Array<{ path: string }>).map((i) => i.path);
  }
};

describe('batch bodies', () => {
  it('upload_ids: one item per upload (repeats allowed); items: one per group; webhook_mode defaults to batch', () => {
    const short = parseBatchRequest({
      operation: 'pdf-rotate',
      upload_ids: [U('a'), U('b'), U('a')],
      options: { angle: 90 },
      max_credits: 9,
    });
    expect(short).toMatchObject({
      operation: 'pdf-rotate',
      options: { angle: 90 },
      maxCredits: 9,
      webhookId: null,
      webhookMode: 'batch',
    });
    expect(short.items.map((i) => [i.uploadIds, i.path, i.sourcePath(0)])).toEqual([
      [[U('a')], 'upload_ids.0', 'upload_ids.0'],
      [[U('b')], 'upload_ids.1', 'upload_ids.1'],
      [[U('a')], 'upload_ids.2', 'upload_ids.2'],
    ]);
    const grouped = parseBatchRequest({
      operation: 'pdf-merge',
      items: [{ upload_ids: [U('a'), U('b')] }],
      webhook_mode: 'both',
    });
    expect(grouped.items[0]!.sourcePath(1)).toBe('items.0.upload_ids.1');
    expect(grouped.webhookMode).toBe('both');
  });

  it('names the item of every problem, and refuses both forms, neither, more than 100 items and job-only fields', () => {
    expect(
      issuesOf({
        operation: 'pdf-merge',
        items: [{ upload_ids: [U('a'), U('b')] }, { upload_ids: [U('a')] }, { upload_ids: [U('a'), U('a')] }],
      }),
    ).toEqual(['items.1.upload_ids', 'items.2.upload_ids']);
    expect(issuesOf({ operation: 'pdf-merge', upload_ids: [U('a')] })).toEqual(['upload_ids.0']);
    expect(issuesOf({ operation: 'webp', upload_ids: [U('a')], items: [{ upload_ids: [U('a')] }] })).toEqual(['items']);
    expect(issuesOf({ operation: 'webp' })).toEqual(['upload_ids']);
    expect(issuesOf({ operation: 'webp', upload_ids: Array(101).fill(U('a')) })).toEqual(['upload_ids']);
    expect(issuesOf({ operation: 'webp', items: Array(101).fill({ upload_ids: [U('a')] }) })).toEqual(['items']);
    expect(issuesOf({ operation: 'webp', items: [{ upload_ids: [U('a')], extra: 1 }] })).toEqual(['items.0']);
    expect(issuesOf({ operation: 'pdf-rotate', upload_ids: [U('a')], options: { angle: 45 } })).toEqual([
      'options.angle',
    ]);
    expect(issuesOf({ operation: 'webp', upload_ids: [U('a')], webhook_mode: 'sometimes' })).toEqual(['webhook_mode']);
    // webhook_id: the job rule (a well-formed id passes the body; whether it names a webhook of the company is 404 later).
    expect(issuesOf({ operation: 'webp', upload_ids: [U('a')], webhook_id: `whe_${'a'.repeat(20)}` })).toEqual([]);
    expect(issuesOf({ operation: 'webp', upload_ids: [U('a')], webhook_id: 'whk_nope' })).toEqual(['webhook_id']);
    expect(issuesOf({ operation: 'webp', upload_ids: [U('a')], fields: ['x'] })).toEqual(['fields']);
  });
});

describe('batch state', () => {
  it('ends completed, partial or failed only once every child has ended', () => {
    expect(finalBatchStatus(countChildren(['completed', 'completed']))).toBe('completed');
    expect(finalBatchStatus(countChildren(['completed', 'failed']))).toBe('partial');
    expect(finalBatchStatus(countChildren(['failed', 'failed']))).toBe('failed');
    expect(finalBatchStatus(countChildren(['completed', 'processing']))).toBeNull();
    expect(finalBatchStatus(countChildren(['queued']))).toBeNull();
    expect(countChildren(['queued', 'failed', 'failed'])).toEqual({
      total: 3,
      queued: 1,
      processing: 0,
      completed: 0,
      failed: 2,
      cancelled: 0,
    });
    // A child cancelled while queued ran nothing: not completed, like a failed one.
    expect(finalBatchStatus(countChildren(['completed', 'cancelled']))).toBe('partial');
    expect(finalBatchStatus(countChildren(['cancelled', 'failed']))).toBe('failed');
    expect(finalBatchStatus(countChildren(['cancelled', 'queued']))).toBeNull();
  });
});
