import { pcm16ToFloat } from '../dsp';
import { applyTranscript, ClientMessage, parseServerMessage, TranscriptLine } from '../protocol';
import type { VoiceClientEvents, VoiceClientOptions, VoiceTranscriptLine } from '../types';
import { CAPTURE_PROCESSOR, PLAYBACK_PROCESSOR, workletSource } from './worklet';

/** The wire's audio: PCM16 little-endian mono at 16 kHz, 20 ms frames. */
const WIRE_RATE = 16000;
const FRAME_SAMPLES = 320;
/** Agent audio buffered before playback starts (and after it ran dry): absorbs network jitter. */
const PREFILL_MS = 60;

type Listener<K extends keyof VoiceClientEvents> = (event: VoiceClientEvents[K]) => void;

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

  private constructor(
    private readonly socket: WebSocket,
    private readonly stream: MediaStream,
    private readonly context: AudioContext,
    private readonly nodes: AudioNode[],
    private readonly playback: AudioWorkletNode,
  ) {}

  /**
   * Asks for the microphone, sets up the audio and opens the session's socket. Call it from a user gesture
   * (a click) so the browser lets the audio start. Rejects when the microphone is refused or the socket
   * cannot open (an expired or used token, an origin the session does not allow).
   */
  static async connect(options: VoiceClientOptions): Promise<VoiceClient> {
    if (!options || typeof options.url !== 'string') throw new TypeError('VoiceClient.connect needs { url }');
    const audio = options.audio ?? {};
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: {
        echoCancellation: audio.echoCancellation ?? true,
        noiseSuppression: audio.noiseSuppression ?? true,
        autoGainControl: true,
        channelCount: 1,
      },
    });
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
      const source = context.createMediaStreamSource(stream);
      const capture = new AudioWorkletNode(context, CAPTURE_PROCESSOR, {
        numberOfInputs: 1,
        numberOfOutputs: 0,
        channelCount: 1,
        channelCountMode: 'explicit',
        processorOptions: { rate: WIRE_RATE, frameSamples: FRAME_SAMPLES },
      });
      const playback = new AudioWorkletNode(context, PLAYBACK_PROCESSOR, {
        numberOfInputs: 0,
        numberOfOutputs: 1,
        outputChannelCount: [1],
        processorOptions: { rate: WIRE_RATE, prefillMs: PREFILL_MS },
      });
      source.connect(capture);
      playback.connect(context.destination);
      socket = await openSocket(options.url);
      const client = new VoiceClient(socket, stream, context, [source, capture, playback], playback);
      client.attach(capture);
      if (context.state === 'suspended') await context.resume();
      return client;
    } catch (error) {
      stream.getTracks().forEach((t) => t.stop());
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

  /** Mutes or unmutes the microphone (the platform is told; silence is sent meanwhile). */
  mute(muted: boolean): void {
    if (this.isEnded || muted === this.isMuted) return;
    this.isMuted = muted;
    this.stream.getAudioTracks().forEach((t) => (t.enabled = !muted));
    this.send({ type: 'mute', muted });
  }

  /** Ends the session: tells the platform, then releases the microphone, the audio and the socket. */
  async end(): Promise<void> {
    if (this.isEnded) return;
    this.send({ type: 'end' });
    await this.finish('user');
  }

  private attach(capture: AudioWorkletNode): void {
    const socket = this.socket;
    capture.port.onmessage = (event: MessageEvent<ArrayBuffer>) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(event.data);
    };
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
    socket.onclose = () => void this.finish('connection_lost');
    socket.onerror = () => this.emit('error', new Error('The voice session connection failed'));
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
      case 'tool':
        this.emit('tool', { name: message.name, status: message.status });
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
    this.stream.getTracks().forEach((t) => t.stop());
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

function openSocket(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.binaryType = 'arraybuffer';
    socket.onopen = () => {
      socket.onopen = socket.onerror = socket.onclose = null;
      resolve(socket);
    };
    // Browsers do not tell why a handshake was refused (token, origin, capacity): one message for all.
    socket.onerror = socket.onclose = () =>
      reject(new Error('Could not open the voice session (expired or used token, or origin not allowed)'));
  });
}
