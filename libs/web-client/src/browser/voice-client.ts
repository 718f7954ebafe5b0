import { pcm16ToFloat } from '../dsp';
import {
  applyTranscript,
  ClientMessage,
  describeRefusal,
  parseServerMessage,
  TranscriptLine,
  typedLine,
  TYPING_INTERVAL_MS,
  USER_TEXT_MAX_CHARS,
} from '../protocol';
import type { VoiceClientEvents, VoiceClientOptions, VoiceTranscriptLine } from '../types';
import { CAPTURE_PROCESSOR, PLAYBACK_PROCESSOR, workletSource } from './worklet';

/** The wire's audio: PCM16 little-endian mono at 16 kHz, 20 ms frames. */
const WIRE_RATE = 16000;
const FRAME_SAMPLES = 320;
/** Agent audio buffered before playback starts (and after it ran dry): absorbs network jitter. */
const PREFILL_MS = 60;

/** How long the platform may take from the socket's open to `session.started`. */
const START_TIMEOUT_MS = 15000;

type Listener<K extends keyof VoiceClientEvents> = (event: VoiceClientEvents[K]) => void;

/**
 * Why connect() failed or the session could not go on, for people (`message`) and programs: `reason` is the
 * cause (a refusal's: token_expired, token_used, token_invalid, origin_not_allowed, account_restricted,
 * session_not_found, session_ended, capacity, unavailable; or connection_failed, microphone_unavailable; or,
 * not fatal, a typed line's invalid_user_text, rate_limited), `code` the WebSocket close code that carried it.
 */
export class VoiceClientError extends Error {
  readonly reason: string;
  readonly code: number | null;
  /** Whether the session ended with it. */
  readonly fatal: boolean;

  constructor(message: string, reason: string, code: number | null, fatal = true) {
    super(message);
    this.name = 'VoiceClientError';
    this.reason = reason;
    this.code = code;
    this.fatal = fatal;
  }
}

/**
 * A browser voice session: the microphone to the platform's voice app and the agent's voice back, over one
 * WebSocket (`connect_url` of POST /api/v2/browser-sessions). Dependency-free; needs getUserMedia,
 * AudioWorklet and WebSocket (any current browser), on a secure origin (https, or http://localhost).
 *
 * ```js
 * import { VoiceClient } from '/sdk/voice-client.js';
 * const client = await VoiceClient.connect({ url: session.connect_url });
 * client.on('transcript', (line) => render(client.transcript));
 * client.on('ended', ({ reason }) => console.log('ended', reason));
 * ```
 */
export class VoiceClient {
  /** The conversation so far: the user's interim line is updated in place until it is final. */
  readonly transcript: VoiceTranscriptLine[] = [];
  /** The session's id, once the platform has said it started. */
  sessionId: string | undefined;

  private readonly listeners = new Map<keyof VoiceClientEvents, Set<(event: never) => void>>();
  private isMuted = false;
  private isEnded = false;
  /** When `typing` was last sent (0: never). */
  private typingAt = 0;

  private constructor(
    private readonly socket: WebSocket,
    /** The microphone's stream; null for a client without one (`microphone: false`). */
    private readonly stream: MediaStream | null,
    private readonly context: AudioContext,
    private readonly nodes: AudioNode[],
    private readonly playback: AudioWorkletNode,
  ) {}

  /**
   * Asks for the microphone (unless `microphone: false`), sets up the audio and opens the session's socket;
   * resolves once the platform has started the session. Call it from a user gesture (a click) so the browser
   * lets the audio start. Rejects with a VoiceClientError whose message says what to do and whose `reason` and
   * `code` say why: the microphone was refused, the platform refused the connection (an expired or used
   * connect_url, an origin the session does not allow, a full voice service, an ended session), or it could not
   * be reached.
   */
  static async connect(options: VoiceClientOptions): Promise<VoiceClient> {
    if (!options || typeof options.url !== 'string') throw new TypeError('VoiceClient.connect needs { url }');
    const audio = options.audio ?? {};
    let stream: MediaStream | null = null;
    if (options.microphone !== false) {
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          audio: {
            echoCancellation: audio.echoCancellation ?? true,
            noiseSuppression: audio.noiseSuppression ?? true,
            autoGainControl: true,
            channelCount: 1,
          },
        });
      } catch (error) {
        throw new VoiceClientError(
          `The microphone is not available (${(error as Error).message}). Allow it for this page, or connect with microphone: false and type.`,
          'microphone_unavailable',
          null,
        );
      }
    }
    let context: AudioContext | undefined;
    let socket: WebSocket | undefined;
    try {
      context = new AudioContext({ latencyHint: 'interactive' });
      const moduleUrl = URL.createObjectURL(new Blob([workletSource()], { type: 'text/javascript' }));
      try {
        await context.audioWorklet.addModule(moduleUrl);
      } finally {
        URL.revokeObjectURL(moduleUrl);
      }
      const playback = new AudioWorkletNode(context, PLAYBACK_PROCESSOR, {
        numberOfInputs: 0,
        numberOfOutputs: 1,
        outputChannelCount: [1],
        processorOptions: { rate: WIRE_RATE, prefillMs: PREFILL_MS },
      });
      playback.connect(context.destination);
      const nodes: AudioNode[] = [playback];
      let capture: AudioWorkletNode | null = null;
      if (stream) {
        const source = context.createMediaStreamSource(stream);
        capture = new AudioWorkletNode(context, CAPTURE_PROCESSOR, {
          numberOfInputs: 1,
          numberOfOutputs: 0,
          channelCount: 1,
          channelCountMode: 'explicit',
          processorOptions: { rate: WIRE_RATE, frameSamples: FRAME_SAMPLES },
        });
        source.connect(capture);
        nodes.push(source, capture);
      }
      const opened = await openSocket(options.url);
      socket = opened.socket;
      const client = new VoiceClient(socket, stream, context, nodes, playback);
      client.sessionId = opened.sessionId;
      client.attach(capture);
      if (context.state === 'suspended') await context.resume();
      return client;
    } catch (error) {
      stream?.getTracks().forEach((t) => t.stop());
      socket?.close();
      await context?.close().catch(() => undefined);
      throw error;
    }
  }

  /** Listens to an event; returns a function that stops listening. */
  on<K extends keyof VoiceClientEvents>(event: K, listener: Listener<K>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as (event: never) => void);
    return () => this.off(event, listener);
  }

  off<K extends keyof VoiceClientEvents>(event: K, listener: Listener<K>): void {
    this.listeners.get(event)?.delete(listener as (event: never) => void);
  }

  /** Whether the microphone is muted. */
  get muted(): boolean {
    return this.isMuted;
  }

  /** Whether the session is over. */
  get ended(): boolean {
    return this.isEnded;
  }

  /**
   * Mutes or unmutes the microphone (the platform is told; silence is sent meanwhile). A client without a
   * microphone stays muted.
   */
  mute(muted: boolean): void {
    if (this.isEnded || !this.stream || muted === this.isMuted) return;
    this.isMuted = muted;
    this.stream.getAudioTracks().forEach((t) => (t.enabled = !muted));
    this.send({ type: 'mute', muted });
  }

  /**
   * Says a line by typing it: the agent takes it as the user's words (it interrupts the agent, and the agent
   * answers). The line joins `transcript` (final) once the platform takes it; one it does not take (more than a
   * few a second) fires a non-fatal `error` with reason rate_limited. Throws a RangeError for an empty line or one
   * over 1000 characters, and an Error once the session is over.
   */
  sendText(text: string): void {
    if (this.isEnded) throw new Error('The voice session is over');
    const line = typedLine(text);
    if (line === null) throw new RangeError(`A typed line holds 1 to ${USER_TEXT_MAX_CHARS} characters`);
    this.send({ type: 'user_text', text: line });
  }

  /**
   * Says the user is typing a line (call it on each input of the page's text box): the agent does not ask
   * whether anyone is still there while they type. Sent at most once every 2 seconds; nothing once the session
   * is over.
   */
  typing(): void {
    if (this.isEnded) return;
    const now = Date.now();
    if (now - this.typingAt < TYPING_INTERVAL_MS) return;
    this.typingAt = now;
    this.send({ type: 'typing' });
  }

  /** Ends the session: tells the platform, then releases the microphone, the audio and the socket. */
  async end(): Promise<void> {
    if (this.isEnded) return;
    this.send({ type: 'end' });
    await this.finish('user');
  }

  private attach(capture: AudioWorkletNode | null): void {
    const socket = this.socket;
    if (capture) {
      capture.port.onmessage = (event: MessageEvent<ArrayBuffer>) => {
        if (socket.readyState === WebSocket.OPEN) socket.send(event.data);
      };
    } else {
      // No audio will come: the platform keeps the line's clock itself, as it does for a muted microphone.
      this.isMuted = true;
      this.send({ type: 'mute', muted: true });
    }
    this.playback.port.onmessage = (event: MessageEvent<{ type: string; names: string[] }>) => {
      if (event.data.type !== 'played') return;
      for (const name of event.data.names) this.send({ type: 'played', name });
    };
    socket.onmessage = (event: MessageEvent<ArrayBuffer | string>) => {
      if (typeof event.data === 'string') this.handleText(event.data);
      else if (event.data.byteLength >= 2) {
        const samples = pcm16ToFloat(event.data);
        this.playback.port.postMessage({ type: 'audio', samples }, [samples.buffer]);
      }
    };
    socket.onclose = (event: CloseEvent) => {
      const refusal = refusalError(event.code, event.reason);
      if (refusal) this.emit('error', refusal);
      void this.finish(refusal ? refusal.reason : 'connection_lost');
    };
    socket.onerror = () =>
      this.emit(
        'error',
        new VoiceClientError('The voice session connection failed', 'connection_failed', null),
      );
  }

  private handleText(text: string): void {
    const message = parseServerMessage(text);
    if (!message) return;
    switch (message.type) {
      case 'session.started':
        this.sessionId = message.session_id;
        break;
      case 'mark':
        this.playback.port.postMessage({ type: 'mark', name: message.name });
        break;
      case 'clear':
        this.playback.port.postMessage({ type: 'clear' });
        break;
      case 'transcript': {
        const line = applyTranscript(this.transcript as TranscriptLine[], message);
        this.emit('transcript', { ...line });
        break;
      }
      case 'agent.speaking':
        this.emit('agent', { speaking: message.speaking });
        break;
      case 'tool': {
        const { type: _type, ...tool } = message;
        this.emit('tool', tool);
        break;
      }
      case 'error':
        this.emit('error', new VoiceClientError(message.message || message.code, message.code, null, false));
        break;
      case 'speech':
        this.emit('speech', {
          stt: message.stt,
          tts: message.tts,
          ...(message.warning ? { warning: message.warning } : {}),
        });
        break;
      case 'session.ended':
        void this.finish(message.reason);
        break;
    }
  }

  private send(message: ClientMessage): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private async finish(reason: string): Promise<void> {
    if (this.isEnded) return;
    this.isEnded = true;
    this.stream?.getTracks().forEach((t) => t.stop());
    for (const node of this.nodes) node.disconnect();
    this.socket.onmessage = null;
    this.socket.onclose = null;
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
      this.socket.close(1000);
    }
    await this.context.close().catch(() => undefined);
    this.emit('ended', { reason });
  }

  private emit<K extends keyof VoiceClientEvents>(event: K, payload: VoiceClientEvents[K]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      try {
        (listener as Listener<K>)(payload);
      } catch (error) {
        // A listener's fault must not break the session; report it where the page will see it.
        setTimeout(() => {
          throw error;
        });
      }
    }
  }
}

/** A close that carries the platform's refusal (4000-4999, the cause as its reason), as an error; else null. */
function refusalError(code: number, reason: string): VoiceClientError | null {
  const message = describeRefusal(code, reason, location.origin);
  return message ? new VoiceClientError(message, reason || 'refused', code) : null;
}

/**
 * Opens the socket and waits for `session.started`. A refused connection is opened and closed at once with the
 * refusal's code and cause (browsers hide why a handshake failed, not why a socket closed); a handshake that
 * fails outright (no such host, a malformed URL the server will not upgrade) has no cause to tell.
 */
function openSocket(url: string): Promise<{ socket: WebSocket; sessionId: string }> {
  return new Promise((resolve, reject) => {
    let socket: WebSocket;
    try {
      socket = new WebSocket(url);
    } catch (error) {
      reject(
        new VoiceClientError(
          `The connect_url is not a WebSocket URL (${(error as Error).message})`,
          'connection_failed',
          null,
        ),
      );
      return;
    }
    socket.binaryType = 'arraybuffer';
    const settled = () => {
      clearTimeout(timer);
      socket.onopen = socket.onerror = socket.onclose = socket.onmessage = null;
    };
    const timer = setTimeout(() => {
      settled();
      socket.close();
      reject(
        new VoiceClientError(
          'The voice service did not start the session in time',
          'connection_failed',
          null,
        ),
      );
    }, START_TIMEOUT_MS);
    socket.onmessage = (event: MessageEvent<ArrayBuffer | string>) => {
      if (typeof event.data !== 'string') return;
      const message = parseServerMessage(event.data);
      if (message?.type !== 'session.started') return;
      settled();
      resolve({ socket, sessionId: message.session_id });
    };
    socket.onclose = (event: CloseEvent) => {
      settled();
      reject(
        refusalError(event.code, event.reason) ??
          new VoiceClientError(
            'Could not reach the voice service: check the network and that the connect_url is the one your server was given.',
            'connection_failed',
            event.code,
          ),
      );
    };
  });
}
