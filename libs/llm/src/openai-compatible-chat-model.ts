import type { Dispatcher } from 'undici';
import { postToProvider, providerFailure, type ProviderFailureOptions } from './provider-post';
import { apiBaseUrl } from './api-base-url';
import { ChatDelta, ChatMessage, ChatRequest, ChatUsage } from './chat-model';
import { AnalysisAnswer, AnalysisInput, analysisMessages, parseAnalysisAnswer } from './analysis';
import { ExtractionInput, extractionMessages, parseExtractionAnswer } from './extraction';
import { LanguageModel } from './language-model';
import { LlmError } from './llm-error';
import type { ModelConfig } from './plugin';
import { ChatCompletionChunk, toOpenAiMessages, toOpenAiTools, ToolCallAssembler } from './openai-wire';
import { SilenceWatchdog } from './silence-watchdog';
import { serverSentEventData } from './sse';

export interface OpenAiCompatibleOptions {
  /** LLM_BASE_URL, e.g. https://api.openai.com/v1 (or its bare origin); requests go to `<base>/chat/completions`. */
  baseUrl: string;
  /** LLM_API_KEY, sent as a bearer token when set. */
  apiKey?: string;
  model: string;
  /** LLM_TIMEOUT_MS: longest silence allowed before the first byte and between streamed chunks. */
  timeoutMs: number;
  /** Where chat completions are posted, when not `<base>/chat/completions` (Azure OpenAI's deployment URL). */
  chatUrl?: string;
  /** How the key is sent: `bearer` (Authorization, the default) or Azure OpenAI's `api-key` header. */
  keyHeader?: 'bearer' | 'api-key';
  /**
   * Ask for the reply's token usage in the stream's last chunk (`stream_options.include_usage`). Usage is read
   * from any chunk that carries it either way (some hosts send it unasked and refuse the option).
   */
  streamUsage?: boolean;
  /** The reply-length parameter's name: `max_tokens` (the default) or OpenAI's `max_completion_tokens`. */
  maxTokensParameter?: 'max_tokens' | 'max_completion_tokens';
  /** The agent's parameters, sent with every streamed turn unless the ChatRequest names its own. */
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  /** Who the server is in error messages (`the LLM server` by default). */
  serverName?: string;
  /** Fields a streamed turn's body adds (a partner's server gets the call's id and variables). */
  turnFields?: (req: ChatRequest) => Record<string, unknown>;
  /** Headers computed from each request's raw body (a partner's server: the x-vap signature). */
  signedHeaders?: (rawBody: string) => Record<string, string>;
  /** The connection pool requests go through (a partner's server: the private-network guard's). */
  dispatcher?: Dispatcher;
  /** Called before each request; throws to refuse it (a partner's server: an IP literal off the public internet). */
  checkUrl?: (url: URL) => void;
  /** What a network failure says (a partner's server: nothing of the platform's own network). */
  networkFailure?: (err: unknown) => string;
}

/** The options every plugin's adapter starts from: where, which key, which model, its parameters. */
export function modelConfigOptions(config: ModelConfig): OpenAiCompatibleOptions {
  return {
    baseUrl: config.baseUrl,
    apiKey: config.apiKey || undefined,
    model: config.model,
    timeoutMs: config.timeoutMs,
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    ...(config.maxTokens !== undefined ? { maxTokens: config.maxTokens } : {}),
    ...(config.topP !== undefined ? { topP: config.topP } : {}),
  };
}

export interface CompleteOptions {
  /** Ask for a JSON object (`response_format: json_object`). */
  json?: boolean;
  /** Defaults to 0: extraction wants the same answer every time. */
  temperature?: number;
  signal?: AbortSignal;
}

/** Longest non-streamed answer read, and longest error body quoted. */
const MAX_ANSWER_BYTES = 1024 * 1024;
const MAX_ERROR_CHARS = 300;

/**
 * Chat completions against any OpenAI-compatible server. `stream` is the live call's path: `stream: true` with
 * tools, text deltas yielded as they arrive and each tool call once its arguments are complete. `complete` is
 * one non-streamed answer (post-call extraction). Every failure is an LlmError.
 */
export class OpenAiCompatibleChatModel implements LanguageModel {
  readonly model: string;
  private readonly url: string;
  private readonly server: string;

  constructor(private readonly options: OpenAiCompatibleOptions) {
    this.model = options.model;
    this.url = options.chatUrl ?? `${apiBaseUrl(options.baseUrl)}/chat/completions`;
    this.server = options.serverName ?? 'the LLM server';
  }

  async *stream(req: ChatRequest, signal?: AbortSignal): AsyncGenerator<ChatDelta, void, undefined> {
    const o = this.options;
    const temperature = req.temperature ?? o.temperature;
    const maxTokens = req.maxTokens ?? o.maxTokens;
    const topP = req.topP ?? o.topP;
    const watchdog = new SilenceWatchdog(o.timeoutMs, this.server, signal);
    const res = await this.post(
      {
        model: this.model,
        messages: toOpenAiMessages(req.messages),
        stream: true,
        ...(o.streamUsage ? { stream_options: { include_usage: true } } : {}),
        ...(temperature !== undefined ? { temperature } : {}),
        ...(maxTokens !== undefined ? { [o.maxTokensParameter ?? 'max_tokens']: maxTokens } : {}),
        ...(topP !== undefined ? { top_p: topP } : {}),
        ...(req.tools.length ? { tools: toOpenAiTools(req.tools), tool_choice: 'auto' } : {}),
        ...(o.turnFields?.(req) ?? {}),
      },
      watchdog,
      signal,
    );
    const calls = new ToolCallAssembler();
    let finished = false;
    let usage: ChatUsage | null = null;
    try {
      for await (const data of serverSentEventData(watchdog.watch(res.body))) {
        if (data.trim() === '[DONE]') {
          finished = true;
          break;
        }
        const chunk = parseChunk(data, this.server);
        if (chunk.error)
          throw new LlmError(
            `${this.server} stream failed: ${this.withoutKey(chunk.error.message ?? 'unknown error')}`,
            'protocol',
          );
        usage = chunkUsage(chunk) ?? usage;
        // Only the first choice is spoken (we never ask for n > 1).
        const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
        if (!choice) continue;
        if (choice.delta?.content) yield { type: 'text', text: choice.delta.content };
        for (const fragment of choice.delta?.tool_calls ?? []) calls.add(fragment);
        if (choice.finish_reason) {
          finished = true;
          for (const call of calls.take()) yield { type: 'tool_call', call };
        }
      }
    } catch (err) {
      throw this.failure(err, watchdog, signal);
    } finally {
      watchdog.release();
      res.body.destroy();
    }
    if (!finished)
      throw new LlmError(`${this.server} stream ended before the answer was complete`, 'protocol');
    for (const call of calls.take()) yield { type: 'tool_call', call };
    if (usage) yield { type: 'usage', usage };
  }

  /** One non-streamed answer's text. */
  async complete(messages: ChatMessage[], options: CompleteOptions = {}): Promise<string> {
    const watchdog = new SilenceWatchdog(this.options.timeoutMs, this.server, options.signal);
    const res = await this.post(
      {
        model: this.model,
        messages: toOpenAiMessages(messages),
        temperature: options.temperature ?? 0,
        ...(options.json ? { response_format: { type: 'json_object' } } : {}),
      },
      watchdog,
      options.signal,
    );
    let text: string;
    try {
      text = await readText(watchdog.watch(res.body), MAX_ANSWER_BYTES);
    } catch (err) {
      throw this.failure(err, watchdog, options.signal);
    } finally {
      watchdog.release();
      res.body.destroy();
    }
    let body: { choices?: { message?: { content?: unknown } }[] };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new LlmError(`${this.server} answered something that is not JSON`, 'protocol');
    }
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== 'string')
      throw new LlmError(`${this.server} answer has no choices[0].message.content`, 'protocol');
    return content;
  }

  async extract(input: ExtractionInput, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const answer = await this.complete(extractionMessages(input), { json: true, signal });
    return parseExtractionAnswer(input.keys, answer);
  }

  async analyze(input: AnalysisInput, signal?: AbortSignal): Promise<AnalysisAnswer> {
    const answer = await this.complete(analysisMessages(input), { json: true, signal });
    return parseAnalysisAnswer(input, answer);
  }

  /** The answer once its status is 2xx; an error status is an LlmError quoting the server's message. */
  private post(
    body: Record<string, unknown>,
    watchdog: SilenceWatchdog,
    signal: AbortSignal | undefined,
  ): Promise<Dispatcher.ResponseData> {
    const o = this.options;
    return postToProvider({
      ...this.failureOptions(watchdog, signal),
      url: this.url,
      headers: o.apiKey
        ? o.keyHeader === 'api-key'
          ? { 'api-key': o.apiKey }
          : { authorization: `Bearer ${o.apiKey}` }
        : {},
      body,
      errorWords: errorDetail,
      ...(o.signedHeaders ? { signedHeaders: o.signedHeaders } : {}),
      ...(o.checkUrl ? { checkUrl: o.checkUrl } : {}),
      ...(o.dispatcher ? { dispatcher: o.dispatcher } : {}),
    });
  }

  private failure(err: unknown, watchdog: SilenceWatchdog, signal: AbortSignal | undefined): LlmError {
    return providerFailure(err, this.failureOptions(watchdog, signal));
  }

  private failureOptions(watchdog: SilenceWatchdog, signal: AbortSignal | undefined): ProviderFailureOptions {
    return {
      server: this.server,
      watchdog,
      signal,
      redact: (text) => this.withoutKey(text),
      ...(this.options.networkFailure ? { networkFailure: this.options.networkFailure } : {}),
    };
  }

  /** A provider's words with the key taken out (some quote the key they refused). */
  private withoutKey(text: string): string {
    return redactKey(text, this.options.apiKey);
  }
}

/** The text with every occurrence of the key (and OpenAI's masked echo of one, `sk-...abcd`) replaced. */
export function redactKey(text: string, apiKey: string | undefined): string {
  let out = apiKey && apiKey.length >= 4 ? text.split(apiKey).join('[key]') : text;
  out = out.replace(/\b(sk|gsk|sk-proj|sk-or-v1)-[A-Za-z0-9_*.-]{6,}/g, '[key]');
  return out;
}

function parseChunk(data: string, server: string): ChatCompletionChunk {
  try {
    const chunk = JSON.parse(data) as unknown;
    if (chunk && typeof chunk === 'object') return chunk as ChatCompletionChunk;
  } catch {
    // Reported below.
  }
  throw new LlmError(
    `${server} stream sent an event that is not a JSON chunk: ${data.slice(0, 200)}`,
    'protocol',
  );
}

/** The reply's token usage when this chunk carries it (`usage`, or Groq's `x_groq.usage`). */
function chunkUsage(chunk: ChatCompletionChunk): ChatUsage | null {
  const usage = chunk.usage ?? chunk.x_groq?.usage;
  if (!usage || typeof usage.prompt_tokens !== 'number' || typeof usage.completion_tokens !== 'number')
    return null;
  return { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens };
}

async function readText(chunks: AsyncIterable<Uint8Array | string>, maxBytes: number): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk);
    size += buf.length;
    if (size > maxBytes) throw new LlmError(`the LLM answer is larger than ${maxBytes} bytes`, 'protocol');
    parts.push(buf);
  }
  return Buffer.concat(parts).toString('utf8');
}

/** The server's own words for an error status (OpenAI's `{error: {message}}` or plain text), short. */
async function errorDetail(body: Dispatcher.ResponseData['body']): Promise<string> {
  let text: string;
  try {
    text = (await body.text()).trim();
  } catch {
    return '';
  }
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message =
      typeof parsed.error === 'string'
        ? parsed.error
        : (parsed.error?.message ?? parsed.message ?? undefined);
    if (typeof message === 'string') text = message;
  } catch {
    // Plain text.
  }
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}…` : text;
}
