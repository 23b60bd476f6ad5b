import type { Logger } from '../adapters/logging/logger.js';
import type { Db } from './connection.js';

/** A raw PostgreSQL connection that can LISTEN (the pool's connections are shared and must not). */
interface ListenConnection {
  query(sql: string): Promise<unknown>;
  on(event: 'notification', fn: () => void): unknown;
  on(event: 'error' | 'end', fn: (err?: unknown) => void): unknown;
}

export interface ChannelListener {
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
export function createChannelListener(db: Db, channel: string, opts: { what: string; logger: Logger; onNotify: () => void }): ChannelListener {
  const client = db.client as { acquireRawConnection(): Promise<ListenConnection>; destroyRawConnection(c: ListenConnection): Promise<void> };
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
