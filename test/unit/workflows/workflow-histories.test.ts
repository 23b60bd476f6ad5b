import { describe, expect, it } from 'vitest';
import {
  hasWorkflowCode,
  historyFromJson,
  historyToJson,
  scenarioOf,
  scrubbed,
  secretsIn,
  type HistoryJson,
} from '../../helpers/workflow-histories.js';

/** The recorder's checks on made-up histories: what it refuses to commit, what it scrubs, how it names scenarios. */
const payload = (value: unknown) => ({
  metadata: { encoding: Buffer.from('json/plain').toString('base64') },
  data: Buffer.from(JSON.stringify(value)).toString('base64'),
});
let nextId = 1;
const event = (eventType: string, attributesKey: string, attributes: Record<string, unknown> = {}) => ({
  eventId: String(nextId++),
  eventTime: '2026-01-01T00:00:00Z',
  eventType,
  [attributesKey]: attributes,
});
const started = (input: unknown) =>
  event('EVENT_TYPE_WORKFLOW_EXECUTION_STARTED', 'workflowExecutionStartedEventAttributes', {
    workflowType: { name: 'paymentWatcherWorkflow' },
    input: { payloads: [payload(input)] },
  });
const wftCompleted = (identity = '4242@ci') =>
  event('EVENT_TYPE_WORKFLOW_TASK_COMPLETED', 'workflowTaskCompletedEventAttributes', { identity });
const activityResult = (value: unknown) =>
  event('EVENT_TYPE_ACTIVITY_TASK_COMPLETED', 'activityTaskCompletedEventAttributes', {
    result: { payloads: [payload(value)] },
  });
const history = (...events: Array<Record<string, unknown>>): HistoryJson => ({
  events: events as HistoryJson['events'],
});

describe('recorded workflow histories: secrets, scrubbing, scenarios', () => {
  it('finds secrets inside encoded payloads, and allows an invoice e-mail Message-ID', () => {
    expect(secretsIn(history(started({ network: 'base' }), activityResult({ secret: 'whsec_abc' })))).toEqual([
      'a webhook secret',
    ]);
    expect(
      secretsIn(
        history(started({ key: 'skp_AbCdEf123' }), activityResult({ smtp: 'smtps://user:hunter2@mail.example.com' })),
      ),
    ).toEqual(expect.arrayContaining(['a /proof API key', 'credentials in a URL']));
    expect(secretsIn(history(started({ mailId: 'mail_x' }), activityResult({ to: 'ap@buyer.example' })))).toEqual([
      'an e-mail address',
    ]);
    expect(
      secretsIn(
        history(
          started({ mailId: 'mail_x' }),
          activityResult({ outcome: 'sent', messageId: 'mail_8oqagviHowbePULHCEIA@merchant.example' }),
        ),
      ),
    ).toEqual([]);
  });

  it('empties stack traces and replaces worker identities everywhere they appear', () => {
    const h = history(
      started({ network: 'base' }),
      wftCompleted('4242@build-host.example.com'),
      event('EVENT_TYPE_WORKFLOW_TASK_SCHEDULED', 'workflowTaskScheduledEventAttributes', {
        taskQueue: { name: '4242@build-host.example.com-0123abcd' },
      }),
      event('EVENT_TYPE_ACTIVITY_TASK_FAILED', 'activityTaskFailedEventAttributes', {
        failure: { message: 'boom', stackTrace: 'at /home/someone/paycore/x.ts:1' },
      }),
    );
    expect(secretsIn(h)).toEqual(['an e-mail address']); // the identity looks like one
    const clean = scrubbed(h);
    expect(JSON.stringify(clean)).not.toContain('build-host');
    expect(JSON.stringify(clean)).not.toContain('/home/someone');
    expect(secretsIn(clean)).toEqual([]);
  });

  it('names a scenario from the network, the ending, the returned status and the branches taken', () => {
    const h = history(
      started({ network: 'solana' }),
      wftCompleted(),
      event('EVENT_TYPE_TIMER_STARTED', 'timerStartedEventAttributes', { timerId: '1' }),
      event(
        'EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED',
        'startChildWorkflowExecutionInitiatedEventAttributes',
        {},
      ),
      event('EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW', 'workflowExecutionContinuedAsNewEventAttributes', {}),
    );
    expect(scenarioOf(h)).toBe('solana-continued-as-new-waited-started-workflows');
    const done = history(
      started({ deliveryId: 'd' }),
      wftCompleted(),
      event('EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED', 'workflowExecutionCompletedEventAttributes', {
        result: { payloads: [payload({ status: 'delivered', attempts: 1 })] },
      }),
    );
    expect(scenarioOf(done)).toBe('completed-delivered');
    expect(scenarioOf(history(started({ jobId: 'j' })))).toBe('running');
    expect(hasWorkflowCode(history(started({ jobId: 'j' })))).toBe(false);
    expect(hasWorkflowCode(done)).toBe(true);
  });

  it("reads and writes Temporal's JSON history format without loss", () => {
    const h = history(started({ network: 'base' }), wftCompleted());
    expect(historyToJson(historyFromJson(h))).toEqual(h);
  });
});
