import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root.js';

/**
 * Recorded workflow histories (Temporal's JSON history format), replayed against the current workflow code by
 * test/unit/workflows/workflow-replay.test.ts. Layout: `<HISTORIES_DIR>/<workflowType>/<scenario>.json`.
 * docs/operations.md ("Changing a workflow") says when and how to refresh them.
 */
export const HISTORIES_DIR = fileURLToPath(new URL('../fixtures/workflow-histories', import.meta.url));

/**
 * Temporal's JSON history format, read and written with the protobufjs copy that @temporalio/proto's types belong
 * to. `historyToJSON` / `historyFromJSON` of @temporalio/common do the same with their own nested copy of protobufjs,
 * and fail ("type must be a Type") wherever npm installs several copies of protobufjs 8 side by side (this lockfile
 * does: protobufjs 7 of @grpc/proto-loader sits at the root), which is also why the replay test passes parsed
 * History objects to `Worker.runReplayHistories` rather than JSON.
 */
interface ProtoJson {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options: { ignoreUnknownFields: boolean }): unknown;
}
const require = createRequire(import.meta.url);
const proto = require('@temporalio/proto') as { temporal: typeof temporal };
const protojson = createRequire(require.resolve('@temporalio/proto'))('protobufjs/ext/protojson') as ProtoJson;
const historyType = (patchProtobufRoot(proto) as unknown as { lookupType(name: string): unknown }).lookupType(
  'temporal.api.history.v1.History',
);

export type History = temporal.api.history.v1.IHistory;

/** A History as Temporal's JSON history format (what `temporal workflow show --output json` writes). */
export function historyToJson(history: History): HistoryJson {
  return protojson.toJson(historyType, proto.temporal.api.history.v1.History.fromObject(history)) as HistoryJson;
}

/** A History from Temporal's JSON history format. */
export function historyFromJson(json: HistoryJson): History {
  const history = protojson.fromJson(historyType, json, { ignoreUnknownFields: true }) as History | null;
  if (history === null) throw new TypeError('not a history');
  return history;
}

/** Set to a directory, test workers write the history of every run on their task queue there when they stop. */
export const RECORD_ENV = 'RECORD_WORKFLOW_HISTORIES';

export interface HistoryJson {
  events: Array<Record<string, unknown> & { eventType: string; eventId: string }>;
}

/**
 * Recording mode (`npm run histories:record`): writes the history of every workflow run on `taskQueue` (closed,
 * continued as new, terminated or still waiting) to `$RECORD_WORKFLOW_HISTORIES/<workflowType>/`. Does nothing
 * unless the variable is set. Called by the test harness when a test worker stops.
 */
export async function recordTaskQueueHistories(opts: {
  address: string;
  namespace: string;
  taskQueue: string;
}): Promise<void> {
  const dir = process.env[RECORD_ENV]?.trim();
  if (!dir) return;
  const connection = await Connection.connect({ address: opts.address });
  try {
    const client = new Client({ connection, namespace: opts.namespace });
    for await (const run of client.workflow.list({ query: `TaskQueue = '${opts.taskQueue}'` })) {
      const history = await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
      const typeDir = join(dir, run.type);
      mkdirSync(typeDir, { recursive: true });
      writeFileSync(
        join(typeDir, `${run.workflowId.replace(/[^\w.-]+/g, '_')}--${run.runId}.json`),
        JSON.stringify(historyToJson(history), null, 2),
      );
    }
  } finally {
    await connection.close();
  }
}

/** Every `.json` history under `dir/<workflowType>/`, in a stable order. */
export function readHistories(
  dir: string,
): Array<{ workflowType: string; name: string; file: string; history: HistoryJson }> {
  const out = [];
  for (const workflowType of readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()) {
    for (const name of readdirSync(join(dir, workflowType))
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      const file = join(dir, workflowType, name);
      out.push({
        workflowType,
        name: name.replace(/\.json$/, ''),
        file,
        history: JSON.parse(readFileSync(file, 'utf8')) as HistoryJson,
      });
    }
  }
  return out;
}

const attributes = (event: Record<string, unknown>): Record<string, unknown> => {
  const key = Object.keys(event).find((k) => k.endsWith('EventAttributes'));
  return (key ? event[key] : {}) as Record<string, unknown>;
};

/** The workflow type named by the history's first event. */
export function workflowTypeOf(history: HistoryJson): string {
  const first = history.events[0];
  if (!first || first.eventType !== 'EVENT_TYPE_WORKFLOW_EXECUTION_STARTED')
    throw new Error('a history starts with WorkflowExecutionStarted');
  return String((attributes(first)['workflowType'] as { name?: string } | undefined)?.name);
}

interface JsonPayload {
  metadata?: Record<string, string>;
  data?: string;
}

const isPayload = (v: unknown): v is JsonPayload =>
  typeof v === 'object' && v !== null && 'metadata' in v && typeof (v as JsonPayload).metadata === 'object';

/** A payload's value (JSON payloads decoded), or undefined for binary or null payloads. */
function payloadValue(p: JsonPayload): unknown {
  const encoding = Buffer.from(p.metadata?.['encoding'] ?? '', 'base64').toString('utf8');
  if (encoding !== 'json/plain' || p.data === undefined) return undefined;
  return JSON.parse(Buffer.from(p.data, 'base64').toString('utf8'));
}

/** Every string in the history, payload contents decoded (what a reader of the committed file could learn). */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (typeof value === 'object' && value !== null) {
    if (isPayload(value)) {
      stringsOf(value.metadata, out);
      if (value.data !== undefined) out.push(Buffer.from(value.data, 'base64').toString('utf8'));
    } else
      for (const [k, v] of Object.entries(value)) {
        out.push(k);
        stringsOf(v, out);
      }
  }
  return out;
}

/**
 * What must never be committed in a history: API keys (/v1 `sk_live_`, /proof `skp_`), webhook secrets (`whsec_`),
 * bearer tokens, private keys, credentials in URLs, passwords, the secrets key, e-mail addresses (invoice e-mails
 * keep addresses and contents out of the history: `mail:<id>` carries the id only). The one address-shaped value a
 * history may hold is an invoice e-mail's Message-ID, `<mail id>@<sender's domain>`, which names nobody.
 */
const MESSAGE_ID = /\bmail_[A-Za-z0-9]{20}@[A-Za-z0-9.-]+/g;
const SECRET_PATTERNS: ReadonlyArray<[string, RegExp]> = [
  ['a /v1 API key', /sk_live_[A-Za-z0-9]/],
  ['a /proof API key', /skp_[A-Za-z0-9]/],
  ['a webhook secret', /whsec_/],
  ['a bearer token', /bearer\s+\S/i],
  ['a private key', /-----BEGIN [A-Z ]*PRIVATE KEY-----|"privateKey"|private_key/i],
  ['credentials in a URL', /[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:[^\s/@]+@/i],
  ['a password', /passw(or)?d/i],
  ['the secrets key', /SECRETS_KEY/],
  ['an e-mail address', /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/],
];

/** Names of the secrets found in the history (empty when it is fit to commit). */
export function secretsIn(history: HistoryJson): string[] {
  const found = new Set<string>();
  for (const s of stringsOf(history)) {
    const text = s.replace(MESSAGE_ID, '');
    for (const [what, re] of SECRET_PATTERNS) if (re.test(text)) found.add(what);
  }
  return [...found];
}

/**
 * The recorded history as committed: failure stack traces (paths of the recording machine) emptied, and the
 * recording workers' identities (`<pid>@<host>`, also part of sticky task queue names) replaced by `worker`. Replay
 * reads neither; everything else is unchanged.
 */
export function scrubbed(history: HistoryJson): HistoryJson {
  const identities = new Set<string>();
  const collect = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(collect);
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'identity' && typeof x === 'string' && x !== '') identities.add(x);
        else collect(x);
      }
    }
  };
  collect(history);
  const anonymous = (s: string) => [...identities].reduce((out, id) => out.split(id).join('worker'), s);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return anonymous(v);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== 'object' || v === null) return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'stackTrace' ? '' : walk(x)]));
  };
  return walk(history) as HistoryJson;
}

/** False for a history in which no workflow task completed yet: replaying it checks nothing. */
export function hasWorkflowCode(history: HistoryJson): boolean {
  return history.events.some((e) => e.eventType === 'EVENT_TYPE_WORKFLOW_TASK_COMPLETED');
}

const CLOSE: Readonly<Record<string, string>> = {
  EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED: 'completed',
  EVENT_TYPE_WORKFLOW_EXECUTION_FAILED: 'failed',
  EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW: 'continued-as-new',
  EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED: 'terminated',
  EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT: 'timed-out',
  EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED: 'canceled',
};

/** Events that show a branch of the workflow code was taken, named for the scenario. */
const BRANCHES: ReadonlyArray<[string, string]> = [
  ['EVENT_TYPE_ACTIVITY_TASK_FAILED', 'activity-failed'],
  ['EVENT_TYPE_TIMER_STARTED', 'waited'],
  ['EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED', 'started-workflows'],
  ['EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_FAILED', 'found-started'],
  ['EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED', 'signalled'],
  ['EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED', 'signalled-other'],
  ['EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED', 'updated'],
  ['EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES', 'search-attributes'],
];

/**
 * A name for the path a history took through its workflow, from the history alone: the network it watches (if
 * any), how the run ended, the `status` it returned, and the branches it took (failed activities, timers,
 * workflows started, signals, updates). The recorder keeps one history per name and type.
 */
export function scenarioOf(history: HistoryJson): string {
  const parts: string[] = [];
  const input = attributes(history.events[0]!)['input'] as { payloads?: JsonPayload[] } | undefined;
  const arg = input?.payloads?.[0] ? payloadValue(input.payloads[0]) : undefined;
  if (typeof arg === 'object' && arg !== null && typeof (arg as { network?: unknown }).network === 'string')
    parts.push((arg as { network: string }).network);
  // A delivery's retries handed over by the dispatcher (they wait until `resumeAt`, then go on from attempt 2).
  if (typeof arg === 'object' && arg !== null && typeof (arg as { resumeAt?: unknown }).resumeAt === 'number')
    parts.push('handed-over');
  const last = history.events.at(-1)!;
  parts.push(CLOSE[last.eventType] ?? 'running');
  if (last.eventType === 'EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED') {
    const result = (attributes(last)['result'] as { payloads?: JsonPayload[] } | undefined)?.payloads?.[0];
    const value = result ? payloadValue(result) : undefined;
    const status = typeof value === 'object' && value !== null ? (value as { status?: unknown }).status : undefined;
    if (typeof status === 'string' && status !== 'completed') parts.push(status);
  }
  const types = new Set(history.events.map((e) => e.eventType));
  for (const [eventType, name] of BRANCHES) if (types.has(eventType)) parts.push(name);
  for (const id of patchesOf(history)) if (PATCH_BRANCHES[id]) parts.push(PATCH_BRANCHES[id]);
  return parts.join('-');
}

/**
 * Patches whose path is not visible from other events (both run the same activity, locally instead of through the
 * server): named in the scenario, so a history of the patched path is kept beside the one from before the patch.
 */
const PATCH_BRANCHES: Readonly<Record<string, string>> = {
  'delivery-attempt-local': 'attempt-local',
  'job-claim-local-first': 'claim-local',
  'job-slot-wake': 'slot-wake',
  // The watcher and the invoice lifecycle leave their deliveries to the dispatcher (no workflows started).
  'webhook-dispatcher': 'dispatched',
};

/** The ids of the patches a history recorded (`patched()` markers). */
function patchesOf(history: HistoryJson): string[] {
  return history.events
    .filter((e) => e.eventType === 'EVENT_TYPE_MARKER_RECORDED' && attributes(e)['markerName'] === 'core_patch')
    .map((e) => {
      const payload = ((attributes(e)['details'] as Record<string, { payloads?: JsonPayload[] }> | undefined)?.[
        'patch-data'
      ]?.payloads ?? [])[0];
      const data = payload ? payloadValue(payload) : undefined;
      return typeof data === 'object' && data !== null && typeof (data as { id?: unknown }).id === 'string'
        ? (data as { id: string }).id
        : '';
    });
}
