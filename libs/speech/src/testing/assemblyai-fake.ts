// Fake AssemblyAI, for tests. Reference: AssemblyAI Universal-Streaming v3 (streaming API reference and message
// sequence, assemblyai-api-spec as of March 2026; the Node SDK 4.27.0's StreamingTranscriber) and the v2 REST
// API for the key check.
//
// - GET /v2/transcript?limit=1 (Authorization: <key>): 200 with an empty page, 401 for another key.
// - WebSocket /v3/ws?sample_rate&encoding&format_turns&speech_model&keyterms_prompt=<JSON array>&
//   end_of_turn_confidence_threshold&min_turn_silence, `Authorization: <key>`. The real service streams on
//   streaming.assemblyai.com and serves REST on api.assemblyai.com; this fake serves both on one origin.
//   A wrong key: the socket opens and closes with 1008 "Unauthorized Connection: ..." before Begin, as the
//   service documents. A bad query (no speech_model, a sample rate or encoding it lacks, keyterms that are not
//   a JSON array of strings): closed with 3006 and the reason (the fake's choice of code).
// - Server: Begin; Turn messages: partials (end_of_turn false) as words are recognised, then the end of the
//   turn, raw (lower case, no punctuation, turn_is_formatted false) and, with format_turns, formatted (the
//   words as spoken); Termination after Terminate. A turn ends after min_turn_silence ms (400 by default) of
//   quiet audio, or at once on ForceEndpoint (nothing is sent when the turn has no words).
// - Client audio: binary PCM16 of 50 to 1000 ms per message, else closed with 3007 "Input duration violation".
// - Recognition: FakeRecogniser (the offline engine's in-band words: same audio, same words).
// - Failures (FailureSwitch): a stream opened while failing gets no Begin (hang), is dropped (close) or is
//   closed with 3005 (error); each end of turn counts as one request and fails the same ways.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { pcm16FromBuffer, rms } from '@vap/media';
import { sendJson, type StartedFakeServer, startFakeServer } from '@vap/testing';
import { FailureSwitch, type FailureMode } from './failure-switch';
import { FakeRecogniser } from './fake-provider-server';

/** RMS under which audio counts as quiet for the fake's end of turn. */
const QUIET_RMS = 100;
const DEFAULT_MIN_TURN_SILENCE_MS = 400;

/** What one streaming session was asked and answered. */
export interface AssemblyAiFakeStream {
  authorization: string | undefined;
  query: Record<string, string>;
  /** keyterms_prompt, parsed. */
  keyterms: string[];
  speechModel: string | undefined;
  /** Text messages from the client (ForceEndpoint, Terminate, UpdateConfiguration), parsed. */
  controls: Record<string, unknown>[];
  /** Messages sent to the client, in order. */
  sent: Record<string, unknown>[];
  audioBytes: number;
  /** Audio bytes received when each control arrived. */
  audioAtControl: number[];
  terminated: boolean;
  closed: boolean;
}

export interface AssemblyAiFakeRequest {
  method: string;
  path: string;
  authorization: string | undefined;
}

export class AssemblyAiFake {
  readonly streams: AssemblyAiFakeStream[] = [];
  readonly requests: AssemblyAiFakeRequest[] = [];
  readonly failures = new FailureSwitch();
  private readonly wss = new WebSocketServer({ noServer: true });
  private server!: StartedFakeServer;

  private constructor(private readonly apiKey: string) {}

  static async start({ apiKey }: { apiKey: string }): Promise<AssemblyAiFake> {
    const fake = new AssemblyAiFake(apiKey);
    fake.server = await startFakeServer({
      request: (req, res, url) => {
        fake.requests.push({
          method: req.method ?? 'GET',
          path: url.pathname,
          authorization: req.headers.authorization,
        });
        if (req.method === 'GET' && url.pathname === '/v2/transcript') {
          if (req.headers.authorization !== apiKey) {
            return sendJson(res, 401, { error: 'Authentication error, API token missing/invalid' });
          }
          return sendJson(res, 200, {
            page_details: {
              limit: 1,
              result_count: 0,
              current_url: url.href,
              prev_url: null,
              next_url: null,
            },
            transcripts: [],
          });
        }
        sendJson(res, 404, { error: 'Not found' });
      },
      upgrade: (req, socket, head, url) => fake.upgrade(req, socket, head, url),
    });
    return fake;
  }

  /** What SPEECH_ASSEMBLYAI_BASE_URL takes: REST and streaming on this one origin. */
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

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): void {
    if (url.pathname !== '/v3/ws') return void socket.destroy();
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const query = Object.fromEntries(url.searchParams);
      const stream: AssemblyAiFakeStream = {
        authorization: req.headers.authorization,
        query,
        keyterms: [],
        speechModel: query.speech_model,
        controls: [],
        sent: [],
        audioBytes: 0,
        audioAtControl: [],
        terminated: false,
        closed: false,
      };
      this.streams.push(stream);
      ws.on('close', () => (stream.closed = true));
      if (req.headers.authorization !== this.apiKey) {
        return ws.close(1008, 'Unauthorized Connection: Invalid API key');
      }
      const problem = queryProblem(query);
      if (problem) return ws.close(3006, problem);
      stream.keyterms = query.keyterms_prompt ? (JSON.parse(query.keyterms_prompt) as string[]) : [];
      if (this.failures.failing) {
        const failure = this.failures.next();
        if (failure === 'close') return ws.terminate();
        if (failure === 'error') return ws.close(3005, 'Session Cancelled: An error occurred');
        return; // hang: never Begin
      }
      new FakeStreamingSession(ws, stream, this.failures).begin();
    });
  }
}

function queryProblem(query: Record<string, string>): string | undefined {
  if (!query.speech_model) return 'Invalid query: speech_model is required';
  if (!/^\d+$/.test(query.sample_rate ?? '')) return 'Invalid query: sample_rate must be a positive integer';
  if (query.encoding && !['pcm_s16le', 'pcm_mulaw'].includes(query.encoding)) {
    return `Invalid query: encoding ${query.encoding}`;
  }
  if (query.encoding === 'pcm_mulaw') return 'Invalid query: the fake serves pcm_s16le only';
  if (query.keyterms_prompt !== undefined) {
    try {
      const terms: unknown = JSON.parse(query.keyterms_prompt);
      if (!Array.isArray(terms) || terms.some((t) => typeof t !== 'string')) throw new Error('not strings');
    } catch {
      return 'Invalid query: keyterms_prompt must be a JSON array of strings';
    }
  }
  return undefined;
}

/** Lower case, no punctuation: how a turn's end reads before formatting. */
function unformatted(text: string): string {
  return text
    .toLowerCase()
    .replace(/[.,!?;:"]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

class FakeStreamingSession {
  private readonly sampleRate: number;
  private readonly recogniser: FakeRecogniser;
  private readonly minTurnSilenceMs: number;
  private readonly formatTurns: boolean;
  private readonly startedAt = Date.now();
  /** The current turn's words (as spoken), the audio time, and how long it has been quiet. */
  private words: string[] = [];
  private turnOrder = 0;
  private audioMs = 0;
  private quietMs = 0;
  private hung = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly stream: AssemblyAiFakeStream,
    private readonly failures: FailureSwitch,
  ) {
    this.sampleRate = Number(stream.query.sample_rate);
    this.recogniser = new FakeRecogniser(this.sampleRate);
    const silence = Number(
      stream.query.min_turn_silence ?? stream.query.min_end_of_turn_silence_when_confident,
    );
    this.minTurnSilenceMs = Number.isFinite(silence) ? silence : DEFAULT_MIN_TURN_SILENCE_MS;
    this.formatTurns = stream.query.format_turns === 'true';
  }

  begin(): void {
    this.send({ type: 'Begin', id: randomUUID(), expires_at: Math.floor(Date.now() / 1000) + 3 * 3600 });
    this.ws.on('message', (data, isBinary) => {
      const bytes = Buffer.isBuffer(data) ? data : Buffer.concat(data as Buffer[]);
      if (isBinary) this.onAudio(bytes);
      else this.onControl(bytes.toString());
    });
  }

  private send(message: Record<string, unknown>): void {
    if (this.hung || this.ws.readyState !== WebSocket.OPEN) return;
    this.stream.sent.push(message);
    this.ws.send(JSON.stringify(message));
  }

  private onAudio(bytes: Buffer): void {
    const ms = (bytes.length / 2 / this.sampleRate) * 1000;
    if (ms < 49.9 || ms > 1000) {
      return this.ws.close(
        3007,
        `Input duration violation: ${ms.toFixed(0)} ms. Expected between 50 and 1000 ms`,
      );
    }
    this.stream.audioBytes += bytes.length;
    const pcm = pcm16FromBuffer(bytes);
    this.audioMs += ms;
    for (const text of this.recogniser.push(pcm)) {
      this.words.push(...text.split(/\s+/).filter(Boolean));
      this.partials();
    }
    this.quietMs = rms(pcm) < QUIET_RMS ? this.quietMs + ms : 0;
    if (this.words.length && this.quietMs >= this.minTurnSilenceMs) this.endTurn();
  }

  /** Partial turns: the words finalised so far grow, the last one still being worked on. */
  private partials(): void {
    const raw = unformatted(this.words.join(' ')).split(' ');
    const half = Math.max(1, Math.ceil(raw.length / 2));
    this.send(this.turn(raw.slice(0, half), false, false));
    if (half < raw.length) this.send(this.turn(raw, false, false));
  }

  private turn(words: string[], endOfTurn: boolean, formatted: boolean): Record<string, unknown> {
    const transcript = words.join(' ');
    return {
      type: 'Turn',
      turn_order: this.turnOrder,
      turn_is_formatted: formatted,
      end_of_turn: endOfTurn,
      transcript: endOfTurn ? transcript : words.slice(0, -1).join(' '),
      end_of_turn_confidence: endOfTurn ? 0.9 : 0.01,
      words: words.map((text, i) => ({
        start: Math.round(this.audioMs - 300),
        end: Math.round(this.audioMs),
        confidence: 0.99,
        text,
        word_is_final: endOfTurn || i < words.length - 1,
      })),
      utterance: endOfTurn ? transcript : '',
    };
  }

  private endTurn(): void {
    const failure = this.failures.next();
    if (failure === 'hang') {
      this.hung = true;
      return;
    }
    if (failure === 'close') return void this.ws.terminate();
    if (failure === 'error') return void this.ws.close(3005, 'Session Cancelled: An error occurred');
    const spoken = this.words.join(' ');
    this.words = [];
    this.quietMs = 0;
    this.send(this.turn(unformatted(spoken).split(' '), true, false));
    if (this.formatTurns) this.send(this.turn(spoken.split(' '), true, true));
    this.turnOrder++;
  }

  private onControl(raw: string): void {
    let control: Record<string, unknown>;
    try {
      control = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return void this.ws.close(3006, `Invalid JSON: ${raw.slice(0, 100)}`);
    }
    this.stream.controls.push(control);
    this.stream.audioAtControl.push(this.stream.audioBytes);
    switch (control.type) {
      case 'ForceEndpoint':
        if (this.words.length) this.endTurn();
        return;
      case 'UpdateConfiguration':
        return;
      case 'Terminate':
        this.stream.terminated = true;
        this.send({
          type: 'Termination',
          audio_duration_seconds: Math.round(this.audioMs / 1000),
          session_duration_seconds: Math.round((Date.now() - this.startedAt) / 1000),
        });
        return void this.ws.close(1000);
      default:
        return void this.ws.close(3006, `Invalid Message Type: ${String(control.type)}`);
    }
  }
}
