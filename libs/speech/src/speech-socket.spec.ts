import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { socketBase, SocketClosed, SocketRefused, SpeechSocket } from './speech-socket';

let server: WebSocketServer;
let url: string;
let onConnection: (socket: WebSocket) => void;
let received: string[];
let closes: number[];

beforeEach(async () => {
  received = [];
  closes = [];
  server = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    verifyClient: ({ req }, done) =>
      req.headers['x-key'] === 'good' ? done(true) : done(false, 401, 'Unauthorized'),
  });
  server.on('connection', (socket) => {
    socket.on('message', (data) => received.push(data.toString()));
    socket.on('close', (code) => closes.push(code));
    onConnection(socket);
  });
  await new Promise((resolve) => server.once('listening', resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterEach(async () => {
  for (const client of server.clients) client.terminate();
  await new Promise((resolve) => server.close(resolve));
});

const open = (signal = new AbortController().signal, key = 'good') =>
  SpeechSocket.open(url, { 'x-key': key }, signal);

async function until(condition: () => boolean): Promise<void> {
  const end = Date.now() + 2000;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('SpeechSocket', () => {
  it('reads every frame before a normal close, then reports the end', async () => {
    onConnection = (socket) => {
      for (let i = 0; i < 100; i++) socket.send(JSON.stringify({ i }));
      socket.close(1000);
    };
    const socket = await open();
    const frames: unknown[] = [];
    for (let frame = await socket.next(); frame !== undefined; frame = await socket.next()) {
      frames.push(JSON.parse(frame));
      // A slow consumer: the socket pauses past its read-ahead and resumes as frames are taken.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(frames).toEqual(Array.from({ length: 100 }, (_, i) => ({ i })));
    await expect(socket.next()).resolves.toBeUndefined();
  });

  it('reports an error close with its code and reason after the frames before it', async () => {
    onConnection = (socket) => {
      socket.send('{"audio":"AA=="}');
      socket.close(1008, 'Invalid API key');
    };
    const socket = await open();
    await expect(socket.next()).resolves.toBe('{"audio":"AA=="}');
    const error = await socket.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SocketClosed);
    expect(error).toMatchObject({ code: 1008, reason: 'Invalid API key' });
  });

  it('quotes a refused upgrade', async () => {
    const error = await open(undefined, 'bad').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SocketRefused);
    expect((error as SocketRefused).status).toBe(401);
    expect((error as Error).message).toBe('upgrade refused: HTTP 401: Unauthorized');
  });

  it('on abort, fails the waiting read with the reason, says its farewell and closes normally', async () => {
    onConnection = () => undefined;
    const controller = new AbortController();
    const socket = await open(controller.signal);
    socket.farewell = { cancel: true };
    socket.send({ hello: 1 });
    const read = socket.next().catch((e: unknown) => e);
    controller.abort(new Error('barge-in'));
    expect(await read).toMatchObject({ message: 'barge-in' });
    await until(() => closes.length === 1);
    expect(received).toEqual(['{"hello":1}', '{"cancel":true}']);
    expect(closes).toEqual([1000]);
    // Sends after the close are dropped, not thrown.
    socket.send({ late: true });
    socket.close();
  });

  it('rejects an open the signal aborts, and an unreachable server', async () => {
    await expect(open(AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
    await new Promise((resolve) => server.close(resolve));
    await expect(open()).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('socketBase', () => {
  it('makes the WebSocket origin of an HTTP base URL', () => {
    expect(socketBase('https://api.cartesia.ai/')).toBe('wss://api.cartesia.ai');
    expect(socketBase(' http://127.0.0.1:8080 ')).toBe('ws://127.0.0.1:8080');
  });
});
