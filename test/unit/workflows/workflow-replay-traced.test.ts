import { describe, expect, it } from 'vitest';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Resource } from '@opentelemetry/resources';
import { OpenTelemetryPlugin } from '@temporalio/interceptors-opentelemetry';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { workflowsPath } from '../../../workers/worker.js';
import { OTEL_WORKFLOW_INTERCEPTORS } from '../../../workers/temporal-tracing.js';
import { HISTORIES_DIR, historyFromJson, readHistories } from '../../helpers/workflow-histories.js';

/**
 * Tracing never changes a workflow's commands: every recorded history (test/fixtures/workflow-histories/) replays
 * against the workflows bundled with the OpenTelemetry workflow interceptors, as a traced worker bundles them
 * (workers/temporal-tracing.ts), with the plugin's span sink in place.
 */
try {
  Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });
} catch {
  // already installed in this test process
}

describe('recorded workflow histories, traced', () => {
  it('replay without nondeterminism with the OpenTelemetry workflow interceptors', async () => {
    const recorded = readHistories(HISTORIES_DIR);
    expect(recorded.length).toBeGreaterThan(0);
    const { code } = await bundleWorkflowCode({
      workflowsPath: workflowsPath(),
      workflowInterceptorModules: [OTEL_WORKFLOW_INTERCEPTORS],
      logger: new DefaultLogger('WARN'),
    });
    const plugin = new OpenTelemetryPlugin({
      resource: new Resource({ 'service.name': 'replay' }),
      spanProcessor: new SimpleSpanProcessor(new InMemorySpanExporter()),
    });
    const failures: string[] = [];
    let replayed = 0;
    for await (const result of Worker.runReplayHistories(
      { workflowBundle: { code }, replayName: 'workflow-replay-traced-test', plugins: [plugin] },
      recorded.map(({ workflowType, name, history }) => ({
        workflowId: `${workflowType}/${name}`,
        history: historyFromJson(history),
      })),
    )) {
      replayed++;
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message.slice(0, 300)}`);
    }
    expect(failures).toEqual([]);
    expect(replayed).toBe(recorded.length);
  }, 300_000);
});
