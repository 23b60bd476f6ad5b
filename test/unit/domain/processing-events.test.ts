import { describe, expect, it } from 'vitest';
import {
  batchEventBody,
  batchEvents,
  childWebhookId,
  jobEventBody,
  jobEvents,
  type EventBatchInput,
  type EventJobInput,
} from '../../../domain/processing-events.js';
import { countChildren, finalBatchStatus, WEBHOOK_MODES } from '../../../domain/batches.js';

const WH = 'whe_AAAAAAAAAAAAAAAAAAAA';
const at = new Date('2026-11-23T10:00:00.000Z');

const job = (over: Partial<EventJobInput> = {}): EventJobInput => ({
  id: 'job_AAAAAAAAAAAAAAAAAAAA',
  status: 'completed',
  operation: 'pdf-rotate',
  uploadIds: ['upl_AAAAAAAAAAAAAAAAAAAA'],
  batchId: null,
  quotedCredits: 4,
  createdAt: new Date('2026-11-23T09:59:00.000Z'),
  startedAt: new Date('2026-11-23T09:59:30.000Z'),
  finishedAt: at,
  errorCode: null,
  errorMessage: null,
  resultFiles: [{ bytes: 10, contentType: 'application/pdf' }],
  resultsExpireAt: new Date('2026-11-30T10:00:00.000Z'),
  ...over,
});

describe('which events a job or batch emits, by webhook_mode', () => {
  it('a job alone emits its terminal event only when it names a webhook', () => {
    expect(jobEvents({ status: 'completed', webhookId: WH, batch: null })).toEqual(['job.completed']);
    expect(jobEvents({ status: 'failed', webhookId: WH, batch: null })).toEqual(['job.failed']);
    expect(jobEvents({ status: 'completed', webhookId: null, batch: null })).toEqual([]);
  });

  it('mode batch: one batch.* event, no item events; items: item events only; both: both', () => {
    const table = WEBHOOK_MODES.map((mode) => ({
      mode,
      child: jobEvents({ status: 'failed', webhookId: WH, batch: { mode } }),
      batch: batchEvents({ status: 'partial', webhookId: WH, mode }),
      childStores: childWebhookId(WH, mode),
    }));
    expect(table).toEqual([
      { mode: 'batch', child: [], batch: ['batch.partial'], childStores: null },
      { mode: 'items', child: ['job.failed'], batch: [], childStores: WH },
      { mode: 'both', child: ['job.failed'], batch: ['batch.partial'], childStores: WH },
    ]);
    for (const mode of WEBHOOK_MODES) {
      expect(batchEvents({ status: 'completed', webhookId: null, mode })).toEqual([]);
      expect(childWebhookId(null, mode)).toBeNull();
    }
    expect(batchEvents({ status: 'completed', webhookId: WH, mode: 'batch' })).toEqual(['batch.completed']);
    expect(batchEvents({ status: 'failed', webhookId: WH, mode: 'both' })).toEqual(['batch.failed']);
  });

  it('a batch ends completed, partial or failed per the state table, and not while a child is unfinished', () => {
    expect(finalBatchStatus(countChildren(['completed', 'completed']))).toBe('completed');
    expect(finalBatchStatus(countChildren(['completed', 'failed']))).toBe('partial');
    expect(finalBatchStatus(countChildren(['failed', 'failed']))).toBe('failed');
    expect(finalBatchStatus(countChildren(['completed', 'processing']))).toBeNull();
    expect(finalBatchStatus(countChildren(['queued']))).toBeNull();
    expect(finalBatchStatus(countChildren([]))).toBeNull();
  });
});

describe('job event bodies', () => {
  it('job.completed: {id, type, created_at, job} with the public record minus options and file names', () => {
    const body = jobEventBody('evt_AAAAAAAAAAAAAAAAAAAA', job(), at);
    expect(body).toEqual({
      id: 'evt_AAAAAAAAAAAAAAAAAAAA',
      type: 'job.completed',
      created_at: '2026-11-23T10:00:00.000Z',
      job: {
        id: 'job_AAAAAAAAAAAAAAAAAAAA',
        status: 'completed',
        operation: 'pdf-rotate',
        batch_id: null,
        upload_ids: ['upl_AAAAAAAAAAAAAAAAAAAA'],
        estimated_credits: 4,
        charged_credits: 4,
        created_at: '2026-11-23T09:59:00.000Z',
        started_at: '2026-11-23T09:59:30.000Z',
        finished_at: '2026-11-23T10:00:00.000Z',
        error: null,
        error_code: null,
        result: {
          files: [
            {
              index: 0,
              download_path: '/v1/jobs/job_AAAAAAAAAAAAAAAAAAAA/results/0',
              bytes: 10,
              content_type: 'application/pdf',
            },
          ],
          expires_at: '2026-11-30T10:00:00.000Z',
        },
      },
    });
    expect(JSON.stringify(body)).not.toMatch(/options|"name"|password/);
  });

  it('job.failed: the error and its code, nothing charged, no result', () => {
    const body = jobEventBody(
      'evt_BBBBBBBBBBBBBBBBBBBB',
      job({
        status: 'failed',
        errorCode: 'invalid_source',
        errorMessage: 'bad',
        resultFiles: null,
        resultsExpireAt: null,
        batchId: 'bat_AAAAAAAAAAAAAAAAAAAA',
      }),
      at,
    );
    expect(body.type).toBe('job.failed');
    expect(body.job).toMatchObject({
      status: 'failed',
      charged_credits: 0,
      error: 'bad',
      error_code: 'invalid_source',
      result: null,
      batch_id: 'bat_AAAAAAAAAAAAAAAAAAAA',
    });
  });
});

describe('batch event bodies', () => {
  const batch = (over: Partial<EventBatchInput> = {}): EventBatchInput => ({
    id: 'bat_AAAAAAAAAAAAAAAAAAAA',
    status: 'partial',
    operation: 'pdf-rotate',
    webhookMode: 'both',
    retryOf: null,
    createdAt: new Date('2026-11-23T09:00:00.000Z'),
    finishedAt: at,
    children: [
      { id: 'job_AAAAAAAAAAAAAAAAAAAA', status: 'completed', quotedCredits: 4, errorCode: null },
      { id: 'job_BBBBBBBBBBBBBBBBBBBB', status: 'failed', quotedCredits: 2, errorCode: 'invalid_source' },
      { id: 'job_CCCCCCCCCCCCCCCCCCCC', status: 'completed', quotedCredits: 6, errorCode: null },
    ],
    ...over,
  });

  it('{id, type, created_at, job: null, batch} with progress, credits and every item in order', () => {
    expect(batchEventBody('evt_CCCCCCCCCCCCCCCCCCCC', batch(), at)).toEqual({
      id: 'evt_CCCCCCCCCCCCCCCCCCCC',
      type: 'batch.partial',
      created_at: '2026-11-23T10:00:00.000Z',
      job: null,
      batch: {
        id: 'bat_AAAAAAAAAAAAAAAAAAAA',
        status: 'partial',
        operation: 'pdf-rotate',
        webhook_mode: 'both',
        retry_of: null,
        created_at: '2026-11-23T09:00:00.000Z',
        finished_at: '2026-11-23T10:00:00.000Z',
        progress: { total: 3, queued: 0, processing: 0, completed: 2, failed: 1, cancelled: 0 },
        credits: { reserved: 0, charged: 10, released: 2 },
        items: [
          { index: 0, job_id: 'job_AAAAAAAAAAAAAAAAAAAA', status: 'completed', error_code: null },
          { index: 1, job_id: 'job_BBBBBBBBBBBBBBBBBBBB', status: 'failed', error_code: 'invalid_source' },
          { index: 2, job_id: 'job_CCCCCCCCCCCCCCCCCCCC', status: 'completed', error_code: null },
        ],
        results_zip_path: '/v1/batches/bat_AAAAAAAAAAAAAAAAAAAA/results.zip',
      },
    });
  });

  it('a failed batch has no results archive and releases everything', () => {
    const failed = batchEventBody(
      'evt_DDDDDDDDDDDDDDDDDDDD',
      batch({
        status: 'failed',
        retryOf: 'bat_ZZZZZZZZZZZZZZZZZZZZ',
        children: [
          { id: 'job_AAAAAAAAAAAAAAAAAAAA', status: 'failed', quotedCredits: 4, errorCode: 'processing_error' },
        ],
      }),
      at,
    );
    expect(failed.type).toBe('batch.failed');
    expect(failed.batch).toMatchObject({
      retry_of: 'bat_ZZZZZZZZZZZZZZZZZZZZ',
      credits: { reserved: 0, charged: 0, released: 4 },
      results_zip_path: null,
    });
    // A cancelled child released its reservation too.
    const cancelled = batchEventBody(
      'evt_EEEEEEEEEEEEEEEEEEEE',
      batch({
        status: 'failed',
        children: [{ id: 'job_AAAAAAAAAAAAAAAAAAAA', status: 'cancelled', quotedCredits: 3, errorCode: null }],
      }),
      at,
    );
    expect(cancelled.batch).toMatchObject({
      progress: { total: 1, cancelled: 1, failed: 0 },
      credits: { reserved: 0, charged: 0, released: 3 },
    });
  });
});
