import type { Server } from 'node:http';

/**
 * How long an idle keep-alive connection stays open: longer than the clients' and load balancers' own idle
 * timeouts (undici's 4 s, common load balancers' 60 s), so the server never closes a connection at the moment a
 * client reuses it (the request would fail with "other side closed"). Node's default, 5 s, is within a loaded
 * client's timer slack of undici's.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export function keepConnectionsOpenLongerThanClients(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
}
