// Fake Sarvam AI, for tests. Reference: Sarvam API reference (docs.sarvam.ai, 2026): Speech To Text WebSocket
// `/speech-to-text/ws` (saarika:v2.5 / saaras:v3), Text To Speech WebSocket `/text-to-speech/ws` (bulbul:v2 /
// v3), Language Identification `POST /text-lid`, authentication by the `api-subscription-key` header.
//
// - A wrong key: the HTTP request or the WebSocket upgrade is answered 403
//   `{"error":{"message":"Invalid API key...","code":"invalid_api_key_error"}}`.
// - STT: query language-code (required: a Sarvam locale or `unknown`), model, sample_rate (8000|16000),
//   input_audio_codec (pcm_s16le|pcm_l16|pcm_raw for raw PCM), vad_signals, flush_signal, high_vad_sensitivity,
//   mode. Client messages `{audio:{data: base64, sample_rate, encoding}}` and `{type:'flush'}`. With
//   vad_signals the fake sends `{type:'events', data:{signal_type:'START_SPEECH'|'END_SPEECH'}}`; a segment ends
//   after 1 s of quiet (0.5 s with high_vad_sensitivity) or at a flush, answered by one
//   `{type:'data', data:{request_id, transcript, language_code, ...}}` (no interim results, as the legacy
//   streaming API). A flush with no speech in progress is answered with nothing, or (emptyFlush: 'error') refused
//   with an error message and the socket closed.
// - Language: the language-code asked for, or with `unknown` the fake's own detection, deterministic: text
//   with Devanagari (or Tamil, Bengali... script) is that script's language; text with one of the words of
//   `hindiWords` (romanised Hindi, configurable at start) is hi-IN; anything else is en-IN.
// - TTS: query model, send_completion_event. First message `{type:'config', data:{target_language_code,
//   speaker, pace, speech_sample_rate, output_audio_codec, loudness?}}` (checked against the model's speakers
//   and ranges), then `{type:'text', data:{text}}`..., `{type:'flush'}`: the text is answered as
//   speechPcm(text, speech_sample_rate) in linear16 `{type:'audio', data:{content_type, audio}}` chunks of 100
//   ms, then `{type:'event', data:{event_type:'final'}}` when send_completion_event is on. Errors are
//   `{type:'error', data:{message, code}}`.
// - Recognition: FakeRecogniser (the offline engine's in-band words: same audio, same words).
// - Failures (FailureSwitch): each STT segment answer and each TTS flush is a request: error (an error
//   message, then the socket closes), hang (nothing more), close (dropped; TTS after its first chunk). An STT
//   stream opened while failing is refused with 503 (error), dropped (close) or never answered (hang). `idleTimeoutMs` closes STT sockets
//   that get no message for that long, as Sarvam closes idle streams.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { pcm16FromBuffer, rms } from '@vap/media';
import { readBody, sendJson, type StartedFakeServer, startFakeServer } from '@vap/testing';
import { FailureSwitch, type FailureMode } from './failure-switch';
import { FakeRecogniser, pcmBytes, refuseUpgrade, speechPcm } from './fake-provider-server';

const QUIET_RMS = 100;
const SARVAM_LOCALES = [
  'hi-IN',
  'bn-IN',
  'gu-IN',
  'kn-IN',
  'ml-IN',
  'mr-IN',
  'od-IN',
  'pa-IN',
  'ta-IN',
  'te-IN',
  'en-IN',
];
const STT_MODELS = ['saarika:v2.5', 'saaras:v3'];
const TTS_SPEAKERS: Record<string, readonly string[]> = {
  'bulbul:v2': ['anushka', 'manisha', 'vidya', 'arya', 'abhilash', 'karun', 'hitesh'],
  'bulbul:v3': [
    'shubh',
    'aditya',
    'ritu',
    'priya',
    'neha',
    'rahul',
    'pooja',
    'rohan',
    'simran',
    'kavya',
    'amit',
  ],
};
const TTS_PACE: Record<string, [number, number]> = { 'bulbul:v2': [0.3, 3], 'bulbul:v3': [0.5, 2] };
const TTS_RATES = ['8000', '16000', '22050', '24000'];
const MAX_TEXT_CHARS = 2500;
/** Script ranges the fake's language detection knows. */
const SCRIPTS: [RegExp, string][] = [
  [/[\u0900-\u097F]/, 'hi-IN'],
  [/[\u0980-\u09FF]/, 'bn-IN'],
  [/[\u0A00-\u0A7F]/, 'pa-IN'],
  [/[\u0A80-\u0AFF]/, 'gu-IN'],
  [/[\u0B80-\u0BFF]/, 'ta-IN'],
  [/[\u0C00-\u0C7F]/, 'te-IN'],
  [/[\u0C80-\u0CFF]/, 'kn-IN'],
  [/[\u0D00-\u0D7F]/, 'ml-IN'],
];
export const SARVAM_FAKE_HINDI_WORDS = [
  'namaste',
  'haan',
  'nahin',
  'kya',
  'accha',
  'theek',
  'hai',
  'mera',
  'aap',
];

export interface SarvamFakeSttStream {
  apiKey: string | undefined;
  query: Record<string, string>;
  /** Audio messages' declared sample_rate/encoding, and the bytes of audio received. */
  audioFormats: { sample_rate?: unknown; encoding?: unknown }[];
  audioBytes: number;
  /** Flush signals received, and the audio bytes received by each. */
  flushes: number[];
  /** Messages sent to the client, in order. */
  sent: Record<string, unknown>[];
  closed: boolean;
}

export interface SarvamFakeTtsStream {
  apiKey: string | undefined;
  query: Record<string, string>;
  config: Record<string, unknown> | undefined;
  texts: string[];
  flushes: number;
  /** Audio messages sent. */
  chunks: number;
  closed: boolean;
}

export interface SarvamFakeRequest {
  method: string;
  path: string;
  apiKey: string | undefined;
  body: unknown;
}

export interface SarvamFakeOptions {
  apiKey: string;
  /** Romanised words the auto-detection takes as Hindi (SARVAM_FAKE_HINDI_WORDS by default). */
  hindiWords?: readonly string[];
  /** Closes STT sockets idle this long (off by default). */
  idleTimeoutMs?: number;
  /**
   * How a flush with no speech in progress is answered: with nothing (by default), or refused with an error
   * message and the socket closed (Sarvam's reference leaves this case open; both are tested).
   */
  emptyFlush?: 'silent' | 'error';
}

const keyOf = (req: IncomingMessage) => req.headers['api-subscription-key'] as string | undefined;
const INVALID_KEY = {
  error: { message: 'Invalid API key or subscription key', code: 'invalid_api_key_error', request_id: null },
};

export class SarvamFake {
  readonly sttStreams: SarvamFakeSttStream[] = [];
  readonly ttsStreams: SarvamFakeTtsStream[] = [];
  readonly requests: SarvamFakeRequest[] = [];
  readonly failures = new FailureSwitch();
  private readonly wss = new WebSocketServer({ noServer: true });
  private server!: StartedFakeServer;
  private readonly hindiWords: Set<string>;

  private constructor(private readonly options: SarvamFakeOptions) {
    this.hindiWords = new Set((options.hindiWords ?? SARVAM_FAKE_HINDI_WORDS).map((w) => w.toLowerCase()));
  }

  static async start(options: SarvamFakeOptions): Promise<SarvamFake> {
    const fake = new SarvamFake(options);
    fake.server = await startFakeServer({
      request: (req, res, url) => fake.request(req, res, url),
      upgrade: (req, socket, head, url) => fake.upgrade(req, socket, head, url),
    });
    return fake;
  }

  /** What SPEECH_SARVAM_BASE_URL takes. */
  get baseUrl(): string {
    return this.server.url;
  }

  fail(mode: FailureMode, { after = 0, times = Infinity }: { after?: number; times?: number } = {}): void {
    this.failures.set(mode, after, times);
  }

  heal(): void {
    this.failures.clear();
  }

  async close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    await this.server.close();
  }

  /** The fake's language detection for `unknown` (see the header). */
  detectLanguage(text: string): string {
    for (const [script, locale] of SCRIPTS) if (script.test(text)) return locale;
    const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
    return words.some((w) => this.hindiWords.has(w)) ? 'hi-IN' : 'en-IN';
  }

  private async request(
    req: IncomingMessage,
    res: import('node:http').ServerResponse,
    url: URL,
  ): Promise<void> {
    const raw = req.method === 'POST' ? await readBody(req, 64 * 1024) : Buffer.alloc(0);
    let body: unknown;
    try {
      body = raw.length ? JSON.parse(raw.toString()) : undefined;
    } catch {
      return sendJson(res, 400, { error: { message: 'Invalid JSON body', code: 'invalid_request_error' } });
    }
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, apiKey: keyOf(req), body });
    if (keyOf(req) !== this.options.apiKey) return sendJson(res, 403, INVALID_KEY);
    if (req.method === 'POST' && url.pathname === '/text-lid') {
      const input = (body as { input?: unknown } | undefined)?.input;
      if (typeof input !== 'string' || !input) {
        return sendJson(res, 400, { error: { message: 'input is required', code: 'invalid_request_error' } });
      }
      return sendJson(res, 200, {
        request_id: randomUUID(),
        language_code: this.detectLanguage(input),
        script_code: /[\u0900-\u097F]/.test(input) ? 'Deva' : 'Latn',
      });
    }
    sendJson(res, 404, { error: { message: 'Not found', code: 'not_found_error' } });
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): void {
    const stt = url.pathname === '/speech-to-text/ws';
    if (!stt && url.pathname !== '/text-to-speech/ws') return void socket.destroy();
    if (keyOf(req) !== this.options.apiKey) return refuseUpgrade(socket, 403, INVALID_KEY);
    const query = Object.fromEntries(url.searchParams);
    const problem = stt ? sttQueryProblem(query) : ttsQueryProblem(query);
    if (problem)
      return refuseUpgrade(socket, 400, { error: { message: problem, code: 'invalid_request_error' } });
    // A TTS socket carries one synthesis: its flush is the request that fails. An STT stream lives for the whole
    // call, so a provider that is down refuses new ones.
    if (stt && this.failures.failing) {
      const failure = this.failures.next();
      if (failure === 'error') {
        return refuseUpgrade(socket, 503, {
          error: { message: 'Service unavailable', code: 'internal_server_error' },
        });
      }
      if (failure === 'close') return void socket.destroy();
      return; // hang: the upgrade is never answered
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      if (stt) {
        const stream: SarvamFakeSttStream = {
          apiKey: keyOf(req),
          query,
          audioFormats: [],
          audioBytes: 0,
          flushes: [],
          sent: [],
          closed: false,
        };
        this.sttStreams.push(stream);
        ws.on('close', () => (stream.closed = true));
        new FakeSttSession(ws, stream, this.failures, (text) => this.detectLanguage(text), this.options);
      } else {
        const stream: SarvamFakeTtsStream = {
          apiKey: keyOf(req),
          query,
          config: undefined,
          texts: [],
          flushes: 0,
          chunks: 0,
          closed: false,
        };
        this.ttsStreams.push(stream);
        ws.on('close', () => (stream.closed = true));
        new FakeTtsSession(ws, stream, this.failures);
      }
    });
  }
}

function sttQueryProblem(query: Record<string, string>): string | undefined {
  const language = query['language-code'];
  if (!language) return 'language-code is required';
  if (language !== 'unknown' && !SARVAM_LOCALES.includes(language))
    return `language-code ${language} is not supported`;
  if (query.model && !STT_MODELS.includes(query.model)) return `model ${query.model} is not supported`;
  if (query.sample_rate && !['8000', '16000'].includes(query.sample_rate))
    return 'sample_rate must be 8000 or 16000';
  if (!['pcm_s16le', 'pcm_l16', 'pcm_raw'].includes(query.input_audio_codec ?? '')) {
    return 'the fake takes raw PCM only: input_audio_codec must be pcm_s16le, pcm_l16 or pcm_raw';
  }
  if (query.mode && query.model !== 'saaras:v3' && query.model !== undefined) {
    return 'mode is only applicable with saaras:v3';
  }
  return undefined;
}

function ttsQueryProblem(query: Record<string, string>): string | undefined {
  if (query.model && !TTS_SPEAKERS[query.model]) return `model ${query.model} is not supported`;
  return undefined;
}

class FakeSttSession {
  private readonly sampleRate: number;
  private readonly recogniser: FakeRecogniser;
  private readonly endSilenceMs: number;
  private pending: string[] = [];
  private inSpeech = false;
  private quietMs = 0;
  private audioMs = 0;
  private hung = false;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly stream: SarvamFakeSttStream,
    private readonly failures: FailureSwitch,
    private readonly detect: (text: string) => string,
    private readonly options: SarvamFakeOptions,
  ) {
    this.sampleRate = Number(stream.query.sample_rate ?? 16000);
    this.recogniser = new FakeRecogniser(this.sampleRate);
    this.endSilenceMs = stream.query.high_vad_sensitivity === 'true' ? 500 : 1000;
    this.touch();
    ws.on('message', (data, isBinary) => {
      this.touch();
      if (isBinary) return this.error('binary frames are not accepted: send JSON', 'invalid_request_error');
      let message: { type?: string; audio?: { data?: unknown; sample_rate?: unknown; encoding?: unknown } };
      try {
        message = JSON.parse(data.toString()) as typeof message;
      } catch {
        return this.error('Invalid JSON', 'invalid_request_error');
      }
      if (message.type === 'flush') return this.flush();
      if (!message.audio || typeof message.audio.data !== 'string') {
        return this.error('audio must not be None', 'invalid_request_error');
      }
      this.stream.audioFormats.push({
        sample_rate: message.audio.sample_rate,
        encoding: message.audio.encoding,
      });
      this.onAudio(Buffer.from(message.audio.data, 'base64'));
    });
    ws.on('close', () => clearTimeout(this.idle));
  }

  private touch(): void {
    if (!this.options.idleTimeoutMs) return;
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.ws.close(1000, 'idle timeout'), this.options.idleTimeoutMs);
  }

  private send(message: Record<string, unknown>): void {
    if (this.hung || this.ws.readyState !== WebSocket.OPEN) return;
    this.stream.sent.push(message);
    this.ws.send(JSON.stringify(message));
  }

  private error(message: string, code: string): void {
    this.send({ type: 'error', data: { message, code } });
    this.ws.close(1011, message.slice(0, 100));
  }

  private signal(type: 'START_SPEECH' | 'END_SPEECH'): void {
    if (this.stream.query.vad_signals !== 'true') return;
    this.send({
      type: 'events',
      data: { event_type: 'vad', signal_type: type, occured_at: Date.now() / 1000 },
    });
  }

  private onAudio(bytes: Buffer): void {
    this.stream.audioBytes += bytes.length;
    const pcm = pcm16FromBuffer(bytes);
    const ms = (pcm.length / this.sampleRate) * 1000;
    this.audioMs += ms;
    for (const text of this.recogniser.push(pcm)) this.pending.push(text);
    if (rms(pcm) >= QUIET_RMS) {
      this.quietMs = 0;
      if (!this.inSpeech) {
        this.inSpeech = true;
        this.signal('START_SPEECH');
      }
    } else if (this.inSpeech) {
      this.quietMs += ms;
      if (this.quietMs >= this.endSilenceMs) {
        this.signal('END_SPEECH');
        this.answer();
      }
    }
  }

  private flush(): void {
    this.stream.flushes.push(this.stream.audioBytes);
    if (this.stream.query.flush_signal !== 'true') return;
    if (this.inSpeech || this.pending.length) this.answer();
    else if (this.options.emptyFlush === 'error') this.error('No audio to flush', 'invalid_request_error');
  }

  /** Ends the segment: its transcript (and language) in one data message. */
  private answer(): void {
    const failure = this.failures.next();
    if (failure === 'hang') {
      this.hung = true;
      return;
    }
    if (failure === 'close') return void this.ws.terminate();
    if (failure === 'error') return this.error('Internal server error', 'internal_server_error');
    const transcript = this.pending.join(' ');
    const asked = this.stream.query['language-code'];
    this.pending = [];
    this.inSpeech = false;
    this.quietMs = 0;
    this.send({
      type: 'data',
      data: {
        request_id: randomUUID(),
        transcript,
        language_code: asked === 'unknown' ? this.detect(transcript) : asked,
        language_probability: 0.97,
        timestamps: null,
        diarized_transcript: null,
        metrics: { audio_duration: this.audioMs / 1000, processing_latency: 0.05 },
      },
    });
  }
}

class FakeTtsSession {
  private text = '';
  private hung = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly stream: SarvamFakeTtsStream,
    private readonly failures: FailureSwitch,
  ) {
    ws.on('message', (data) => void this.onMessage(data.toString()));
  }

  private send(message: Record<string, unknown>): void {
    if (this.hung || this.ws.readyState !== WebSocket.OPEN) return;
    this.ws.send(JSON.stringify(message));
  }

  private error(message: string, code = 400): void {
    this.send({ type: 'error', data: { message, code } });
    this.ws.close(1011, message.slice(0, 100));
  }

  private async onMessage(raw: string): Promise<void> {
    let message: { type?: string; data?: Record<string, unknown> };
    try {
      message = JSON.parse(raw) as typeof message;
    } catch {
      return this.error('Invalid JSON');
    }
    if (message.type === 'config') {
      const problem = this.configProblem(message.data ?? {});
      if (problem) return this.error(problem);
      this.stream.config = message.data;
      return;
    }
    if (message.type === 'ping') return;
    if (!this.stream.config) return this.error('Send a config message first');
    if (message.type === 'text') {
      const text = message.data?.text;
      if (typeof text !== 'string' || text.length > MAX_TEXT_CHARS)
        return this.error('text must be 1-2500 characters');
      this.stream.texts.push(text);
      this.text = this.text ? `${this.text} ${text}` : text;
      return;
    }
    if (message.type === 'flush') return this.flush();
    return this.error(`Unknown message type: ${String(message.type)}`);
  }

  private configProblem(config: Record<string, unknown>): string | undefined {
    const model = this.stream.query.model ?? 'bulbul:v2';
    if (!SARVAM_LOCALES.includes(String(config.target_language_code)))
      return 'target_language_code is not supported';
    if (!TTS_SPEAKERS[model].includes(String(config.speaker))) {
      return `speaker ${String(config.speaker)} is not compatible with model ${model}`;
    }
    const [low, high] = TTS_PACE[model];
    if (
      config.pace !== undefined &&
      (typeof config.pace !== 'number' || config.pace < low || config.pace > high)
    ) {
      return `pace must be between ${low} and ${high}`;
    }
    if (config.loudness !== undefined && model !== 'bulbul:v2')
      return 'loudness is not supported by this model';
    if (config.speech_sample_rate !== undefined && !TTS_RATES.includes(String(config.speech_sample_rate))) {
      return 'speech_sample_rate is not supported';
    }
    if ((config.output_audio_codec ?? 'linear16') !== 'linear16') return 'the fake answers linear16 only';
    return undefined;
  }

  private async flush(): Promise<void> {
    this.stream.flushes++;
    const text = this.text.trim();
    this.text = '';
    if (!text) return;
    const failure = this.failures.next();
    if (failure === 'hang') {
      this.hung = true;
      return;
    }
    if (failure === 'error') return this.error('Internal server error', 500);
    const rate = Number(this.stream.config?.speech_sample_rate ?? 22050);
    const bytes = pcmBytes(await speechPcm(text, rate));
    const chunk = (rate / 10) * 2;
    for (let at = 0; at < bytes.length; at += chunk) {
      if (this.ws.readyState !== WebSocket.OPEN) return;
      // close: the synthesis starts, then the connection drops.
      if (failure === 'close' && at > 0) return void this.ws.terminate();
      this.stream.chunks++;
      this.send({
        type: 'audio',
        data: { content_type: 'audio/L16', audio: bytes.subarray(at, at + chunk).toString('base64') },
      });
      // Chunks arrive spread out, as synthesis streams.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (this.stream.query.send_completion_event === 'true')
      this.send({ type: 'event', data: { event_type: 'final' } });
  }
}
