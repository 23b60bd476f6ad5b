/**
 * Where a row of bench:processing's parallel-submitters mode spends its time (issue 32 item 5): PostgreSQL's sessions
 * sampled from pg_stat_activity (what each active session waits for, by application: the API's pool is `paycore-bench`,
 * a worker process's `paycore-bench-worker`), CPU time of this process, the worker processes, PostgreSQL and the
 * Temporal server, the API's workflow starts, and the statements this process sent, by kind, with their time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { Db } from '../../db/connection.js';
import type { WorkflowGateway } from '../../services/workflows/workflow-client.js';
import { fmt, percentile } from './measure.js';
import type { WorkerProcessState } from './worker-processes.js';

const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) of the given processes, from /proc (0 for one that is gone). */
function cpuSeconds(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited
    }
  }
  return ticks / TICKS_PER_SECOND;
}

/** PostgreSQL (the postmaster listening on `pgPort` and its children) and the Temporal dev server on `temporalPort`. */
function serverPids(pgPort: number, temporalPort: number): { postgres: number[]; temporal: number[] } {
  const procs = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => {
      try {
        const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
        const ppid = Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
        return { pid: Number(d), ppid, cmd };
      } catch {
        return null;
      }
    })
    .filter((p): p is { pid: number; ppid: number; cmd: string[] } => p !== null);
  const postmaster = procs.find((p) => /postgres$/.test(p.cmd[0] ?? '') && p.cmd.join(' ').includes(`-p ${pgPort}`));
  const temporal = procs.filter((p) => p.cmd.includes('start-dev') && p.cmd.includes(String(temporalPort)));
  return {
    postgres: postmaster ? [postmaster.pid, ...procs.filter((p) => p.ppid === postmaster.pid).map((p) => p.pid)] : [],
    temporal: temporal.map((p) => p.pid),
  };
}

export interface WhereReport {
  seconds: number;
  /** Average number of active sessions per (application, wait), over the samples. */
  sessions: Array<{ what: string; average: number }>;
  cpu: Array<{ what: string; seconds: number }>;
  starts: number[];
  statements: Array<{ what: string; count: number; totalMs: number; p95Ms: number }>;
}

/** Starts watching; `stop()` returns what was seen. The gateway's `workflow.start` is timed while it runs. */
export function watchWhere(
  db: Db,
  opts: { databaseUrl: string; temporalAddress: string; gw: WorkflowGateway; workers: readonly WorkerProcessState[] },
) {
  const pids = serverPids(Number(new URL(opts.databaseUrl).port), Number(opts.temporalAddress.split(':').at(-1)));
  const started = performance.now();
  const cpu0 = {
    self: process.cpuUsage(),
    workers: opts.workers.map((w) => w.cpuMicros),
    postgres: cpuSeconds(pids.postgres),
    temporal: cpuSeconds(pids.temporal),
  };
  // The workflow starts of the API (this process).
  const workflow = opts.gw.client.workflow;
  const start = workflow.start.bind(workflow);
  const starts: number[] = [];
  workflow.start = (async (...args: Parameters<typeof start>) => {
    const t = performance.now();
    try {
      return await start(...args);
    } finally {
      starts.push(performance.now() - t);
    }
  }) as typeof start;
  // Statements this process sent, by kind.
  const sentAt = new Map<string, { at: number; what: string }>();
  const byKind = new Map<string, number[]>();
  const onQuery = (q: { __knexQueryUid?: string; sql?: string }) => {
    if (q.__knexQueryUid) sentAt.set(q.__knexQueryUid, { at: performance.now(), what: kindOf(q.sql ?? '') });
  };
  const onDone = (_r: unknown, q: { __knexQueryUid?: string }) => {
    const s = q.__knexQueryUid ? sentAt.get(q.__knexQueryUid) : undefined;
    if (!s) return;
    sentAt.delete(q.__knexQueryUid!);
    const list = byKind.get(s.what) ?? [];
    list.push(performance.now() - s.at);
    byKind.set(s.what, list);
  };
  db.on('query', onQuery);
  db.on('query-response', onDone);
  db.on('query-error', onDone);
  // pg_stat_activity every 20 ms on a connection of its own (not counted above).
  const waits = new Map<string, number>();
  let samples = 0;
  let stopped = false;
  const sampler = (async () => {
    const client = new pg.Client({ connectionString: opts.databaseUrl, application_name: 'bench-sampler' });
    await client.connect();
    try {
      while (!stopped) {
        const { rows } = await client.query<{ app: string; wait: string; n: number }>(
          `SELECT application_name AS app, coalesce(wait_event_type || ':' || wait_event, 'running') AS wait, count(*)::int AS n
             FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'
            GROUP BY 1, 2`,
        );
        samples++;
        for (const r of rows) waits.set(`${r.app} ${r.wait}`, (waits.get(`${r.app} ${r.wait}`) ?? 0) + r.n);
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await client.end();
    }
  })();
  return {
    async stop(): Promise<WhereReport> {
      stopped = true;
      await sampler;
      workflow.start = start;
      db.off('query', onQuery);
      db.off('query-response', onDone);
      db.off('query-error', onDone);
      const self = process.cpuUsage(cpu0.self);
      return {
        seconds: (performance.now() - started) / 1000,
        sessions: [...waits]
          .map(([what, n]) => ({ what, average: n / Math.max(1, samples) }))
          .sort((a, b) => b.average - a.average),
        cpu: [
          { what: 'this process (API, clients)', seconds: (self.user + self.system) / 1e6 },
          ...opts.workers.map((w, i) => ({
            what: `worker process ${i + 1}`,
            seconds: (w.cpuMicros - cpu0.workers[i]!) / 1e6,
          })),
          { what: 'PostgreSQL', seconds: cpuSeconds(pids.postgres) - cpu0.postgres },
          { what: 'Temporal server', seconds: cpuSeconds(pids.temporal) - cpu0.temporal },
        ],
        starts,
        statements: [...byKind]
          .map(([what, ms]) => ({
            what,
            count: ms.length,
            totalMs: ms.reduce((a, b) => a + b, 0),
            p95Ms: percentile(ms, 0.95),
          }))
          .sort((a, b) => b.totalMs - a.totalMs),
      };
    },
  };
}

/** A statement's kind: its verb and first table (or the advisory lock), enough to tell the submission's steps apart. */
function kindOf(sql: string): string {
  const s = sql.replace(/\s+/g, ' ').trim().toLowerCase();
  if (s.includes('pg_advisory_xact_lock')) return 'advisory lock';
  if (/^(begin|commit|rollback)/.test(s)) return s.split(' ')[0]!;
  const verb = s.split(' ')[0]!;
  const table = /(?:from|into|update|join) "?([a-z_]+)"?/.exec(s)?.[1] ?? '?';
  return `${verb} ${table}${s.includes('for update') ? ' for update' : ''}`;
}

export function formatWhere(label: string, w: WhereReport): string[] {
  const top = w.statements.slice(0, 8);
  return [
    `   where ${label} spent its ${w.seconds.toFixed(2)} s:`,
    `     CPU: ${w.cpu.map((c) => `${c.what} ${c.seconds.toFixed(2)} s`).join(', ')}`,
    `     database sessions (average active, by application and wait): ${
      w.sessions
        .slice(0, 6)
        .map((s) => `${s.what} ${s.average.toFixed(2)}`)
        .join(', ') || 'none'
    }`,
    `     workflow starts by the API: ${w.starts.length}, p50 ${fmt.ms(percentile(w.starts, 0.5))}, p95 ${fmt.ms(percentile(w.starts, 0.95))}`,
    `     statements of this process (kind: count, total, p95): ${top
      .map((s) => `${s.what}: ${s.count}, ${s.totalMs.toFixed(0)} ms, ${s.p95Ms.toFixed(1)} ms`)
      .join('; ')}`,
  ];
}
