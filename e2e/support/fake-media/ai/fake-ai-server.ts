// One local server standing in for the cloud AI providers during e2e tests: OpenAI-compatible transcriptions,
// chat completions and speech, and a Deepgram-compatible live WebSocket. Each endpoint records what it was asked
// and can be told to fail mid-call.
import { IncomingMessage, ServerResponse } from 'node:http';
import { WebSocketServer } from 'ws';
import {
  ChatCompletionRequest,
  ChatScript,
  echoScript,
  handleChatCompletion,
  SCRIPTED_CHAT_MODEL,
} from '@vap/llm/testing';
import {
  DeepgramSession,
  handleListenUpgrade,
  refuseListenUpgrade as refuseUpgrade,
} from '@vap/speech/testing';
import { readBody, startFakeServer } from '@vap/testing';
import { FailureMode, FailureSwitch } from './failures';
import {
  handleSpeech,
  handleTranscription,
  sendOpenAiError,
  SpeechRequest,
  TranscriptionRequest,
} from './openai-speech';

export type FakeAiEndpoint = 'transcriptions' | 'chat' | 'speech' | 'listen';

type SttName = 'offline' | 'openai' | 'deepgram';
type TtsName = 'offline' | 'openai';

export interface FakeAiProviders {
  /** One provider, or two in fallback order (the second network one on the STT_FALLBACK_* settings). */
  stt?: SttName | `${SttName},${SttName}`;
  tts?: TtsName | `${TtsName},${TtsName}`;
  /** Whether the LLM is this fake (else the platform's offline model). */
  llm?: boolean;
}

export interface FakeAi {
  /** http://127.0.0.1:<port>: the server's origin. */
  url: string;
  /** ws://127.0.0.1:<port>: the Deepgram-compatible live socket's origin. */
  wsUrl: string;
  /**
   * `<url>/v1`: the one base every provider setting takes (LLM_BASE_URL, STT_BASE_URL, TTS_BASE_URL), as the
   * OpenAI SDK spells it; endpoints follow it (/chat/completions, /audio/speech, /listen).
   */
  baseUrl: string;
  apiKey: string;
  transcriptions: TranscriptionRequest[];
  /** Streamed chat completions: the live conversations' model rounds. */
  chats: ChatCompletionRequest[];
  /** Non-streamed completions: the calls service's post-call extraction and analysis. */
  completions: ChatCompletionRequest[];
  speeches: SpeechRequest[];
  listens: DeepgramSession[];
  /** The voice service's settings that route the chosen providers here. */
  env(providers: FakeAiProviders): Record<string, string>;
  /** Scripts the model's turns (default: echo the caller). */
  script(script: ChatScript): void;
  /**
   * After `after` more good requests (default 0), the endpoint fails the given way: `times` requests (default:
   * every one until heal()). A Deepgram session counts each final result as a request; while the live socket
   * fails, new ones are refused (503) too, as a provider that is down would.
   */
  fail(endpoint: FakeAiEndpoint, mode: FailureMode, options?: { after?: number; times?: number }): void;
  heal(endpoint?: FakeAiEndpoint): void;
  close(): Promise<void>;
}

export const FAKE_AI_MODELS = {
  stt: 'fake-whisper-1',
  tts: 'fake-tts-1',
  llm: SCRIPTED_CHAT_MODEL,
  deepgram: 'nova-2-phonecall',
};

/** Recorded call audio is posted whole for transcription: far past the shared 1 MiB default. */
const MAX_BODY_BYTES = 256 << 20;

export async function startFakeAi(apiKey = 'fake-ai-key-0001'): Promise<FakeAi> {
  const switches: Record<FakeAiEndpoint, FailureSwitch> = {
    transcriptions: new FailureSwitch(),
    chat: new FailureSwitch(),
    speech: new FailureSwitch(),
    listen: new FailureSwitch(),
  };
  const transcriptions: TranscriptionRequest[] = [];
  const chats: ChatCompletionRequest[] = [];
  const completions: ChatCompletionRequest[] = [];
  const speeches: SpeechRequest[] = [];
  const listens: DeepgramSession[] = [];
  let chatScript: ChatScript = echoScript;
  const wss = new WebSocketServer({ noServer: true });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req, MAX_BODY_BYTES);
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    if (req.method !== 'POST') return sendOpenAiError(res, 405, `${req.method} is not allowed`);
    if (path === '/v1/audio/transcriptions') {
      return handleTranscription(req, res, body, apiKey, switches.transcriptions, transcriptions);
    }
    if (path === '/v1/audio/speech') return handleSpeech(req, res, body, apiKey, switches.speech, speeches);
    if (path === '/v1/chat/completions') {
      return handleChatCompletion(req, res, body, apiKey, switches.chat, chats, completions, (r) =>
        chatScript(r),
      );
    }
    sendOpenAiError(res, 404, `Invalid URL (POST ${path})`);
  };

  const server = await startFakeServer({
    request: (req, res) =>
      handle(req, res).catch((err: Error) => {
        if (!res.headersSent) sendOpenAiError(res, 500, err.message, 'server_error');
        else res.destroy();
      }),
    upgrade: (req, socket, head, { pathname }) => {
      if (pathname !== '/v1/listen') return refuseUpgrade(socket, 400, `no WebSocket at ${pathname}`);
      if (switches.listen.failing) return refuseUpgrade(socket, 503, 'the fake is down');
      handleListenUpgrade(wss, req, socket, head, apiKey, switches.listen, listens);
    },
  });
  const { url, wsUrl } = server;

  return {
    url,
    wsUrl,
    baseUrl: `${url}/v1`,
    apiKey,
    transcriptions,
    chats,
    completions,
    speeches,
    listens,
    env: ({ stt = 'offline', tts = 'offline', llm = false }) => {
      const base = `${url}/v1`;
      const env: Record<string, string> = { STT_PROVIDER: stt, TTS_PROVIDER: tts };
      // One base for every provider, as a user sets it; Deepgram's is taken as http(s) and opened as ws(s).
      stt
        .split(',')
        .filter((name) => name !== 'offline')
        .forEach((name, i) => {
          const prefix = i === 0 ? 'STT' : 'STT_FALLBACK';
          env[`${prefix}_BASE_URL`] = base;
          env[`${prefix}_API_KEY`] = apiKey;
          env[`${prefix}_MODEL`] = name === 'deepgram' ? FAKE_AI_MODELS.deepgram : FAKE_AI_MODELS.stt;
        });
      if (tts.split(',').includes('openai')) {
        Object.assign(env, { TTS_BASE_URL: base, TTS_API_KEY: apiKey, TTS_MODEL: FAKE_AI_MODELS.tts });
      }
      if (llm) Object.assign(env, { LLM_BASE_URL: base, LLM_API_KEY: apiKey, LLM_MODEL: FAKE_AI_MODELS.llm });
      return env;
    },
    script: (script) => {
      chatScript = script;
    },
    fail: (endpoint, mode, { after = 0, times = Infinity } = {}) =>
      switches[endpoint].set(mode, after, times),
    heal: (endpoint) => {
      for (const [name, s] of Object.entries(switches)) if (!endpoint || name === endpoint) s.clear();
    },
    close: () => {
      for (const client of wss.clients) client.terminate();
      return server.close();
    },
  };
}
