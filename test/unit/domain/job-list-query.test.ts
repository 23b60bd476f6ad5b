import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../domain/errors.js';
import { parseDateTime, parseJobListQuery } from '../../../domain/validation/job-list-query.js';

describe('RFC 3339 date-times of the job list', () => {
  it.each([
    ['2025-03-04T09:00:00Z', '2025-03-04T09:00:00.000Z'],
    ['2025-03-04t09:00:00z', '2025-03-04T09:00:00.000Z'],
    ['2025-03-04T10:30:00+01:30', '2025-03-04T09:00:00.000Z'],
    ['2025-03-04T00:00:00-05:00', '2025-03-04T05:00:00.000Z'],
    ['2025-03-04T09:00:00.1234567Z', '2025-03-04T09:00:00.123Z'],
    ['2016-12-31T23:59:60Z', '2017-01-01T00:00:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['0004-02-29T00:00:00Z', '0004-02-29T00:00:00.000Z'],
  ])('%s is %s', (raw, iso) => {
    expect(parseDateTime(raw)?.toISOString()).toBe(iso);
  });

  it.each([
    '2025-03-04',
    '2025-03-04T09:00:00',
    '2025-03-04 09:00:00Z',
    '2025-02-29T00:00:00Z',
    '2025-04-31T00:00:00Z',
    '2025-13-01T00:00:00Z',
    '2025-03-04T24:00:00Z',
    '2025-03-04T09:60:00Z',
    '2025-03-04T09:00:61Z',
    '2025-03-04T09:00:00+24:00',
    `2025-03-04T09:00:00.${'1'.repeat(60)}Z`,
    'yesterday',
  ])('%s is refused', (raw) => {
    expect(parseDateTime(raw)).toBeNull();
  });
});

describe('the job list query', () => {
  it('takes comma-separated values, deduplicated, and the time bounds', () => {
    expect(
      parseJobListQuery({ status: 'queued,failed,queued', operation: 'webp', created_after: '2025-03-04T09:00:00Z' }),
    ).toEqual({
      statuses: ['queued', 'failed'],
      operations: ['webp'],
      batchId: undefined,
      createdAfter: new Date('2025-03-04T09:00:00Z'),
      createdBefore: undefined,
    });
  });

  it('refuses every bad parameter at once, naming each', () => {
    try {
      parseJobListQuery({
        status: 'queued, failed',
        operation: 'nope',
        batch_id: 'b',
        created_before: 'x',
        limit: ['1', '2'],
        q: 'x',
      });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      const paths = ((e as DomainError).details['issues'] as Array<{ path: string }>).map((i) => i.path).sort();
      expect(paths).toEqual(['batch_id', 'created_before', 'limit', 'operation', 'q', 'status']);
    }
  });
});
