import WebSocket from 'ws';
import {
  ClockSource,
  DtmfDetector,
  FRAME_MS,
  FrameClock,
  Framer,
  mulawEncode,
  STREAM_CLOSE_REPLICA_FULL,
} from '@vap/media';
import { AgentListener, AgentTurn } from './agent-listener';
import { AgentPlayback } from './agent-playback';
import { CalleeVoice } from '../callee/callee-voice';
import { CarrierBMediaStream, parseCarrierBPlatformFrame } from '../carrier-b/media-stream';

/** What a callee script can do on the line. Every wait is in media time and ends early when the call does. */
export interface PhoneLine {
  /** Every agent line heard so far. */
  readonly heard: readonly string[];
  /** Says a line; resolves once its last frame has gone out. */
  say(text: string): Promise<void>;
  /** Plays raw audio (PCM16 8 kHz), e.g. a beep. */
  play(pcm: Int16Array): Promise<void>;
  /**
   * The next agent turn finished since the callee last spoke; null when none finishes within maxMs (a line the
   * agent has begun by then is let finish).
   */
  listen(maxMs: number): Promise<AgentTurn | null>;
  /**
   * The callee presses keys: one `dtmf` frame each, `gapMs` of media time apart, as the carrier reports keys it
   * detected on the line.
   */
  press(keys: string, gapMs?: number): Promise<void>;
  /** Every key the agent pressed in-band so far (touch tones heard in its audio), in order. */
  readonly keysHeard: string;
  /** The agent's next in-band key since the last one taken; null when none comes within maxMs. */
  nextKey(maxMs: number): Promise<string | null>;
  /** Resolves true once the agent has been talking for forMs without a pause; false after maxMs. */
  agentTalking(forMs: number, maxMs: number): Promise<boolean>;
  pause(ms: number): Promise<void>;
  /** The callee hangs up: `stop`, then the socket closes. */
  hangUp(): void;
}

export type CalleeScript = (line: PhoneLine) => Promise<void>;

/** How the phone's side of the call ended. */
export type PhoneEnd =
  /** The callee hung up (its script said so, or it gave up waiting on a silent line). */
  | { kind: 'callee_hung_up'; mediaMs: number; spoke: boolean }
  /** disconnect(): the platform ended the call, transferred it, or this process is stopping. */
  | { kind: 'disconnected'; mediaMs: number; spoke: boolean }
  /** The media plane closed the socket. */
  | { kind: 'stream_closed'; mediaMs: number; spoke: boolean }
  /** The stream could not be opened (refused upgrade, full replica, unreachable media plane) or broke. */
  | { kind: 'stream_failed'; mediaMs: number; spoke: boolean; error: string };

export interface SimulatedPhoneOptions {
  /** The stream URL the platform gave for the call, exactly as its answer markup wrote it. */
  url: string;
  /** Where to open it when the platform is reached by another address than its public one (default: url). */
  connectUrl?: string;
  /** Headers of the upgrade request (the carrier's signature over `url`). */
  headers?: Record<string, string>;
  callSid: string;
  accountSid: string;
  /** Sent back in `start`, as carrier_b does with the answer markup's <Parameter>s. */
  customParameters: Record<string, string>;
  voice: CalleeVoice;
  /** MEDIA_TIME_SCALE: how much faster than real time media runs (same pacing code at every scale). */
  timeScale: number;
  /** Real time allowed for the WebSocket upgrade. */
  connectTimeoutMs?: number;
  clock?: ClockSource;
  /** Problems the phone cannot report on the line (a script that threw). */
  onError?: (err: Error) => void;
  /**
   * Each 20 ms the loudspeaker played (mu-law), at the media time it ends; `silence` when nothing of the
   * platform's was queued. For a listener of the audio itself; the phone keeps none of it.
   */
  onPlayed?: (frame: Buffer, mediaMs: number, silence: boolean) => void;
}

/** Thrown into a waiting script when the call ends under it. */
export class PhoneLineClosed extends Error {
  constructor() {
    super('the call ended');
  }
}

interface Waiter {
  ready(): boolean;
  resolve(): void;
  reject(err: Error): void;
}

/**
 * A carrier's simulated phone: a carrier_b media-stream client. It opens the WebSocket to the
 * media plane, sends `connected` and `start`, then one `media` frame of the callee's audio every 20 ms of
 * media time on a paced clock; it plays the agent's `media` on the same clock, echoes `mark`s once the
 * audio queued before them has played and honours `clear`. The callee's script listens to what plays
 * (AgentListener) and speaks through its voice.
 */
export class SimulatedPhone implements PhoneLine {
  private readonly stream: CarrierBMediaStream;
  private readonly listener = new AgentListener();
  private readonly playback = new AgentPlayback((name) => this.send(this.stream.mark(name)));
  private readonly clock: FrameClock;
  private socket: WebSocket | undefined;
  private mediaMs = 0;
  private queuedFrames = 0;
  private spoke = false;
  private turns: AgentTurn[] = [];
  private keys = '';
  private keysTaken = 0;
  private clearsReceived = 0;
  private readonly keyDetector = new DtmfDetector((key) => (this.keys += key));
  private readonly waiters = new Set<Waiter>();
  private end: PhoneEnd | undefined;
  private resolveEnd!: (end: PhoneEnd) => void;
  private readonly ended = new Promise<PhoneEnd>((resolve) => (this.resolveEnd = resolve));

  constructor(private readonly options: SimulatedPhoneOptions) {
    this.stream = new CarrierBMediaStream({ accountSid: options.accountSid, callSid: options.callSid });
    this.clock = new FrameClock({
      send: (frame) => this.tick(frame),
      timeScale: options.timeScale,
      idle: 'silence',
      // A carrier streams without a break: after a stall of this process the missed frames go out at once, so
      // the stream's frames (what the platform records, and the duration billed) keep the clock's time.
      late: 'catch-up',
      clock: options.clock,
    });
  }

  get heard(): readonly string[] {
    return this.listener.heard;
  }

  get keysHeard(): string {
    return this.keys;
  }

  /** How many times the platform dropped the agent's queued audio (`clear`: a barge-in). */
  get clears(): number {
    return this.clearsReceived;
  }

  /** Media time on the line so far, ms. */
  get elapsedMs(): number {
    return this.mediaMs;
  }

  /** Opens the stream and plays the script; resolves when the call ends on the phone's side. */
  run(script: CalleeScript): Promise<PhoneEnd> {
    const socket = new WebSocket(this.options.connectUrl ?? this.options.url, {
      handshakeTimeout: this.options.connectTimeoutMs ?? 10_000,
      headers: this.options.headers,
    });
    this.socket = socket;
    socket.on('open', () => {
      this.send(this.stream.connected());
      this.send(this.stream.start(this.options.customParameters));
      this.clock.start();
      script(this).then(
        // The script is over: the callee stays on the line, silent, until someone hangs up.
        () => undefined,
        (err: Error) => {
          if (err instanceof PhoneLineClosed) return;
          this.options.onError?.(err);
          this.hangUp();
        },
      );
    });
    socket.on('message', (data, isBinary) => {
      if (!isBinary) this.receive(data.toString());
    });
    socket.on('error', (err) => this.finish({ kind: 'stream_failed', error: err.message }));
    socket.on('close', (code, reason) =>
      // A full voice replica closes at once, before any audio: the stream never ran, as a refused upgrade.
      this.finish(
        code === STREAM_CLOSE_REPLICA_FULL
          ? {
              kind: 'stream_failed',
              error: `the media plane closed the stream: ${code} ${reason.toString()}`,
            }
          : { kind: 'stream_closed' },
      ),
    );
    return this.ended;
  }

  /** Ends the phone's side from the carrier (platform hang-up, transfer, shutdown): `stop`, close. */
  disconnect(): Promise<PhoneEnd> {
    this.hangOff('disconnected');
    return this.ended;
  }

  hangUp(): void {
    this.hangOff('callee_hung_up');
  }

  async say(text: string): Promise<void> {
    const pcm = await this.options.voice.speak(text);
    await this.play(pcm);
  }

  play(pcm: Int16Array): Promise<void> {
    if (this.end) return Promise.reject(new PhoneLineClosed());
    const framer = new Framer();
    const frames = framer.push(mulawEncode(pcm));
    const tail = framer.flush();
    if (tail) frames.push(tail);
    this.turns = [];
    this.spoke = true;
    for (const frame of frames) this.clock.enqueue(frame);
    this.clock.endUtterance();
    this.queuedFrames += frames.length;
    const target = this.queuedFrames;
    return this.waitFor(() => this.clock.framesSent >= target);
  }

  async press(keys: string, gapMs = 200): Promise<void> {
    for (const key of keys) {
      if (this.end) throw new PhoneLineClosed();
      this.spoke = true;
      this.send(this.stream.dtmf(key));
      await this.pause(gapMs);
    }
  }

  async nextKey(maxMs: number): Promise<string | null> {
    const deadline = this.mediaMs + maxMs;
    await this.waitFor(() => this.keys.length > this.keysTaken || this.mediaMs >= deadline);
    return this.keys.length > this.keysTaken ? this.keys[this.keysTaken++] : null;
  }

  async listen(maxMs: number): Promise<AgentTurn | null> {
    const deadline = this.mediaMs + maxMs;
    // Out of patience, a callee still lets a line the agent has begun finish, as a person would: an intro that
    // starts late (a slow synthesis) is heard whole, not talked over.
    await this.waitFor(() => this.turns.length > 0 || (this.mediaMs >= deadline && !this.listener.midLine));
    return this.turns.shift() ?? null;
  }

  async agentTalking(forMs: number, maxMs: number): Promise<boolean> {
    const deadline = this.mediaMs + maxMs;
    const talking = () => this.listener.talkingForMs >= forMs;
    await this.waitFor(() => talking() || this.mediaMs >= deadline);
    return talking();
  }

  pause(ms: number): Promise<void> {
    const until = this.mediaMs + ms;
    return this.waitFor(() => this.mediaMs >= until);
  }

  private waitFor(ready: () => boolean): Promise<void> {
    if (this.end) return Promise.reject(new PhoneLineClosed());
    if (ready()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => this.waiters.add({ ready, resolve, reject }));
  }

  /** One 20 ms slot of media time: the callee's frame goes out, the agent's next frame plays. */
  private tick(outbound: Buffer): void {
    if (this.end) return;
    this.send(this.stream.media(outbound));
    const played = this.playback.next();
    this.mediaMs += FRAME_MS;
    this.options.onPlayed?.(played.frame, this.mediaMs, played.silence);
    const turn = this.listener.hear(played.frame, this.mediaMs, played.silence);
    if (!played.silence) this.keyDetector.push(played.frame);
    if (turn) this.turns.push(turn);
    for (const waiter of this.waiters) {
      if (!waiter.ready()) continue;
      this.waiters.delete(waiter);
      waiter.resolve();
    }
  }

  /** A frame from the platform: `media`, `mark` or `clear` (anything else is not carrier_b's and ignored). */
  private receive(text: string): void {
    const message = parseCarrierBPlatformFrame(text);
    if (message?.event === 'media') {
      this.playback.push(Buffer.from(message.media.payload, 'base64'));
    } else if (message?.event === 'mark') {
      this.playback.mark(message.mark.name);
    } else if (message?.event === 'clear') {
      this.clearsReceived++;
      this.playback.clear();
      this.listener.lineCut();
    }
  }

  private hangOff(kind: 'callee_hung_up' | 'disconnected'): void {
    if (this.end) return;
    const socket = this.socket;
    if (socket?.readyState === WebSocket.OPEN) {
      this.send(this.stream.stop());
      socket.close(1000, 'call ended');
    } else {
      socket?.terminate();
    }
    this.finish({ kind });
  }

  private finish(
    end:
      | { kind: 'callee_hung_up' | 'disconnected' | 'stream_closed' }
      | {
          kind: 'stream_failed';
          error: string;
        },
  ): void {
    if (this.end) return;
    this.clock.stop();
    const ended: PhoneEnd = { ...end, mediaMs: this.mediaMs, spoke: this.spoke };
    this.end = ended;
    for (const waiter of this.waiters) waiter.reject(new PhoneLineClosed());
    this.waiters.clear();
    this.resolveEnd(ended);
  }

  private send(message: object): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }
}
