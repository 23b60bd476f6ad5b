import { describe, expect, it } from 'vitest';
import { errorCodeRows, errorRows, SHARED_WHEN, type ErrorRow } from '../../../api/http/error-table.js';
import { statusOf } from '../../../api/http/errors.js';
import { GENERATED_DOCUMENTS } from '../../../api/openapi-documents.js';

/** The error tables of the four documents come from one builder (api/http/error-table.ts). */
describe('the error tables of the OpenAPI documents', () => {
  it('a code alone takes the shared words; a row of its own keeps its words; a code listed twice is refused', () => {
    expect(errorRows(['malformed_json', { code: 'not_found', when: 'Nothing here.' }])).toEqual([
      { code: 'malformed_json', when: SHARED_WHEN.malformed_json },
      { code: 'not_found', when: 'Nothing here.' },
    ]);
    expect(() => errorRows(['malformed_json', { code: 'malformed_json', when: 'Other words.' }])).toThrow(
      'error code malformed_json is listed twice',
    );
  });

  it("x-error-codes rows carry the status of the interface's error middleware", () => {
    const rows: ErrorRow[] = [{ code: 'rate_limited', when: 'Too many.' }];
    expect(errorCodeRows('proof', rows)).toEqual([
      { code: 'rate_limited', status: statusOf('proof', 'rate_limited'), when: 'Too many.' },
    ]);
  });

  it('every shared wording is used by at least two documents, word for word (else it belongs to one table)', () => {
    const tables = GENERATED_DOCUMENTS.map(
      ({ build }) => build()['x-error-codes'] as Array<{ code: string; when: string }>,
    );
    for (const [code, when] of Object.entries(SHARED_WHEN)) {
      const users = tables.filter((t) => t.some((e) => e.code === code && e.when === when)).length;
      expect(users, code).toBeGreaterThanOrEqual(2);
    }
  });
});
