import type { StoredCorrection } from '../../adapters/documents/extraction-review.js';
import { newId } from '../../adapters/crypto/tokens.js';
import type { Db } from '../connection.js';

/** Review corrections of `flow-extract` jobs (migration 20261124030000): ids `exc_…`, written once, never changed. */
export const CORRECTION_ID_PREFIX = 'exc';

export interface CorrectionRecord extends StoredCorrection {
  id: string;
  memberId: string;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
const toCorrection = (r: any): CorrectionRecord => ({
  id: r.id,
  document: r.document_index,
  field: r.field,
  previous_value: r.previous_value,
  value: r.value,
  revision: r.revision,
  memberId: r.member_id,
  corrected_by: r.member_email,
  corrected_at: (r.created_at as Date).toISOString(),
});
/* eslint-enable @typescript-eslint/no-explicit-any */

/** A job's corrections in the order they apply: by revision, then document and field. */
export async function listExtractionCorrections(db: Db, jobId: string): Promise<CorrectionRecord[]> {
  const rows = await db('extraction_corrections')
    .where({ job_id: jobId })
    .orderBy([{ column: 'revision' }, { column: 'document_index' }, { column: 'field' }]);
  return rows.map(toCorrection);
}

export interface NewCorrection {
  document: number;
  field: string;
  previousValue: string | null;
  value: string | null;
}

/** Records one revision's corrections by a member (its e-mail address kept as it is now). */
export async function insertExtractionCorrections(
  trx: Db,
  job: { id: string; companyId: string },
  revision: number,
  member: { id: string; email: string },
  corrections: readonly NewCorrection[],
  now: Date,
): Promise<void> {
  await trx('extraction_corrections').insert(
    corrections.map((c) => ({
      id: newId(CORRECTION_ID_PREFIX),
      job_id: job.id,
      company_id: job.companyId,
      revision,
      document_index: c.document,
      field: c.field,
      previous_value: c.previousValue,
      value: c.value,
      member_id: member.id,
      member_email: member.email,
      created_at: now,
    })),
  );
}
