import { describe, expect, it } from 'vitest';
import { parseJobRequest } from '../../../domain/validation/processing-request.js';
import { parsePageRanges } from '../../../domain/validation/page-ranges.js';
import { DomainError } from '../../../domain/errors.js';
import { WEBHOOK_ID_PREFIX } from '../../../domain/webhooks.js';

const U1 = `upl_${'a'.repeat(20)}`;
const U2 = `upl_${'b'.repeat(20)}`;
const issuesOf = (body: unknown): string[] => {
  try {
    parseJobRequest(body);
    return [];
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    return ((e as DomainError).details['issues'] as Array<{ path: string; message: string }>).map(
      (i) => `${i.path}: ${i.message}`,
    );
  }
};
const paths = (body: unknown) => issuesOf(body).map((i) => i.split(':')[0]);

describe('job and estimate bodies', () => {
  it('accepts each operation of this release with valid options', () => {
    const ok: Array<[string, Record<string, unknown>, string[]?]> = [
      ['pdf-extract', { pages: '1-3,5' }],
      ['pdf-delete', { pages: '2' }],
      ['pdf-rotate', { angle: 90 }],
      ['pdf-rotate', { angle: 270, pages: '1' }],
      ['pdf-protect', { password: 'x' }],
      ['pdf-unlock', { password: 'p'.repeat(128) }],
      ['pdf-watermark', { text: 'DRAFT' }],
      ['pdf-watermark', { text: 'DRAFT', pages: '' }],
      ['pdf-number', {}],
      ['pdf-number', { start: 5, pages: '2-9' }],
      ['pdf-merge', {}, [U1, U2]],
      ['image-edit', { width: 800, height: 600 }],
      ['image-edit', { angle: 90, flip: 'horizontal', format: 'webp', crop: [0, 0, 10, 10] }],
      ['image-compress', {}],
      ['image-compress', { format: 'jpg', level: 'strong' }],
      ['webp', {}],
      ['transcribe', {}],
      ['transcribe', { output_format: 'vtt', language: 'de' }],
    ];
    expect(
      parseJobRequest({
        operation: 'flow-extract',
        upload_ids: [U1, U2],
        fields: ['invoice_number', 'total'],
        instructions: 'US dates',
      }),
    ).toMatchObject({
      operation: 'flow-extract',
      extraction: { fields: ['invoice_number', 'total'], instructions: 'US dates', workflowId: undefined },
    });
    expect(
      parseJobRequest({ operation: 'flow-extract', upload_ids: [U1], workflow_id: `wfl_${'A'.repeat(20)}` }).extraction,
    ).toEqual({ fields: undefined, instructions: undefined, workflowId: `wfl_${'A'.repeat(20)}` });
    expect(parseJobRequest({ operation: 'webp', upload_ids: [U1] }).extraction).toBeNull();
    for (const [operation, options, ids] of ok) {
      expect(parseJobRequest({ operation, upload_ids: ids ?? [U1], options, max_credits: 50 })).toMatchObject({
        operation,
        options,
        maxCredits: 50,
      });
    }
    expect(parseJobRequest({ operation: 'webp', upload_ids: [U1] }).options).toEqual({});
    // The spec writes the transcript formats in capitals: accepted, and kept in lower case.
    expect(
      parseJobRequest({ operation: 'transcribe', upload_ids: [U1], options: { output_format: 'SRT' } }).options,
    ).toEqual({ output_format: 'srt' });
  });

  it.each([
    ['unknown operation', { operation: 'pdf-explode', upload_ids: [U1] }, ['operation']],
    ['flow-extract without fields or a workflow', { operation: 'flow-extract', upload_ids: [U1] }, ['fields']],
    [
      'flow-extract with a reserved field',
      { operation: 'flow-extract', upload_ids: [U1], fields: ['Evidence'] },
      ['fields.0'],
    ],
    [
      'flow-extract with a malformed workflow_id',
      { operation: 'flow-extract', upload_ids: [U1], workflow_id: 'invoices' },
      ['workflow_id'],
    ],
    [
      'flow-extract with options',
      { operation: 'flow-extract', upload_ids: [U1], fields: ['total'], options: { format: 'csv' } },
      ['options'],
    ],
    ['fields on another operation', { operation: 'webp', upload_ids: [U1], fields: ['total'] }, ['fields']],
    [
      'a workflow_id on another operation',
      { operation: 'webp', upload_ids: [U1], workflow_id: `wfl_${'A'.repeat(20)}` },
      ['workflow_id'],
    ],
    [
      'transcribe to PDF',
      { operation: 'transcribe', upload_ids: [U1], options: { output_format: 'pdf' } },
      ['options.output_format'],
    ],
    [
      'transcribe in mixed case',
      { operation: 'transcribe', upload_ids: [U1], options: { output_format: 'Vtt' } },
      ['options.output_format'],
    ],
    [
      'a language name instead of a code',
      { operation: 'transcribe', upload_ids: [U1], options: { language: 'English' } },
      ['options.language'],
    ],
    ['transcribe with two sources', { operation: 'transcribe', upload_ids: [U1, U2] }, ['upload_ids']],
    ['missing upload_ids', { operation: 'webp' }, ['upload_ids']],
    ['empty upload_ids', { operation: 'webp', upload_ids: [] }, ['upload_ids']],
    ['a malformed upload id', { operation: 'webp', upload_ids: ['../../etc/passwd'] }, ['upload_ids.0']],
    ['two sources for a single-source operation', { operation: 'webp', upload_ids: [U1, U2] }, ['upload_ids']],
    ['pdf-merge of one', { operation: 'pdf-merge', upload_ids: [U1] }, ['upload_ids']],
    [
      'pdf-merge of 21',
      {
        operation: 'pdf-merge',
        upload_ids: Array.from({ length: 21 }, (_, i) => `upl_${String(i).padStart(20, 'x')}`),
      },
      ['upload_ids'],
    ],
    ['a repeated upload', { operation: 'pdf-merge', upload_ids: [U1, U1] }, ['upload_ids']],
    ['items on a job', { operation: 'webp', upload_ids: [U1], items: [] }, ['items']],
    ['webhook_mode on a job', { operation: 'webp', upload_ids: [U1], webhook_mode: 'batch' }, ['webhook_mode']],
    [
      'a webhook_id that is not a webhook id (whe_)',
      { operation: 'webp', upload_ids: [U1], webhook_id: 'whk_aaaaaaaaaaaaaaaaaaaa' },
      ['webhook_id'],
    ],
    ['an unknown top-level field', { operation: 'webp', upload_ids: [U1], priority: 'high' }, ['(body)']],
    ['an unknown option', { operation: 'webp', upload_ids: [U1], options: { quality: 5 } }, ['options']],
    ['rotate angle 45', { operation: 'pdf-rotate', upload_ids: [U1], options: { angle: 45 } }, ['options.angle']],
    ['rotate without angle', { operation: 'pdf-rotate', upload_ids: [U1], options: {} }, ['options.angle']],
    ['extract without pages', { operation: 'pdf-extract', upload_ids: [U1], options: {} }, ['options.pages']],
    [
      'extract with empty pages',
      { operation: 'pdf-extract', upload_ids: [U1], options: { pages: ' ' } },
      ['options.pages'],
    ],
    ['bad page syntax', { operation: 'pdf-delete', upload_ids: [U1], options: { pages: '1-' } }, ['options.pages']],
    ['empty password', { operation: 'pdf-protect', upload_ids: [U1], options: { password: '' } }, ['options.password']],
    [
      'password of 129',
      { operation: 'pdf-unlock', upload_ids: [U1], options: { password: 'p'.repeat(129) } },
      ['options.password'],
    ],
    [
      'password with a line break',
      { operation: 'pdf-protect', upload_ids: [U1], options: { password: 'two\nlines' } },
      ['options.password'],
    ],
    ['width without height', { operation: 'image-edit', upload_ids: [U1], options: { width: 100 } }, ['options.width']],
    ['image-edit with nothing to do', { operation: 'image-edit', upload_ids: [U1], options: {} }, ['options']],
    [
      'crop of three numbers',
      { operation: 'image-edit', upload_ids: [U1], options: { crop: [0, 0, 10] } },
      ['options.crop'],
    ],
    [
      'crop of zero width',
      { operation: 'image-edit', upload_ids: [U1], options: { crop: [0, 0, 0, 10] } },
      ['options.crop.2'],
    ],
    [
      'compress to gif',
      { operation: 'image-compress', upload_ids: [U1], options: { format: 'gif' } },
      ['options.format'],
    ],
    ['max_credits 0', { operation: 'webp', upload_ids: [U1], max_credits: 0 }, ['max_credits']],
    ['max_credits 1.5', { operation: 'webp', upload_ids: [U1], max_credits: 1.5 }, ['max_credits']],
    ['fields on a file operation', { operation: 'webp', upload_ids: [U1], fields: ['total'] }, ['fields']],
    ['a body that is not an object', [1, 2], ['(body)']],
  ])('rejects %s', (_label, body, expected) => {
    expect(paths(body)).toEqual(expect.arrayContaining(expected));
  });

  it('webhook_id takes the one webhook id format (whe_, as stored and printed); whether it names a webhook is checked when quoting', () => {
    const webhookId = `${WEBHOOK_ID_PREFIX}_${'a'.repeat(20)}`;
    expect(parseJobRequest({ operation: 'webp', upload_ids: [U1], webhook_id: webhookId })).toMatchObject({
      webhookId,
    });
    expect(parseJobRequest({ operation: 'webp', upload_ids: [U1] }).webhookId).toBeUndefined();
    expect(issuesOf({ operation: 'webp', upload_ids: [U1], webhook_id: `whk_${'a'.repeat(20)}` })).toEqual([
      'webhook_id: must be a whe_ id',
    ]);
  });

  it('applies the field rules: unique, start with a letter, letters/digits/underscore, ≤64, ≤30, not reserved', () => {
    const body = (fields: unknown) => ({ operation: 'flow-extract', upload_ids: [U1], fields });
    const fieldIssues = (fields: unknown) =>
      issuesOf(body(fields)).filter((i) => i.startsWith('fields') && !i.includes('only accepted'));
    expect(fieldIssues(['total', 'due_date', `a${'b'.repeat(63)}`])).toEqual([]);
    expect(fieldIssues([`a${'b'.repeat(64)}`])).toHaveLength(1);
    expect(fieldIssues(['1st'])).toHaveLength(1);
    expect(fieldIssues(['_x'])).toHaveLength(1);
    expect(fieldIssues(['due-date'])).toHaveLength(1);
    expect(fieldIssues(['total', 'Total'])).toHaveLength(1);
    for (const reserved of ['items', 'warnings', 'evidence', 'review_required', 'human_review', 'Items'])
      expect(fieldIssues([reserved])).toHaveLength(1);
    expect(fieldIssues(Array.from({ length: 30 }, (_, i) => `f${i}`))).toEqual([]);
    expect(fieldIssues(Array.from({ length: 31 }, (_, i) => `f${i}`))).toHaveLength(1);
  });

  it('reports every problem at once', () => {
    expect(paths({ operation: 'pdf-rotate', upload_ids: [U1, U2], options: { angle: 1 }, items: [] }).sort()).toEqual([
      'items',
      'options.angle',
      'upload_ids',
    ]);
  });

  it('a job body in the batch form (items, no upload_ids) is told that items is for POST /v1/batches, not that upload_ids is missing', () => {
    const issues = issuesOf({ operation: 'pdf-merge', items: [{ upload_ids: [U1, U2] }] });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^items: .*POST \/v1\/batches/);
    // With upload_ids as well, the items issue says the same.
    expect(
      issuesOf({ operation: 'pdf-rotate', upload_ids: [U1], items: [{ upload_ids: [U1] }], options: { angle: 90 } }),
    ).toEqual([expect.stringMatching(/^items: .*POST \/v1\/batches/)]);
    // Without either, upload_ids is what a job needs.
    expect(paths({ operation: 'pdf-rotate', options: { angle: 90 } })).toEqual(['upload_ids']);
  });
});

describe('page ranges against the real page count', () => {
  it.each([
    ['1-3,5', 5, [1, 2, 3, 5]],
    ['5', 5, [5]],
    [' 2 - 2 '.replace(/ /g, ''), 3, [2]],
    ['3,1,2-3', 3, [1, 2, 3]],
    ['1-10', 10, Array.from({ length: 10 }, (_, i) => i + 1)],
  ])('%s of %i pages', (spec, count, pages) => {
    expect(parsePageRanges(spec as string, count as number)).toEqual(pages);
  });
  it.each([
    ['6', 5],
    ['0', 5],
    ['3-2', 5],
    ['1-6', 5],
    ['a', 5],
    ['1,,2', 5],
    ['', 5],
  ])('rejects %s of %i pages', (spec, count) => {
    expect(() => parsePageRanges(spec, count)).toThrow(DomainError);
  });
  it('an empty selection means all pages where allowed', () => {
    expect(parsePageRanges('', 3, { emptyMeansAll: true })).toEqual([1, 2, 3]);
  });
});
