import { ParentClosePolicy, startChild, WorkflowIdReusePolicy } from '@temporalio/workflow';

/**
 * Starts a workflow by its business id unless one is running or completed under that id; true if started.
 */
export async function startIfAbsent<A>(
  workflow: (arg: A) => Promise<unknown>,
  workflowId: string,
  arg: A,
): Promise<boolean> {
  try {
    await startChild(workflow, {
      workflowId,
      args: [arg],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
    });
    return true;
  } catch (e) {
    // Already running (or completed): nothing to restart. The class lives in @temporalio/common, which
    // workflows do not import; its name is stable.
    if (!(e instanceof Error && e.name === 'WorkflowExecutionAlreadyStartedError')) throw e;
    return false;
  }
}
