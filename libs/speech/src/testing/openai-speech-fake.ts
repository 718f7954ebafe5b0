// A fake of OpenAI's speech API as its reference documents it (API reference "Create speech" and "Create
// transcription", read 2026-11), keyed by `Authorization: Bearer <key>`:
// - POST /v1/audio/speech with a JSON body (model, input, voice, response_format, speed); `pcm` answers raw 24 kHz
//   16-bit little-endian mono, streamed chunked.
// - POST /v1/audio/transcriptions, multipart (file, model, language, prompt): a WAV's words as `{text}`, read by
//   the fake recogniser (the offline engine's in-band words).
// - GET /v1/models answers a good key (the key check). Errors are OpenAI's `{error: {message, type, code}}`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodePcm16Wav } from '@vap/media';
import { readBody, sendJson, type StartedFakeServer, startFakeServer } from '@vap/testing';
import { FailureSwitch, type FailureMode } from './failure-switch';
import { FakeRecogniser, pcmBytes, speechPcm } from './fake-provider-server';
import {
  DEFAULT_PACING,
  keyMatches,
  newProgress,
  streamInChunks,
  type StreamPacing,
  type StreamProgress,
} from './streamed-answer';

/** OpenAI's `pcm` response format. */
const PCM_SAMPLE_RATE = 24000;
const MAX_INPUT_CHARS = 4096;

/** What one transcription request carried. */
export interface OpenAiTranscriptionRequest {
  authorization: string | undefined;
  fields: Record<string, string>;
  sampleRate: number | undefined;
  text: string;
  status: number;
}

export interface OpenAiSpeechRequest extends StreamProgress {
  authorization: string | undefined;
  body: Record<string, unknown>;
  status: number;
}

function sendOpenAiError(res: ServerResponse, status: number, message: string, type: string): void {
  sendJson(res, status, { error: { message, type, code: null } });
}

export class OpenAiSpeechFake {
  readonly requests: OpenAiSpeechRequest[] = [];
  readonly transcriptions: OpenAiTranscriptionRequest[] = [];
  private readonly failures = new FailureSwitch();

  private constructor(
    private readonly server: StartedFakeServer,
    private readonly apiKey: string,
    private readonly pacing: StreamPacing,
    private readonly transcriptionDelayMs: number,
  ) {}

  static async start({
    apiKey,
    pacing,
    transcriptionDelayMs = 0,
  }: {
    apiKey: string;
    pacing?: Partial<StreamPacing>;
    /** How long a transcription takes to answer. */
    transcriptionDelayMs?: number;
  }): Promise<OpenAiSpeechFake> {
    const ref: { fake?: OpenAiSpeechFake } = {};
    const server = await startFakeServer({ request: (req, res, url) => ref.fake!.handle(req, res, url) });
    ref.fake = new OpenAiSpeechFake(server, apiKey, { ...DEFAULT_PACING, ...pacing }, transcriptionDelayMs);
    return ref.fake;
  }

  /** What SPEECH_OPENAI_BASE_URL takes: the API base with its /v1. */
  get baseUrl(): string {
    return `${this.server.url}/v1`;
  }

  fail(mode: FailureMode, { after = 0, times = Infinity }: { after?: number; times?: number } = {}): void {
    this.failures.set(mode, after, times);
  }

  close(): Promise<void> {
    return this.server.close();
  }

  private async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const header = req.headers.authorization ?? '';
    const authorized =
      header.startsWith('Bearer ') && keyMatches(header.slice('Bearer '.length), this.apiKey);
    const path = url.pathname.replace(/\/+$/, '');
    if (path === '/v1/models' && req.method === 'GET') {
      if (!authorized) return sendOpenAiError(res, 401, 'Incorrect API key provided', 'invalid_api_key');
      return sendJson(res, 200, { object: 'list', data: [{ id: 'gpt-4o-mini-tts', object: 'model' }] });
    }
    if (path === '/v1/audio/transcriptions' && req.method === 'POST')
      return this.transcribe(req, res, authorized);
    if (path !== '/v1/audio/speech' || req.method !== 'POST') {
      return sendOpenAiError(res, 404, `Invalid URL (${req.method} ${path})`, 'invalid_request_error');
    }
    const seen: OpenAiSpeechRequest = {
      authorization: req.headers.authorization,
      body: {},
      status: 200,
      ...newProgress(),
    };
    this.requests.push(seen);
    const refuse = (status: number, message: string, type = 'invalid_request_error') => {
      seen.status = status;
      sendOpenAiError(res, status, message, type);
    };
    if (!authorized) return refuse(401, 'Incorrect API key provided', 'invalid_api_key');
    try {
      seen.body = JSON.parse((await readBody(req)).toString('utf8')) as Record<string, unknown>;
    } catch {
      return refuse(400, 'We could not parse the JSON body of your request.');
    }
    const { input, voice, model, response_format: format } = seen.body;
    if (typeof model !== 'string' || !model) return refuse(400, "'model' is a required property");
    if (typeof voice !== 'string' || !voice) return refuse(400, "'voice' is a required property");
    if (typeof input !== 'string' || !input || input.length > MAX_INPUT_CHARS) {
      return refuse(400, `'input' must be 1-${MAX_INPUT_CHARS} characters`);
    }
    if (format !== 'pcm') return refuse(400, 'The fake answers response_format pcm only');
    const failure = this.failures.next();
    if (failure === 'hang') return;
    if (failure === 'error')
      return refuse(500, 'The server had an error while processing your request.', 'server_error');
    res.writeHead(200, { 'content-type': 'audio/pcm', 'transfer-encoding': 'chunked' });
    const audio = pcmBytes(await speechPcm(input, PCM_SAMPLE_RATE));
    await streamInChunks(req, res, audio, this.pacing, seen, failure === 'close');
  }

  private async transcribe(req: IncomingMessage, res: ServerResponse, authorized: boolean): Promise<void> {
    const seen: OpenAiTranscriptionRequest = {
      authorization: req.headers.authorization,
      fields: {},
      sampleRate: undefined,
      text: '',
      status: 200,
    };
    this.transcriptions.push(seen);
    const refuse = (status: number, message: string, type = 'invalid_request_error') => {
      seen.status = status;
      sendOpenAiError(res, status, message, type);
    };
    if (!authorized) return refuse(401, 'Incorrect API key provided', 'invalid_api_key');
    let form: FormData;
    try {
      const body = await readBody(req, 25 << 20);
      form = await new Response(body, {
        headers: { 'content-type': req.headers['content-type'] ?? '' },
      }).formData();
    } catch {
      return refuse(400, 'Could not parse multipart form');
    }
    const file = form.get('file');
    for (const [name, value] of form) if (typeof value === 'string') seen.fields[name] = value;
    if (!seen.fields.model) return refuse(400, "'model' is a required property");
    if (!file || typeof file === 'string') return refuse(400, "'file' is a required property");
    let clip;
    try {
      clip = decodePcm16Wav(new Uint8Array(await file.arrayBuffer()));
    } catch {
      return refuse(400, 'The fake takes PCM16 mono WAV files only');
    }
    seen.sampleRate = clip.sampleRate;
    seen.text = new FakeRecogniser(clip.sampleRate).push(clip.samples).join(' ');
    if (this.transcriptionDelayMs) await sleep(this.transcriptionDelayMs);
    if (res.destroyed) return;
    sendJson(res, 200, { text: seen.text });
  }
}
