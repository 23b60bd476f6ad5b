import { continueAsNew, proxyActivities } from '@temporalio/workflow';
import type { RunResult } from '../../activities/processing.activities.js';
import type { ChunkResult, SpeechActivities } from '../../activities/speech.activities.js';

export interface SpeechWorkflowInput {
  jobId: string;
}

/**
 * Each step heartbeats every 2 s: a worker that dies is noticed within 15 s and the step runs again elsewhere,
 * finding what the dead one finished in the job's checkpoint folder. A chunk is at most 10 minutes of audio, but its
 * activity may first wait in its worker's engine queue behind other jobs' chunks (TRANSCRIPTION_CONCURRENCY), so the
 * limit is generous: the heartbeat, not this limit, is what notices a dead worker.
 */
const { planSpeechJob, transcribeSpeechChunk, finishSpeechJob } = proxyActivities<SpeechActivities>({
  startToCloseTimeout: '3 hours',
  heartbeatTimeout: '15 seconds',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 5,
    nonRetryableErrorTypes: ['invalid_source', 'source_missing', 'processing_error'],
  },
});

/**
 * The operation of a `transcribe` or `meeting` job, as a child of its job workflow (`job:<id>/speech-<n>`, one per
 * run of the job between provider outages): plan the chunks, transcribe those not done yet one activity each (up to
 * `chunksAtOnce` at a time, so several worker processes share a long file), then
 * stitch and store the results. After `chunksPerRun` chunks it continues as new, so the history of a 10-hour file
 * stays small; the new run plans again, which only lists the chunks still to do. Its result is the job workflow's
 * `runJobOperation` result: done with the files, a provider outage (the job workflow requeues the job), or the job
 * is no longer processing. Permanent failures fail this workflow with the activity's failure.
 */
export async function speechJobWorkflow(input: SpeechWorkflowInput): Promise<RunResult> {
  const plan = await planSpeechJob({ jobId: input.jobId });
  if (plan.outcome !== 'planned') return plan;
  const now = plan.pending.slice(0, plan.chunksPerRun);
  // `chunksAtOnce` lanes take the chunks in order; a lane stops taking new ones once any chunk met an outage (the
  // chunks already running finish and are kept). Runs planned before lanes existed have none: one lane, as then.
  let stopped: ChunkResult | null = null;
  let next = 0;
  const lane = async () => {
    while (stopped === null && next < now.length) {
      const chunk = await transcribeSpeechChunk({ jobId: input.jobId, index: now[next++]! });
      if (chunk.outcome !== 'done') stopped ??= chunk;
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, plan.chunksAtOnce ?? 1), now.length) }, lane));
  if (stopped !== null) return stopped;
  if (plan.pending.length > now.length) return continueAsNew<typeof speechJobWorkflow>(input);
  return finishSpeechJob({ jobId: input.jobId });
}
