import { describe, expect, inject, it } from 'vitest';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import * as workflows from '../../../workflows/index.js';
import {
  HISTORIES_DIR,
  historyFromJson,
  readHistories,
  secretsIn,
  workflowTypeOf,
} from '../../helpers/workflow-histories.js';

/**
 * Workflows that survive a deploy: every recorded history under test/fixtures/workflow-histories/ replays against
 * the current workflow code, bundled as the worker bundles it (workflows/index.ts, the run's bundle built by
 * test/global-setup.ts with workers/worker.ts workflowsPath()). A change that would break a running workflow
 * (an activity, timer, child or signal added, removed or reordered without `patched()`) fails here.
 * docs/operations.md ("Changing a workflow") says how to version a change and when to record histories.
 */
try {
  Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });
} catch {
  // already installed in this test process
}

const recorded = readHistories(HISTORIES_DIR);
const exported = Object.entries(workflows)
  .filter(([, v]) => typeof v === 'function')
  .map(([name]) => name)
  .sort();

describe('recorded workflow histories', () => {
  it('every workflow type the worker bundles has at least one recorded history, filed under its type', () => {
    for (const { file, workflowType, history } of recorded) expect(workflowTypeOf(history), file).toBe(workflowType);
    const counts = Object.fromEntries(exported.map((t) => [t, recorded.filter((h) => h.workflowType === t).length]));
    console.log(`recorded histories per workflow type: ${JSON.stringify(counts)}`);
    expect(
      exported.filter((t) => counts[t] === 0),
      'workflow types without a recorded history (npm run histories:record)',
    ).toEqual([]);
    expect(
      [...new Set(recorded.map((h) => h.workflowType))].filter((t) => !exported.includes(t)),
      'histories of types no longer exported',
    ).toEqual([]);
  });

  it('no recorded history holds a secret', () => {
    const found = recorded
      .map(({ file, history }) => ({ file, secrets: secretsIn(history) }))
      .filter((f) => f.secrets.length > 0);
    expect(found).toEqual([]);
  });

  it('every recorded history replays against the current workflow code without nondeterminism', async () => {
    expect(recorded.length).toBeGreaterThan(0);
    const failures: string[] = [];
    const replays = Worker.runReplayHistories(
      { workflowBundle: { codePath: inject('workflowBundlePath') }, replayName: 'workflow-replay-test' },
      recorded.map(({ workflowType, name, history }) => ({
        workflowId: `${workflowType}/${name}`,
        history: historyFromJson(history),
      })),
    );
    let replayed = 0;
    for await (const result of replays) {
      replayed++;
      // The core's own message (e.g. "[TMPRL1100] Nondeterminism error: Activity type of scheduled event …") when there is one.
      if (result.error)
        failures.push(
          `${result.workflowId}: ${/\[TMPRL\d+\][^"]*/.exec(result.error.message)?.[0] ?? result.error.message}`,
        );
    }
    console.log(`replayed ${replayed} recorded histories, ${failures.length} failed`);
    expect(failures, 'histories that no longer replay: version the change with patched() (docs/operations.md)').toEqual(
      [],
    );
    expect(replayed).toBe(recorded.length);
  });
});
