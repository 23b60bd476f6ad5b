import { Context } from '@temporalio/activity';

/**
 * Heartbeats every second while `work` runs, so a worker that dies mid-activity is noticed within the activity's
 * heartbeat timeout (seconds) rather than its start-to-close timeout, and the activity is retried elsewhere.
 * Outside a Temporal activity (unit tests), and in a local activity, it just awaits the work.
 */
export function heartbeatWhileWaiting<T>(work: Promise<T>): Promise<T> {
  let ctx: Context | undefined;
  try {
    ctx = Context.current();
  } catch {
    return work;
  }
  // A local activity cannot heartbeat: the SDK keeps its workflow task alive instead.
  if (ctx.info.isLocal) return work;
  const timer = setInterval(() => ctx!.heartbeat(), 1000);
  return work.finally(() => clearInterval(timer));
}
