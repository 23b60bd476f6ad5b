import net from 'node:net';

export interface TcpFault {
  port: number;
  close(): Promise<void>;
}

async function listen(server: net.Server, sockets: Set<net.Socket>): Promise<TcpFault> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A black hole: accepts TCP connections and never sends a byte (a firewall that drops, a hung host). */
export async function startBlackHole(): Promise<TcpFault> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    socket.resume(); // read and drop whatever the client sends
  });
  return listen(server, sockets);
}

/**
 * A TCP proxy to `target` whose path can go dark: after `blackHole()`, the connections open at that moment stop
 * carrying bytes either way (and stay dead, like a connection across a partition), while connections opened
 * after `heal()` are forwarded normally.
 */
export async function startSwitchableProxy(target: {
  host: string;
  port: number;
}): Promise<TcpFault & { blackHole(): void; heal(): void; open(): number }> {
  const sockets = new Set<net.Socket>();
  const live = new Set<{ dead: boolean }>();
  let dark = false;
  const server = net.createServer((client) => {
    const link = { dead: dark };
    live.add(link);
    const upstream = net.connect(target);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        live.delete(link);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk) => {
      if (!link.dead) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!link.dead) client.write(chunk);
    });
  });
  const base = await listen(server, sockets);
  return {
    ...base,
    blackHole() {
      dark = true;
      for (const link of live) link.dead = true;
    },
    heal() {
      dark = false;
    },
    open: () => live.size,
  };
}

/** A server that closes every connection as soon as it is accepted (a database that is going away). */
export async function startConnectionDropper(): Promise<TcpFault> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.destroy();
  });
  return listen(server, sockets);
}
