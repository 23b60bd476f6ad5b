import type { Logger } from '../adapters/logging/logger.js';
import type { Db } from './connection.js';

/** A raw PostgreSQL connection that can LISTEN (the pool's connections are shared and must not). */
interface ListenConnection {
  query(sql: string): Promise<unknown>;
  on(event: 'notification', fn: () => void): unknown;
  on(event: 'error' | 'end', fn: (err?: unknown) => void): unknown;
}

interface ChannelListener {
  /** LISTENs if it does not yet (and a failed try is not too recent); never throws. */
  ensure(): Promise<void>;
  close(): Promise<void>;
}

/** After a failed LISTEN, the next try waits this long (the caller's poll carries the queue meanwhile; one warning per try). */
const LISTEN_RETRY_MS = 10_000;

/**
 * LISTEN on `channel` over a connection of its own, for a queue in PostgreSQL that is also polled (the webhook
 * dispatcher, the workflow starter): `onNotify` is called for each notification. A dropped connection is replaced at
 * the next `ensure()`; what was notified meanwhile is found by the caller's poll. `what` names the caller in warnings.
 */
function createChannelListener(
  db: Db,
  channel: string,
  opts: { what: string; logger: Logger; onNotify: () => void },
): ChannelListener {
  const client = db.client as {
    acquireRawConnection(): Promise<ListenConnection>;
    destroyRawConnection(c: ListenConnection): Promise<void>;
  };
  let current: { conn: ListenConnection; close(): Promise<void> } | null = null;
  let againAt = 0;
  let closed = false;
  return {
    async ensure() {
      if (closed || current || Date.now() < againAt) return;
      let conn: ListenConnection | null = null;
      let gone = false;
      const drop = async () => {
        if (gone || !conn) return;
        gone = true;
        if (current?.conn === conn) current = null;
        await client.destroyRawConnection(conn).catch(() => undefined);
      };
      try {
        conn = await client.acquireRawConnection();
        conn.on('notification', opts.onNotify);
        conn.on('error', (err) => {
          opts.logger.warn({ err }, `${opts.what}: the LISTEN connection failed; polling until it is back`);
          void drop();
        });
        conn.on('end', () => void drop());
        await conn.query(`LISTEN ${channel}`);
        current = { conn, close: drop };
        if (closed) await drop();
      } catch (err) {
        againAt = Date.now() + LISTEN_RETRY_MS;
        await drop();
        opts.logger.warn({ err }, `${opts.what}: could not LISTEN; polling every second meanwhile`);
      }
    },
    async close() {
      closed = true;
      await current?.close();
    },
  };
}

export interface QueueLoop {
  start(): void;
  /** No round starts any more; resolves once the round in flight has ended and the LISTEN connection is closed. */
  stop(): Promise<void>;
  /** Something may be waiting (a notification, rows of the caller's that freed room): run a round soon. */
  notify(): void;
  /** Wakes the loop without news: it runs a round only if one was already due and `ready()` now says yes. */
  poke(): void;
}

/**
 * The loop of a worker over a queue in PostgreSQL (the webhook dispatcher, the workflow starter): it LISTENs on
 * `channel` and also wakes every `pollMs` (a missed notification, a lapsed claim, a dependency back); when something
 * may be waiting and `ready()` allows, it runs `round()`, and again at once while `round` says more may be waiting.
 * A round handles its own errors; one that throws stops the loop (logged).
 */
export function createQueueLoop(
  db: Db,
  opts: {
    channel: string;
    what: string;
    logger: Logger;
    pollMs: number;
    ready?: () => boolean;
    round: () => Promise<boolean>;
  },
): QueueLoop {
  let stopping = false;
  let running: Promise<void> | null = null;
  let stopped: Promise<void> | null = null;
  let listener: ChannelListener | null = null;
  let wake: (() => void) | null = null;
  // Something may be waiting: at start, after a notification or a poll tick, after a full round.
  let due = true;
  const poke = () => {
    wake?.();
    wake = null;
  };
  const notify = () => {
    due = true;
    poke();
  };
  async function loop(): Promise<void> {
    while (!stopping) {
      await listener?.ensure();
      if (due && (opts.ready?.() ?? true)) {
        due = false;
        if (await opts.round()) {
          due = true;
          continue;
        }
      }
      if (stopping) break;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(notify, opts.pollMs);
      });
      clearTimeout(timer);
    }
  }
  return {
    start() {
      if (running) return;
      stopping = false;
      stopped = null;
      due = true;
      listener = createChannelListener(db, opts.channel, { what: opts.what, logger: opts.logger, onNotify: notify });
      running = loop().catch((err: unknown) => opts.logger.error({ err }, `${opts.what} stopped on an error`));
    },
    stop() {
      stopped ??= (async () => {
        stopping = true;
        poke();
        await running;
        running = null;
        await listener?.close();
      })();
      return stopped;
    },
    notify,
    poke,
  };
}
