// The plumbing every fake speech provider shares: one local HTTP server (with WebSocket upgrades), its origin,
// bounded JSON bodies, the provider's audio as the offline engine's speech (so the platform's media client and the
// fakes' recognisers read the words back), and a clean close.
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Resampler, synthesizeOfflineSpeech, TextSignalDecoder } from '@vap/media';

export interface FakeServerHandlers {
  request(req: IncomingMessage, res: ServerResponse, url: URL): void | Promise<void>;
  upgrade?(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): void;
}

export interface StartedFakeServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** ws://127.0.0.1:<port> */
  wsUrl: string;
  close(): Promise<void>;
}

/** Starts a fake on a free port of 127.0.0.1. */
export async function startFakeServer(handlers: FakeServerHandlers): Promise<StartedFakeServer> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    Promise.resolve(handlers.request(req, res, url)).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: (err as Error).message } });
      else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (!handlers.upgrade) return void socket.destroy();
    handlers.upgrade(req, socket, head, url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Refuses a WebSocket upgrade with an HTTP answer, as providers do for a bad key or bad query. */
export function refuseUpgrade(socket: Duplex, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}` +
      `\r\nconnection: close\r\n\r\n${text}`,
  );
}

/** A request body, at most `limit` bytes (a fake refuses what the provider would refuse as too large). */
export async function readBody(req: IncomingMessage, limit = 1 << 20): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error(`body over ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The text as the offline engine speaks it (its words in-band), PCM16 mono at `sampleRate`. */
export async function speechPcm(text: string, sampleRate: number): Promise<Int16Array> {
  const at8k = await synthesizeOfflineSpeech(text);
  if (sampleRate === 8000) return at8k;
  const resampler = new Resampler(8000, sampleRate);
  const head = resampler.push(at8k);
  const tail = resampler.flush();
  const out = new Int16Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
}

/** Little-endian bytes of PCM16 samples. */
export function pcmBytes(pcm: Int16Array): Buffer {
  return Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
}

/**
 * A fake recogniser: the words of the offline engine's speech in the audio it is given, the same words for the
 * same audio. Audio at `sampleRate` is brought to 8 kHz first (where the text signal is decoded).
 */
export class FakeRecogniser {
  private readonly decoder = new TextSignalDecoder(8000);
  private readonly resampler: Resampler | undefined;

  constructor(sampleRate: number) {
    this.resampler = sampleRate === 8000 ? undefined : new Resampler(sampleRate, 8000);
  }

  /** Texts completed by this audio. */
  push(pcm: Int16Array): string[] {
    return this.decoder.push(this.resampler ? this.resampler.push(pcm) : pcm);
  }
}
