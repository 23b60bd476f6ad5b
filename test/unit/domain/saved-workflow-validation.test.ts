import { describe, expect, it } from 'vitest';
import {
  parseSavedWorkflowCreate,
  parseSavedWorkflowUpdate,
  savedWorkflowCreateSchema,
  savedWorkflowUpdateSchema,
} from '../../../domain/validation/saved-workflows.js';
import type { DomainError } from '../../../domain/errors.js';
import { inputJsonSchema } from '../../../api/http/contract.js';

/** The rule the name had as a trim-then-refine: at most 100 as sent; trimmed, not empty and no Unicode Cc. */
function oldRule(name: string): 'ok' | 'required' | 'control' | 'long' {
  if (name.length > 100) return 'long';
  const t = name.trim();
  if (t.length < 1) return 'required';
  if (/\p{Cc}/u.test(t)) return 'control';
  return 'ok';
}

const issuesOf = (f: () => unknown): string[] => {
  try {
    f();
    return [];
  } catch (e) {
    return ((e as DomainError).details?.['issues'] as Array<{ message: string }>).map((i) => i.message);
  }
};

const SAMPLES = [
  'Supplier invoices',
  '  padded  ',
  '\tTabbed\n',
  '\u00a0nbsp\u3000',
  '',
  '   ',
  '\t\n',
  'a\tb',
  'a\u0001',
  '\u0000',
  '\u0085x',
  'x\u009f',
  'a'.repeat(100),
  'a'.repeat(101),
  ' '.repeat(101),
  'ü ß 日本',
  ' \u0007 ',
];

describe('saved workflow name: the patterns state the trim-then-refine rule it replaced', () => {
  it.each(SAMPLES.map((s) => [JSON.stringify(s), s]))('%s', (_label, name) => {
    const issues = issuesOf(() => parseSavedWorkflowCreate({ name, fields: ['total'] }));
    const expected = {
      ok: [],
      required: ['name is required'],
      control: ['name cannot contain control characters'],
      long: ['name has at most 100 characters'],
    }[oldRule(name)];
    // A name over 100 may also break a pattern (the old rule stopped at the length); otherwise one issue, as before.
    if (oldRule(name) === 'long') expect(issues[0]).toBe(expected[0]);
    else expect(issues).toEqual(expected);
    if (oldRule(name) === 'ok') expect(parseSavedWorkflowCreate({ name, fields: ['total'] }).name).toBe(name.trim());
  });

  it('a PATCH with nothing in it is refused, and the document says minProperties 1', () => {
    expect(issuesOf(() => parseSavedWorkflowUpdate({}))).toEqual([
      'send at least one of name, fields, instructions, options',
    ]);
    expect(inputJsonSchema(savedWorkflowUpdateSchema)['minProperties']).toBe(1);
    expect(inputJsonSchema(savedWorkflowCreateSchema)['required']).toEqual(['name', 'fields']);
  });

  it('the name patterns are linear: a long failing run answers at once', () => {
    const start = Date.now();
    issuesOf(() => parseSavedWorkflowCreate({ name: `a${' '.repeat(200_000)}\u0001`, fields: ['total'] }));
    issuesOf(() => parseSavedWorkflowCreate({ name: `${' '.repeat(200_000)}\u0001`, fields: ['total'] }));
    expect(Date.now() - start).toBeLessThan(1000);
  });
});
