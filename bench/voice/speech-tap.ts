// In the process that hosts the fake speech providers: which benchmark call each provider request belongs to, and
// when audio crossed the fakes' sockets, without changing the fakes. Each call's plan gives it a key of its own
// (callKey(i)); as a request reaches a watched fake, the tap reads the call from the key and puts the key the
// fake accepts in its place, then stamps (process.hrtime.bigint(): CLOCK_MONOTONIC, shared by every process on
// the machine):
// - a synthesis's first audio as the fake hands it to the socket: the first audio write of an HTTP answer, or on
//   a WebSocket the first audio message after the client last spoke (a new text to synthesize);
// - every receipt of the caller's audio that has sound in it (binary mu-law or PCM16 frames, Sarvam's base64
//   JSON frames, or an OpenAI-style upload, stamped as its body ends).
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { mulawDecode } from '@vap/media';
import { peakOf, VOICED_PEAK } from './speech-like-audio';

/** How a fake receives the caller's audio (STT), to tell sound from silence. */
export type InboundAudio = 'mulaw' | 'pcm16' | 'sarvam-json' | 'upload';

export interface TappedProvider {
  /** The key the fake accepts: a call's own key is swapped for it before the fake reads the request. */
  fakeKey: string;
  inbound?: InboundAudio;
}

const CALL_KEY = /benchkey-(\d{6})/;
const CALL_KEYS = new RegExp(CALL_KEY.source, 'g');

/** The key the index-th call's plan carries for every provider. */
export function callKey(index: number): string {
  return `benchkey-${String(index).padStart(6, '0')}`;
}

/** The messages of the WebSocket TTS protocols that carry audio: ElevenLabs, Cartesia, Sarvam. */
const AUDIO_MESSAGE = /^\{"audio":"|"type":"chunk"|"type":"audio"/;

interface Tagged {
  call: number;
  provider: TappedProvider;
}

export class SpeechTap {
  /** Per call: when each synthesis's first audio went to the socket (monotonic ns). */
  readonly synthesisStarts = new Map<number, bigint[]>();
  /** Per call: when the fake received caller audio with sound in it (monotonic ns). */
  readonly voicedReceipts = new Map<number, bigint[]>();
  /** Requests to a watched fake that carried no call's key (the deployment's own providers' traffic). */
  untagged = 0;
  private readonly ports = new Map<number, TappedProvider>();
  private readonly tags = new WeakMap<IncomingMessage, Tagged>();
  private readonly answered = new WeakSet<ServerResponse>();

  private static installed: SpeechTap | undefined;

  /** The process's tap (one: it patches the HTTP server and the ws library of this process). */
  static install(): SpeechTap {
    if (SpeechTap.installed) return SpeechTap.installed;
    const tap = new SpeechTap();
    SpeechTap.installed = tap;

    const emit = Server.prototype.emit;
    Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
      if ((event === 'request' || event === 'upgrade') && tap.ports.size > 0) {
        const address = this.address();
        const provider = address && typeof address === 'object' ? tap.ports.get(address.port) : undefined;
        if (provider) tap.admit(args[0] as IncomingMessage, provider);
      }
      return (emit as (...a: unknown[]) => boolean).call(this, event, ...args);
    } as typeof emit;

    const handleUpgrade = WebSocketServer.prototype.handleUpgrade;
    WebSocketServer.prototype.handleUpgrade = function (this: WebSocketServer, req, socket, head, done) {
      const tagged = tap.tags.get(req);
      if (!tagged) return handleUpgrade.call(this, req, socket, head, done);
      return handleUpgrade.call(this, req, socket, head, (ws, request) => {
        tap.watchSocket(ws, tagged);
        done(ws, request);
      });
    } as typeof handleUpgrade;

    const write = ServerResponse.prototype.write;
    ServerResponse.prototype.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      tap.answerAudio(this, chunk);
      return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof write;
    const end = ServerResponse.prototype.end;
    ServerResponse.prototype.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      tap.answerAudio(this, chunk);
      return (end as (...a: unknown[]) => ServerResponse).call(this, chunk, ...rest);
    } as typeof end;
    return tap;
  }

  private constructor() {}

  /** Watches the fake listening at `baseUrl` (its port). */
  watch(baseUrl: string, provider: TappedProvider): void {
    this.ports.set(Number(new URL(baseUrl).port), provider);
  }

  /** Forgets the stamps (between runs). */
  reset(): void {
    this.synthesisStarts.clear();
    this.voicedReceipts.clear();
    this.untagged = 0;
  }

  private admit(req: IncomingMessage, provider: TappedProvider): void {
    let call: number | undefined;
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value !== 'string') continue;
      const match = CALL_KEY.exec(value);
      if (!match) continue;
      call = Number(match[1]);
      req.headers[name] = value.replace(CALL_KEYS, provider.fakeKey);
    }
    if (call === undefined) {
      this.untagged++;
      return;
    }
    for (let i = 1; i < req.rawHeaders.length; i += 2) {
      req.rawHeaders[i] = req.rawHeaders[i].replace(CALL_KEYS, provider.fakeKey);
    }
    this.tags.set(req, { call, provider });
    if (provider.inbound === 'upload' && req.method === 'POST') {
      // The utterance arrives whole in the upload: it has been received when the body has.
      const index = call;
      req.once('end', () => stamp(this.voicedReceipts, index));
    }
  }

  private watchSocket(ws: WebSocket, { call, provider }: Tagged): void {
    // The client spoke since the last audio went out: the next audio message starts a synthesis.
    let fresh = false;
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      const at = process.hrtime.bigint();
      fresh = true;
      if (provider.inbound && voiced(data, isBinary, provider.inbound)) {
        push(this.voicedReceipts, call, at);
      }
    });
    const send = ws.send.bind(ws) as (...args: unknown[]) => void;
    ws.send = ((data: unknown, ...rest: unknown[]) => {
      if (fresh && isAudioMessage(data)) {
        fresh = false;
        stamp(this.synthesisStarts, call);
      }
      send(data, ...rest);
    }) as typeof ws.send;
  }

  private answerAudio(res: ServerResponse, chunk: unknown): void {
    if (!(chunk instanceof Uint8Array) || chunk.length === 0 || this.answered.has(res)) return;
    const tagged = this.tags.get(res.req);
    if (!tagged || res.statusCode !== 200) return;
    const type = String(res.getHeader('content-type') ?? '');
    if (/json|text/.test(type)) return;
    this.answered.add(res);
    stamp(this.synthesisStarts, tagged.call);
  }
}

function stamp(map: Map<number, bigint[]>, call: number): void {
  push(map, call, process.hrtime.bigint());
}

function push(map: Map<number, bigint[]>, call: number, at: bigint): void {
  const list = map.get(call);
  if (list) list.push(at);
  else map.set(call, [at]);
}

function isAudioMessage(data: unknown): boolean {
  const head =
    typeof data === 'string'
      ? data.slice(0, 64)
      : Buffer.isBuffer(data)
        ? data.toString('latin1', 0, 64)
        : '';
  return AUDIO_MESSAGE.test(head);
}

/** Whether a message of caller audio has sound in it (digital silence and the resampler's dust do not). */
export function voiced(data: Buffer, isBinary: boolean, kind: InboundAudio): boolean {
  if (kind === 'mulaw') return isBinary && peakOf(mulawDecode(data)) > VOICED_PEAK;
  if (kind === 'pcm16') return isBinary && peakOf(pcm16Of(data)) > VOICED_PEAK;
  if (kind === 'sarvam-json' && !isBinary) {
    try {
      const message = JSON.parse(data.toString('utf8')) as { audio?: { data?: unknown } };
      const audio = message.audio?.data;
      return typeof audio === 'string' && peakOf(pcm16Of(Buffer.from(audio, 'base64'))) > VOICED_PEAK;
    } catch {
      return false;
    }
  }
  return false;
}

function pcm16Of(bytes: Buffer): Int16Array {
  const aligned = bytes.byteOffset % 2 === 0 ? bytes : Buffer.from(bytes);
  return new Int16Array(aligned.buffer, aligned.byteOffset, aligned.length >> 1);
}
