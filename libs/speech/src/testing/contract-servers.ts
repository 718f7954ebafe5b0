// The servers the speech plugin contracts point adapters at, besides each provider's fake: one that never answers
// (deadlines), one that refuses every request and upgrade with a status (error mapping), a port nothing listens on
// (unreachable), and a TCP proxy that counts a client's open connections (release), HTTP and WebSocket alike.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { sendJson, type StartedFakeServer, startFakeServer } from '@vap/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KeyCheckRequest, SpeechPlugin } from '../plugin';
import { refuseUpgrade } from './fake-provider-server';

/** A provider's fake, started for one test. */
export interface StartedSpeechFake {
  /** What the plugin's base URL setting takes to reach it. */
  baseUrl: string;
  close(): Promise<void>;
}

export async function waitFor(condition: () => boolean, ms = 2000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(10);
  }
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** A TCP proxy in front of a fake that counts the client's open connections (HTTP or WebSocket alike). */
export async function connectionCounter(
  target: string,
): Promise<{ host: string; open: () => number; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const clients = new Set<Socket>();
  const server = createServer((client) => {
    clients.add(client);
    const upstream = connect(Number(port), hostname);
    client.pipe(upstream).pipe(client);
    const end = () => {
      clients.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  const host = await listen(server);
  return {
    host,
    open: () => clients.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of clients) client.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A server that takes connections and never answers: the deadline is all that ends a request to it. */
export async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  const host = await listen(server);
  return {
    url: `http://${host}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A local port nothing listens on. */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  const host = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return `http://${host}`;
}

/** The same base URL on another origin (the fake's path kept). */
export function moved(baseUrl: string, origin: string): string {
  const url = new URL(baseUrl);
  return `${origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** A server refusing every request and WebSocket upgrade with `status`, in words a test can look for. */
export function refusingServer(status: number): Promise<StartedFakeServer> {
  const words = { error: { message: `refused with ${status}` } };
  return startFakeServer({
    request: (_req, res) => sendJson(res, status, words),
    upgrade: (_req, socket) => refuseUpgrade(socket, status, words),
  });
}

/** The key check every plugin makes: its own key is good, another is rejected, no server is unreachable. */
export async function expectKeyChecks(
  plugin: SpeechPlugin,
  fake: StartedSpeechFake,
  apiKey: string,
  extra: Partial<KeyCheckRequest> = {},
): Promise<void> {
  const request = { baseUrl: fake.baseUrl, timeoutMs: 2000, ...extra };
  expect(await plugin.checkKey({ ...request, apiKey })).toEqual({ ok: true });
  expect(await plugin.checkKey({ ...request, apiKey: 'another-key' })).toMatchObject({
    ok: false,
    reason: 'rejected',
  });
  const gone = moved(fake.baseUrl, await deadUrl());
  expect(await plugin.checkKey({ ...request, baseUrl: gone, apiKey })).toMatchObject({
    ok: false,
    reason: 'unreachable',
  });
}

/** A function that starts a fake or server for the current test only: it is closed once the test ends. */
export function startedPerTest(): <T extends { close(): Promise<void> }>(thing: Promise<T>) => Promise<T> {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });
  return async (thing) => {
    const running = await thing;
    closers.push(() => running.close());
    return running;
  };
}
