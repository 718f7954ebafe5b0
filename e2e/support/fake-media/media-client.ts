// The carrier's side of a bidirectional media stream, for e2e tests: opens the stream the platform's answer
// markup names (signed like the carrier signs its upgrade), streams the callee's audio on a steady 20 ms clock
// (silence between utterances, as a real carrier does), plays the agent's audio back on the same clock, echoes
// marks / checkpoints once the audio queued before them has played, honours clear, and decodes the offline
// text signal of what it played so a test knows what the agent said. Every JSON frame both ways is recorded.
import WebSocket from 'ws';
import { waitFor } from '@vap/testing';
import {
  FRAME_MS,
  MULAW_FRAME_BYTES,
  MULAW_SILENCE,
  DtmfDetector,
  mulawDecode,
  mulawEncode,
  TextSignalDecoder,
} from '@vap/media';
import {
  CarrierAMediaStream,
  CarrierBMediaStream,
  readCarrierAPlatformFrame,
  readCarrierBPlatformFrame,
  signCarrierA,
  signCarrierB,
  spokenAudio,
  StreamInstruction,
} from '@vap/carrier-sim';
import type { CarrierAccount, SignMode } from '../fake-carriers';

export type StreamFrame = Record<string, unknown>;

export interface RecordedFrame {
  direction: 'to_platform' | 'from_platform';
  /** Media time when it was sent or received, ms since the stream opened. */
  atMs: number;
  frame: StreamFrame;
}

export interface HeardText {
  text: string;
  /** Media time at which the text's last frame played, ms since the stream opened. */
  atMs: number;
}

export interface MediaClientOptions {
  account: CarrierAccount;
  instruction: StreamInstruction;
  /** carrier_b's CallSid or carrier_a's CallUUID. */
  carrierCallId: string;
  /** How much faster than real time the media clock runs; matches the platform's MEDIA_TIME_SCALE. */
  timeScale?: number;
  /** How the upgrade is signed: 'bad' uses a wrong token, 'none' sends no signature header. */
  sign?: SignMode;
  /** Echo marks / checkpoints once played (default true). */
  echoMarks?: boolean;
}

/** The platform refused the WebSocket upgrade with an HTTP status (no socket was opened). */
export class MediaStreamRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`the media stream upgrade was refused with ${status}: ${body}`);
  }
}

interface QueuedAudio {
  kind: 'audio';
  bytes: Buffer;
  offset: number;
}
interface QueuedMark {
  kind: 'mark';
  name: string;
}
type PlaybackItem = QueuedAudio | QueuedMark;

/** At most this many frames are caught up in one tick after the event loop stalled (no floods). */
const MAX_CATCH_UP_FRAMES = 25;
/**
 * Agent silence also lasts this long in wall time: at a fast media clock 300 ms of media is under 40 ms, which a
 * loaded machine can take from the platform's sender in one stall in the middle of a sentence.
 */
const QUIET_WALL_MS = 200;

export abstract class MediaStreamClient {
  readonly frames: RecordedFrame[] = [];
  /** Texts decoded from the agent's audio as it played. */
  readonly heard: HeardText[] = [];
  /** The agent's audio as it played (PCM16 8 kHz, one entry per 20 ms frame); cleared audio never plays. */
  readonly playedAgentAudio: Int16Array[] = [];
  /** Media time each entry of playedAgentAudio played at, ms since the stream opened. */
  readonly playedAtMs: number[] = [];
  /** Marks / checkpoints echoed back, in order. */
  readonly echoedMarks: string[] = [];
  /** Keys the agent pressed in-band: touch tones heard in its audio as it played (Goertzel), in order. */
  agentKeys = '';
  /** Number of clear / clearAudio frames received. */
  clears = 0;
  /** Frames the platform sent that break the protocol (e.g. audio in a format the stream did not negotiate). */
  readonly faults: string[] = [];
  closed: { code: number; reason: string } | null = null;

  protected readonly timeScale: number;
  private ws: WebSocket | null = null;
  private ticker: NodeJS.Timeout | null = null;
  private clockStart = 0;
  private framesTicked = 0;
  private readonly callerQueue: Buffer[] = [];
  private readonly playback: PlaybackItem[] = [];
  private readonly decoder = new TextSignalDecoder(8000);
  private readonly keys = new DtmfDetector((key) => (this.agentKeys += key));
  /** Wall time the platform's last audio frame arrived. */
  private agentAudioReceivedAt = -Infinity;
  private readonly closedPromise: Promise<void>;
  private markClosed!: () => void;

  protected constructor(protected readonly options: MediaClientOptions) {
    this.timeScale = options.timeScale ?? 1;
    this.closedPromise = new Promise((resolve) => (this.markClosed = resolve));
  }

  get url(): string {
    return this.options.instruction.url;
  }

  /** Media time now, ms since the stream opened (frames of the 20 ms clock). */
  get mediaMs(): number {
    return this.framesTicked * FRAME_MS;
  }

  /** The frames the platform sent, optionally of one event. */
  received(event?: string): StreamFrame[] {
    return this.frames
      .filter((f) => f.direction === 'from_platform' && (event === undefined || f.frame.event === event))
      .map((f) => f.frame);
  }

  /** The frames this fake sent, optionally of one event. */
  sent(event?: string): StreamFrame[] {
    return this.frames
      .filter((f) => f.direction === 'to_platform' && (event === undefined || f.frame.event === event))
      .map((f) => f.frame);
  }

  /** All the agent audio that played, as one clip. */
  agentAudio(): Int16Array {
    const out = new Int16Array(this.playedAgentAudio.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of this.playedAgentAudio) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }

  /** The agent frames that played in [fromMs, toMs) of media time. */
  agentFramesBetween(fromMs: number, toMs: number): Int16Array[] {
    return this.playedAgentAudio.filter((_, i) => this.playedAtMs[i] >= fromMs && this.playedAtMs[i] < toMs);
  }

  /** Opens the socket, sends the carrier's start sequence and starts the clock. Rejects with MediaStreamRefused. */
  async open(): Promise<void> {
    const ws = new WebSocket(this.url, { headers: this.upgradeHeaders(), handshakeTimeout: 10_000 });
    this.ws = ws;
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_req, res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          reject(new MediaStreamRefused(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'))),
        );
        res.on('error', () => reject(new MediaStreamRefused(res.statusCode ?? 0, '')));
      });
      ws.once('error', reject);
    });
    ws.on('message', (data, isBinary) => {
      if (isBinary) return this.protocolError('binary frame');
      let frame: unknown;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        return this.protocolError('non-JSON frame');
      }
      if (typeof frame !== 'object' || frame === null) return this.protocolError('non-object frame');
      this.record('from_platform', frame as StreamFrame);
      this.onPlatformFrame(frame as StreamFrame);
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.stopClock();
      this.markClosed();
    });
    ws.on('error', () => undefined);
    for (const frame of this.startFrames()) this.send(frame);
    this.clockStart = Date.now();
    this.ticker = setInterval(() => this.tick(), Math.max(1, FRAME_MS / this.timeScale));
  }

  /** Queues the callee saying `text` (voice with the offline text signal under it); resolves once it was sent. */
  say(text: string): Promise<void> {
    return this.play(spokenAudio(text));
  }

  /** Queues PCM16 8 kHz audio from the callee; resolves once its last frame was sent. */
  play(pcm: Int16Array): Promise<void> {
    const mulaw = mulawEncode(pcm);
    for (let at = 0; at < mulaw.length; at += MULAW_FRAME_BYTES) {
      const frame = Buffer.alloc(MULAW_FRAME_BYTES, MULAW_SILENCE);
      mulaw.copy(frame, 0, at, Math.min(mulaw.length, at + MULAW_FRAME_BYTES));
      this.callerQueue.push(frame);
    }
    return this.waitUntil(
      () => this.callerQueue.length === 0 || this.closed !== null,
      'the callee audio to be sent',
    );
  }

  /**
   * The callee presses keys: one dtmf frame each, `gapMs` of media time apart (a person's pace), as the carrier
   * reports keys it detected on the line. Resolves once the last was sent.
   */
  async press(keys: string, gapMs = 200): Promise<void> {
    for (const key of keys) {
      this.send(this.dtmfFrame(key));
      await this.pause(gapMs);
    }
  }

  /** Waits until the agent's in-band keys include `keys`. */
  waitForAgentKeys(keys: string, timeoutMs = 30_000): Promise<string> {
    return waitFor(() => (this.agentKeys.includes(keys) ? this.agentKeys : undefined), {
      timeoutMs,
      description: `the agent to press ${keys} (pressed so far: ${JSON.stringify(this.agentKeys)})`,
    });
  }

  /** Resolves after `ms` of media time (the callee is silent meanwhile unless audio is queued). */
  pause(ms: number): Promise<void> {
    const until = this.framesTicked + Math.ceil(ms / FRAME_MS);
    return this.waitUntil(() => this.framesTicked >= until || this.closed !== null, `${ms} ms of media time`);
  }

  /** Waits until the agent said something matching (decoded from its played audio). */
  async waitForHeard(match: string | RegExp, timeoutMs = 30_000): Promise<HeardText> {
    const test = (h: HeardText) => (typeof match === 'string' ? h.text.includes(match) : match.test(h.text));
    return waitFor(() => this.heard.find(test), {
      timeoutMs,
      description: `the agent to say ${String(match)} (heard so far: ${JSON.stringify(this.heard.map((h) => h.text))})`,
    });
  }

  /**
   * Waits until the agent has stopped talking: nothing queued to play and no agent audio for `quietMs` of media
   * time (speech can outlast its text signal, so hearing the words is not the end of the sentence), or the
   * stream closed. Never resolves while background audio plays.
   */
  waitUntilAgentSilent(quietMs = 300, timeoutMs = 30_000): Promise<void> {
    let quietBefore = false;
    return waitFor(
      () => {
        // A closed stream plays nothing more.
        if (this.closed !== null) return true;
        const last = this.playedAtMs[this.playedAtMs.length - 1] ?? -Infinity;
        const quiet =
          this.playback.length === 0 &&
          last <= this.mediaMs - quietMs &&
          Date.now() - this.agentAudioReceivedAt >= QUIET_WALL_MS;
        // Quiet at two looks in a row, the socket read in between: after this process stalled, the first look
        // runs (with the clock caught up) before the agent audio that arrived meanwhile is read.
        const silent = quiet && quietBefore;
        quietBefore = quiet;
        return silent || undefined;
      },
      { timeoutMs, intervalMs: 10, description: `the agent to be silent for ${quietMs} ms` },
    ).then(() => undefined);
  }

  /** Waits until the platform sent a frame matching. */
  waitForFrame(
    predicate: (frame: StreamFrame) => boolean,
    timeoutMs = 30_000,
    what = 'a frame',
  ): Promise<StreamFrame> {
    return waitFor(() => this.received().find(predicate), { timeoutMs, description: what });
  }

  /** Resolves once the socket closed (by either side). */
  async waitForClose(timeoutMs = 30_000): Promise<{ code: number; reason: string }> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.closedPromise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the media stream did not close within ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
    ]).finally(() => clearTimeout(timer));
    return this.closed!;
  }

  /** The call ended at the carrier (callee hung up, REST hang-up or transfer): stop frame (if any), then close. */
  hangUp(): void {
    if (!this.ws || this.closed) return;
    const stop = this.stopFrame();
    if (stop) this.send(stop);
    this.stopClock();
    this.ws.close(1000, 'call ended');
  }

  /** Drops the connection without a stop frame or close handshake (a network failure). */
  drop(): void {
    this.stopClock();
    this.ws?.terminate();
  }

  protected abstract signatureHeaders(token: string): Record<string, string>;
  protected abstract startFrames(): object[];
  /** The callee's next chunk of mu-law audio, numbered and stamped by the carrier's counters. */
  protected abstract mediaFrame(mulaw: Buffer): object;
  protected abstract stopFrame(): object | null;
  /** A key the callee pressed, as the carrier reports it. */
  protected abstract dtmfFrame(digit: string): object;
  protected abstract markFrame(name: string): object;
  /** What the carrier sends once a clear dropped the queue (besides any marks it echoes). */
  protected abstract afterClear(droppedMarks: string[]): void;
  /** Reads the platform's frame: 'audio' with mu-law, 'mark' with a name, 'clear', or null when unknown. */
  protected abstract readPlatformFrame(
    frame: StreamFrame,
  ): { kind: 'audio'; mulaw: Buffer } | { kind: 'mark'; name: string } | { kind: 'clear' } | null;

  protected send(frame: object): void {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    this.record('to_platform', frame as StreamFrame);
    this.ws.send(JSON.stringify(frame));
  }

  protected echoMark(name: string): void {
    this.echoedMarks.push(name);
    if (this.options.echoMarks === false) return;
    this.send(this.markFrame(name));
  }

  private upgradeHeaders(): Record<string, string> {
    const sign = this.options.sign ?? 'good';
    if (sign === 'none') return {};
    const token = sign === 'bad' ? `${this.options.account.token}-wrong` : this.options.account.token;
    return this.signatureHeaders(token);
  }

  private record(direction: RecordedFrame['direction'], frame: StreamFrame): void {
    this.frames.push({ direction, atMs: this.mediaMs, frame });
  }

  private protocolError(what: string): void {
    // A carrier closes the stream on garbage; 1007 = invalid frame payload data.
    this.ws?.close(1007, `unexpected ${what}`);
  }

  private onPlatformFrame(frame: StreamFrame): void {
    const read = this.readPlatformFrame(frame);
    if (!read) return;
    if (read.kind === 'audio') {
      this.agentAudioReceivedAt = Date.now();
      this.playback.push({ kind: 'audio', bytes: read.mulaw, offset: 0 });
    } else if (read.kind === 'mark') {
      // Nothing queued before it: it has played already.
      if (this.playback.length === 0) this.echoMark(read.name);
      else this.playback.push({ kind: 'mark', name: read.name });
    } else {
      this.clears++;
      const dropped = this.playback.filter((i): i is QueuedMark => i.kind === 'mark').map((i) => i.name);
      this.playback.length = 0;
      // The queued audio never plays: a line cut there must not swallow the start of the next one.
      this.decoder.reset();
      this.afterClear(dropped);
    }
  }

  /** One or more 20 ms frames of both directions, as many as the media clock says are due. */
  private tick(): void {
    const due = Math.floor(((Date.now() - this.clockStart) * this.timeScale) / FRAME_MS);
    let frames = Math.min(MAX_CATCH_UP_FRAMES, due - this.framesTicked);
    if (due - this.framesTicked > MAX_CATCH_UP_FRAMES) {
      // Stalled far behind: skip the backlog rather than flood (a real network would have lost it).
      this.framesTicked = due - MAX_CATCH_UP_FRAMES;
    }
    while (frames-- > 0 && !this.closed) {
      this.framesTicked++;
      this.sendCallerFrame();
      this.playAgentFrame();
    }
  }

  private sendCallerFrame(): void {
    this.send(this.mediaFrame(this.callerQueue.shift() ?? Buffer.alloc(MULAW_FRAME_BYTES, MULAW_SILENCE)));
  }

  private playAgentFrame(): void {
    this.releaseLeadingMarks();
    const frame = Buffer.alloc(MULAW_FRAME_BYTES, MULAW_SILENCE);
    let filled = 0;
    while (filled < MULAW_FRAME_BYTES && this.playback[0]?.kind === 'audio') {
      const item = this.playback[0];
      const take = Math.min(MULAW_FRAME_BYTES - filled, item.bytes.length - item.offset);
      item.bytes.copy(frame, filled, item.offset, item.offset + take);
      filled += take;
      item.offset += take;
      if (item.offset >= item.bytes.length) this.playback.shift();
    }
    if (filled === 0) return;
    const pcm = mulawDecode(frame);
    this.playedAgentAudio.push(pcm);
    this.playedAtMs.push(this.mediaMs);
    for (const text of this.decoder.push(pcm)) this.heard.push({ text, atMs: this.mediaMs });
    this.keys.push(frame);
    this.releaseLeadingMarks();
  }

  private releaseLeadingMarks(): void {
    while (this.playback[0]?.kind === 'mark') {
      const mark = this.playback.shift() as QueuedMark;
      this.echoMark(mark.name);
    }
  }

  private stopClock(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
  }

  private waitUntil(done: () => boolean, what: string): Promise<void> {
    return waitFor(() => done() || undefined, { timeoutMs: 120_000, intervalMs: 10, description: what }).then(
      () => undefined,
    );
  }
}

/** carrier_b (Twilio-shaped Media Streams). */
export class CarrierBMediaClient extends MediaStreamClient {
  private readonly stream: CarrierBMediaStream;

  constructor(options: MediaClientOptions) {
    super(options);
    this.stream = new CarrierBMediaStream({ accountSid: options.account.id, callSid: options.carrierCallId });
  }

  protected signatureHeaders(token: string): Record<string, string> {
    // Signed over the wss URL exactly as given in the markup, with no POST parameters.
    return { 'X-Twilio-Signature': signCarrierB(token, this.url, {}) };
  }

  protected startFrames(): object[] {
    return [this.stream.connected(), this.stream.start(this.options.instruction.parameters)];
  }

  protected mediaFrame(mulaw: Buffer): object {
    return this.stream.media(mulaw);
  }

  protected stopFrame(): object {
    return this.stream.stop();
  }

  protected dtmfFrame(digit: string): object {
    return this.stream.dtmf(digit);
  }

  protected markFrame(name: string): object {
    return this.stream.mark(name);
  }

  protected afterClear(droppedMarks: string[]): void {
    // Pending marks come back at once after a clear.
    for (const name of droppedMarks) this.echoMark(name);
  }

  protected readPlatformFrame(frame: StreamFrame) {
    const message = readCarrierBPlatformFrame(frame);
    switch (message?.event) {
      case 'media':
        return { kind: 'audio' as const, mulaw: Buffer.from(message.media.payload, 'base64') };
      case 'mark':
        return { kind: 'mark' as const, name: message.mark.name };
      case 'clear':
        return { kind: 'clear' as const };
      default:
        return null;
    }
  }
}

/** carrier_a (Plivo-shaped Audio Streams). */
export class CarrierAMediaClient extends MediaStreamClient {
  private readonly stream: CarrierAMediaStream;

  constructor(options: MediaClientOptions) {
    super(options);
    this.stream = new CarrierAMediaStream({ accountId: options.account.id, callId: options.carrierCallId });
  }

  protected signatureHeaders(token: string): Record<string, string> {
    // V3 over the URL by the GET rules (no body), with a fresh nonce.
    const nonce = String(Math.floor(Math.random() * 1e15));
    return {
      'X-Plivo-Signature-V3': signCarrierA(token, this.url, {}, nonce),
      'X-Plivo-Signature-V3-Nonce': nonce,
    };
  }

  protected startFrames(): object[] {
    return [this.stream.start(this.options.instruction.attributes.extraHeaders)];
  }

  protected mediaFrame(mulaw: Buffer): object {
    return this.stream.media(mulaw);
  }

  /** carrier_a just closes the socket when the call ends. */
  protected stopFrame(): null {
    return null;
  }

  protected dtmfFrame(digit: string): object {
    return this.stream.dtmf(digit);
  }

  protected markFrame(name: string): object {
    return this.stream.playedStream(name);
  }

  protected afterClear(): void {
    // Dropped checkpoints never played, so they are not echoed; the clear itself is acknowledged.
    this.send(this.stream.clearedAudio());
  }

  protected readPlatformFrame(frame: StreamFrame) {
    const message = readCarrierAPlatformFrame(frame);
    switch (message?.event) {
      case 'playAudio':
        return { kind: 'audio' as const, mulaw: Buffer.from(message.media.payload, 'base64') };
      case 'unplayableAudio':
        this.faults.push(`playAudio in ${String(message.contentType)} at ${String(message.sampleRate)} Hz`);
        return null;
      case 'checkpoint':
        return { kind: 'mark' as const, name: message.name };
      case 'clearAudio':
        return { kind: 'clear' as const };
      default:
        return null;
    }
  }
}

export function mediaClientFor(options: MediaClientOptions): MediaStreamClient {
  return options.instruction.protocol === 'carrier_b'
    ? new CarrierBMediaClient(options)
    : new CarrierAMediaClient(options);
}
