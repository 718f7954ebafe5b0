// A language model scripted by the test's rules, for the voice specs (integration and e2e): OpenAI-compatible
// POST /chat/completions with `stream: true` answers server-sent `chat.completion.chunk` events, text word by word,
// tool calls with their JSON arguments split over several chunks, then `data: [DONE]`. Where FakeChatServer
// answers a queue of replies, this one answers each request by a rule on what it holds (the caller's last words,
// the tools offered), so a conversation whose turns come in any order stays deterministic.
import { randomBytes } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, startFakeServer } from '@vap/testing';

export interface ChatMessageIn {
  role: string;
  content?: string | null;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export interface ChatCompletionRequest {
  authorization: string | undefined;
  model: unknown;
  stream: unknown;
  messages: ChatMessageIn[];
  tools: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  toolChoice: unknown;
  body: Record<string, unknown>;
  failed: boolean;
}

export interface ScriptedToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** One assistant turn: text (streamed word by word), tool calls, and how slow the model is. */
export interface ScriptedTurn {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Wait before the first chunk (e.g. to make a tool acknowledgement or a barge-in window). */
  firstTokenDelayMs?: number;
  /** Wait between chunks. */
  chunkDelayMs?: number;
}

export type ChatScript = (request: ChatCompletionRequest) => ScriptedTurn;

/** The last user message's text. */
export function lastUserText(request: ChatCompletionRequest): string {
  return [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
}

/** The default model: echoes the caller; after a tool result, says it is done. */
export const echoScript: ChatScript = (request) => {
  const last = request.messages[request.messages.length - 1];
  if (last?.role === 'tool') return { text: 'All done.' };
  return { text: `You said ${lastUserText(request).replace(/[.?!]+$/, '')}.` };
};

/** What the endpoint suffers next: a failure mode (the speech fakes' FailureSwitch), or null to answer well. */
export interface ChatFailures {
  next(): 'error' | 'hang' | 'close' | null;
}

export function sendOpenAiError(
  res: ServerResponse,
  status: number,
  message: string,
  type = 'invalid_request_error',
): void {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ error: { message, type, code: null } }));
}

export function bearerOk(req: IncomingMessage, apiKey: string): boolean {
  return req.headers.authorization === `Bearer ${apiKey}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function sse(res: ServerResponse, payload: unknown): void {
  res.write(`data: ${JSON.stringify(payload)}\n\n`);
}

/**
 * What a non-streamed completion answers: the platform asks for those only after a call (extraction and analysis,
 * each a JSON object), so the answer is one JSON object such a judge would write.
 */
export const POST_CALL_ANSWER = JSON.stringify({
  summary: 'The caller and the agent talked.',
  score: 5,
  reasons: 'Judged by the fake model.',
});

/**
 * `log` gets the streamed requests (the live conversation's), `completions` the non-streamed ones (post-call), so a
 * test counts a call's model rounds without the post-call work that follows its end. Failures apply to streamed
 * requests only.
 */
export async function handleChatCompletion(
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
  apiKey: string,
  failures: ChatFailures,
  log: ChatCompletionRequest[],
  completions: ChatCompletionRequest[],
  script: ChatScript,
): Promise<void> {
  if (!bearerOk(req, apiKey))
    return sendOpenAiError(res, 401, 'Incorrect API key provided', 'invalid_api_key');
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return sendOpenAiError(res, 400, 'We could not parse the JSON body of your request.');
  }
  if (!Array.isArray(json.messages) || json.messages.length === 0) {
    return sendOpenAiError(res, 400, "'messages' must be a non-empty array");
  }
  if (json.stream !== true) {
    completions.push(requestOf(req, json, false));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: `chatcmpl-${randomBytes(12).toString('hex')}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: String(json.model ?? 'fake-model'),
        choices: [
          { index: 0, message: { role: 'assistant', content: POST_CALL_ANSWER }, finish_reason: 'stop' },
        ],
      }),
    );
    return;
  }
  const failure = failures.next();
  const request = requestOf(req, json, failure !== null);
  log.push(request);
  if (failure === 'hang') return;
  if (failure === 'error')
    return sendOpenAiError(
      res,
      500,
      'The server had an error while processing your request.',
      'server_error',
    );
  const turn = script(request);
  const id = `chatcmpl-${randomBytes(12).toString('hex')}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: String(json.model ?? 'fake-model'),
    system_fingerprint: 'fp_fake',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  if (turn.firstTokenDelayMs) await sleep(turn.firstTokenDelayMs);
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  sse(res, chunk({ role: 'assistant', content: '' }));
  const pieces: Record<string, unknown>[] = [];
  for (const word of (turn.text ?? '').match(/\S+\s*/g) ?? []) pieces.push({ content: word });
  (turn.toolCalls ?? []).forEach((call, index) => {
    const args = JSON.stringify(call.arguments);
    const callId = `call_${randomBytes(8).toString('hex')}`;
    pieces.push({
      tool_calls: [{ index, id: callId, type: 'function', function: { name: call.name, arguments: '' } }],
    });
    // Arguments arrive in fragments that split JSON tokens, as the real API sends them.
    for (let at = 0; at < args.length; at += 7) {
      pieces.push({ tool_calls: [{ index, function: { arguments: args.slice(at, at + 7) } }] });
    }
  });
  // A 'close' failure sends the first half of the turn (at least one chunk), then drops the connection.
  const cut = failure === 'close' ? Math.max(1, Math.ceil(pieces.length / 2)) : pieces.length;
  for (let i = 0; i < cut; i++) {
    sse(res, chunk(pieces[i]));
    if (turn.chunkDelayMs) await sleep(turn.chunkDelayMs);
    if (res.destroyed) return;
  }
  if (failure === 'close') return void req.socket.destroy();
  sse(res, chunk({}, turn.toolCalls?.length ? 'tool_calls' : 'stop'));
  res.end('data: [DONE]\n\n');
}

function requestOf(
  req: IncomingMessage,
  json: Record<string, unknown>,
  failed: boolean,
): ChatCompletionRequest {
  return {
    authorization: req.headers.authorization,
    model: json.model,
    stream: json.stream,
    messages: json.messages as ChatMessageIn[],
    tools: (json.tools as ChatCompletionRequest['tools']) ?? [],
    toolChoice: json.tool_choice,
    body: json,
    failed,
  };
}

export interface ScriptedChatModel {
  /** `http://127.0.0.1:<port>/v1`: LLM_BASE_URL. */
  baseUrl: string;
  apiKey: string;
  /** Streamed chat completions: the live conversations' model rounds. */
  chats: ChatCompletionRequest[];
  /** Non-streamed completions (post-call work). */
  completions: ChatCompletionRequest[];
  /** The voice service's settings that make this its language model. */
  env(): Record<string, string>;
  /** Scripts the model's turns (default: echo the caller). */
  script(script: ChatScript): void;
  close(): Promise<void>;
}

export const SCRIPTED_CHAT_MODEL = 'fake-gpt-4o-mini';

/** The model alone on a port of its own (the e2e's fake AI server serves it beside the speech endpoints). */
export async function startScriptedChatModel(apiKey = 'fake-ai-key-0001'): Promise<ScriptedChatModel> {
  const chats: ChatCompletionRequest[] = [];
  const completions: ChatCompletionRequest[] = [];
  const healthy: ChatFailures = { next: () => null };
  let chatScript: ChatScript = echoScript;
  const server = await startFakeServer({
    request: async (req, res, url) => {
      const body = await readBody(req);
      if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions')
        return sendOpenAiError(res, 404, `Invalid URL (${req.method} ${url.pathname})`);
      await handleChatCompletion(req, res, body, apiKey, healthy, chats, completions, (r) => chatScript(r));
    },
  });
  const baseUrl = `${server.url}/v1`;
  return {
    baseUrl,
    apiKey,
    chats,
    completions,
    env: () => ({ LLM_BASE_URL: baseUrl, LLM_API_KEY: apiKey, LLM_MODEL: SCRIPTED_CHAT_MODEL }),
    script: (script) => {
      chatScript = script;
    },
    close: () => server.close(),
  };
}
