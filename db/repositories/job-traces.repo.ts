import type { Db } from '../connection.js';

/** Writes a job's trace id once (the first traced run keeps it; a retry of the run keeps the first). */
export async function recordJobTrace(db: Db, jobId: string, traceId: string): Promise<void> {
  await db('jobs').where({ id: jobId }).whereNull('trace_id').update({ trace_id: traceId });
}
