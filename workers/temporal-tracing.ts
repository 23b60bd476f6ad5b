import { createRequire } from 'node:module';
import { OpenTelemetryPlugin } from '@temporalio/interceptors-opentelemetry';
import type { ActivityInboundCallsInterceptor, WorkerOptions, WorkerPlugin } from '@temporalio/worker';
import type { Context as ActivityContext } from '@temporalio/activity';
import { activeTracing, currentTraceId } from '../adapters/tracing/tracing.js';
import { recordJobTrace } from '../db/repositories/job-traces.repo.js';
import type { Db } from '../db/connection.js';

/**
 * The workflow interceptors module of @temporalio/interceptors-opentelemetry: a worker bundles it (the plugin adds it when
 * the worker bundles its workflows; a prebuilt bundle must have been built with it, `workflowInterceptorModules`).
 */
export const OTEL_WORKFLOW_INTERCEPTORS = createRequire(import.meta.url).resolve(
  '@temporalio/interceptors-opentelemetry/lib/workflow-interceptors',
);

/** The activity that runs a job's operation: its trace is the job's, written on the job's row when it starts. */
const JOB_RUN_ACTIVITY = 'runJobOperation';

/**
 * Writes the trace id of a job's run on its row (`jobs.trace_id`), inside the OpenTelemetry activity span (this
 * interceptor comes after the OpenTelemetry plugin's, so it runs within its span).
 */
function jobTracePlugin(db: Db): WorkerPlugin {
  const interceptor = (ctx: ActivityContext): { inbound: ActivityInboundCallsInterceptor } => ({
    inbound: {
      async execute(input, next) {
        const jobId = /^job:(.+)$/.exec(ctx.info.workflowExecution?.workflowId ?? '')?.[1];
        const traceId = currentTraceId();
        if (ctx.info.activityType === JOB_RUN_ACTIVITY && jobId && traceId) await recordJobTrace(db, jobId, traceId);
        return next(input);
      },
    },
  });
  return {
    name: 'paycore-job-trace',
    configureWorker: (options: WorkerOptions): WorkerOptions => ({
      ...options,
      interceptors: { ...options.interceptors, activity: [...(options.interceptors?.activity ?? []), interceptor] },
    }),
  };
}

/**
 * When this process traces (adapters/tracing), the Temporal OpenTelemetry plugin: a span per workflow (exported through
 * the worker's sink, so replays never export or change a command) and per activity, each the child of the span that
 * started or scheduled it, and the client spans of the worker's own starts; then the job trace recorder above.
 * Nothing otherwise.
 */
export function workerTracing(db: Db): Pick<WorkerOptions, 'plugins'> {
  const tracing = activeTracing();
  if (!tracing) return {};
  return {
    plugins: [
      new OpenTelemetryPlugin({ resource: tracing.resource, spanProcessor: tracing.spanProcessor }),
      jobTracePlugin(db),
    ],
  };
}
