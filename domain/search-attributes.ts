/**
 * Custom search attributes of `job:<id>` and `batch:<id>` workflows (all of type Keyword), so operators find runs in
 * the Temporal UI without opening activities: e.g. `PaycoreCompany = 'cmp_…' AND PaycoreStatus = 'failed'`.
 * They must be registered on the namespace before a worker runs the workflows (the dev server started by the test
 * harness and scripts/start.sh registers them; docs/operations.md gives the commands for a real cluster).
 */
export const SEARCH_ATTRIBUTES = {
  /** The company (`cmp_…`) the job or batch belongs to. */
  company: 'PaycoreCompany',
  /** The operation identifier (`pdf-rotate`, …). */
  operation: 'PaycoreOperation',
  /** The job's or batch's state, kept current by the workflow: queued, processing, completed, partial, failed. */
  status: 'PaycoreStatus',
  /** The batch (`bat_…`) a job is an item of, and a batch's own id. */
  batch: 'PaycoreBatch',
} as const;

export const SEARCH_ATTRIBUTE_NAMES: readonly string[] = Object.values(SEARCH_ATTRIBUTES);

/** The initial attributes of a run, in the record form Temporal's start options and upserts take (Keyword values). */
export function searchAttributesOf(a: {
  companyId?: string;
  operation?: string;
  status?: string;
  batchId?: string | null;
}): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (a.companyId) out[SEARCH_ATTRIBUTES.company] = [a.companyId];
  if (a.operation) out[SEARCH_ATTRIBUTES.operation] = [a.operation];
  if (a.status) out[SEARCH_ATTRIBUTES.status] = [a.status];
  if (a.batchId) out[SEARCH_ATTRIBUTES.batch] = [a.batchId];
  return out;
}
