import { Agent, setGlobalDispatcher } from 'undici';

/**
 * The tests' HTTP client closes its idle connections long before the app's server does (4 s against the server's
 * KEEP_ALIVE_TIMEOUT_MS of 65 s, api/http/lifecycle.ts), as a proxy in front of it must. Without this, fetch takes its
 * idle time from the server's `Keep-Alive: timeout=` hint less 2 s, so on a loaded machine an event-loop stall of a
 * few seconds can send a request on a socket the server is closing at that moment: "fetch failed" (SocketError:
 * other side closed). The client closing first is the only order in which no request meets a closing socket.
 */
setGlobalDispatcher(new Agent({ keepAliveTimeout: 4_000, keepAliveMaxTimeout: 4_000 }));
