import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { AnalysisAnswer, AnalysisInput, analysisMessages, parseAnalysisAnswer } from '../analysis';
import type { ChatDelta, ChatMessage, ChatRequest, ChatUsage, ToolCall } from '../chat-model';
import { ExtractionInput, extractionMessages, parseExtractionAnswer } from '../extraction';
import type { LanguageModel } from '../language-model';
import { LlmError } from '../llm-error';
import type { ModelConfig } from '../plugin';
import { postToProvider, providerFailure, type ProviderFailureOptions } from '../provider-post';
import { SilenceWatchdog } from '../silence-watchdog';
import { serverSentEventData } from '../sse';
import {
  COMPLETE_FINISH_REASONS,
  GeminiPart,
  GeminiResponseChunk,
  toGeminiRequest,
  toGeminiTools,
} from './gemini-wire';

const SERVER = 'Google Gemini';
const MAX_ERROR_CHARS = 300;

/**
 * The Gemini API base requests go under: `https://generativelanguage.googleapis.com/v1beta` as it is given, a
 * bare origin (how the Live client is also pointed at it) meaning its `/v1beta`. No trailing slash.
 */
export function geminiApiBase(url: string): string {
  const base = url.trim().replace(/\/+$/, '');
  try {
    const path = new URL(base).pathname;
    return path === '' || path === '/' ? `${base}/v1beta` : base;
  } catch {
    return base; // the settings' URL check reports it
  }
}

/** A key's text taken out of a provider's words (ours, and any Google API key it quotes). */
export function redactGoogleKey(text: string, apiKey: string): string {
  const out = apiKey.length >= 4 ? text.split(apiKey).join('[key]') : text;
  return out.replace(/AIza[0-9A-Za-z_-]{20,}/g, '[key]');
}

/**
 * Chat with Gemini's streamed generateContent (`:streamGenerateContent?alt=sse`, the key as x-goog-api-key): text
 * parts yielded as they arrive; function calls, which Gemini sends whole, given ids and yielded once the reply
 * finished; the last usageMetadata reported once. A reply Gemini stops for any reason but STOP or MAX_TOKENS
 * (SAFETY, RECITATION, a malformed function call) is an LlmError, as is every other failure.
 */
export class GeminiChatModel implements LanguageModel {
  readonly model: string;
  private readonly url: string;

  constructor(private readonly config: ModelConfig) {
    this.model = config.model;
    const id = config.model.replace(/^models\//, '');
    this.url = `${geminiApiBase(config.baseUrl)}/models/${encodeURIComponent(id)}:streamGenerateContent?alt=sse`;
  }

  stream(req: ChatRequest, signal?: AbortSignal): AsyncGenerator<ChatDelta, void, undefined> {
    const c = this.config;
    const generationConfig = {
      ...optional('temperature', req.temperature ?? c.temperature),
      ...optional('maxOutputTokens', req.maxTokens ?? c.maxTokens),
      ...optional('topP', req.topP ?? c.topP),
    };
    const tools = toGeminiTools(req.tools);
    return this.run(
      {
        ...toGeminiRequest(req.messages),
        ...(tools.length ? { tools } : {}),
        ...(Object.keys(generationConfig).length ? { generationConfig } : {}),
      },
      signal,
    );
  }

  /**
   * One JSON answer's text, through the same stream: its deadline is the silence between chunks, as for a live
   * turn, rather than one long wait for the whole answer.
   */
  async complete(messages: ChatMessage[], signal?: AbortSignal): Promise<string> {
    let text = '';
    const body = {
      ...toGeminiRequest(messages),
      generationConfig: { temperature: 0, responseMimeType: 'application/json' },
    };
    for await (const delta of this.run(body, signal)) if (delta.type === 'text') text += delta.text;
    return text;
  }

  async extract(input: ExtractionInput, signal?: AbortSignal): Promise<Record<string, unknown>> {
    return parseExtractionAnswer(input.keys, await this.complete(extractionMessages(input), signal));
  }

  async analyze(input: AnalysisInput, signal?: AbortSignal): Promise<AnalysisAnswer> {
    return parseAnalysisAnswer(input, await this.complete(analysisMessages(input), signal));
  }

  private async *run(
    body: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ChatDelta, void, undefined> {
    const watchdog = new SilenceWatchdog(this.config.timeoutMs, SERVER, signal);
    const res = await this.post(body, watchdog, signal);
    const calls: ToolCall[] = [];
    let finish: string | null = null;
    let usage: ChatUsage | null = null;
    try {
      for await (const data of serverSentEventData(watchdog.watch(res.body))) {
        const chunk = parseChunk(data);
        if (chunk.error)
          throw new LlmError(
            `${SERVER} stream failed: ${this.withoutKey(errorWords(chunk.error))}`,
            'protocol',
          );
        if (chunk.promptFeedback?.blockReason)
          throw new LlmError(`${SERVER} blocked the prompt: ${chunk.promptFeedback.blockReason}`, 'protocol');
        usage = chunkUsage(chunk) ?? usage;
        // Only the first candidate is spoken (we never ask for more).
        const candidate = chunk.candidates?.find((c) => (c.index ?? 0) === 0);
        if (!candidate) continue;
        for (const part of candidate.content?.parts ?? []) {
          if (part.text && !part.thought) yield { type: 'text', text: part.text };
          if (part.functionCall) calls.push(toolCall(part.functionCall));
        }
        if (candidate.finishReason) finish = candidate.finishReason;
      }
    } catch (err) {
      throw this.failure(err, watchdog, signal);
    } finally {
      watchdog.release();
      res.body.destroy();
    }
    if (!finish) throw new LlmError(`${SERVER} stream ended before the answer was complete`, 'protocol');
    if (!COMPLETE_FINISH_REASONS.has(finish))
      throw new LlmError(`${SERVER} stopped the reply: finishReason ${finish}`, 'protocol');
    for (const call of calls) yield { type: 'tool_call', call };
    if (usage) yield { type: 'usage', usage };
  }

  /** The answer once its status is 2xx; an error status is an LlmError quoting the provider's message. */
  private post(
    body: Record<string, unknown>,
    watchdog: SilenceWatchdog,
    signal: AbortSignal | undefined,
  ): Promise<Dispatcher.ResponseData> {
    return postToProvider({
      ...this.failureOptions(watchdog, signal),
      url: this.url,
      headers: { accept: 'text/event-stream', 'x-goog-api-key': this.config.apiKey },
      body,
      errorWords: errorDetail,
    });
  }

  private failure(err: unknown, watchdog: SilenceWatchdog, signal: AbortSignal | undefined): LlmError {
    return providerFailure(err, this.failureOptions(watchdog, signal));
  }

  private failureOptions(watchdog: SilenceWatchdog, signal: AbortSignal | undefined): ProviderFailureOptions {
    return { server: SERVER, watchdog, signal, redact: (text) => this.withoutKey(text) };
  }

  private withoutKey(text: string): string {
    return redactGoogleKey(text, this.config.apiKey);
  }
}

function optional<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}

function parseChunk(data: string): GeminiResponseChunk {
  try {
    const chunk = JSON.parse(data) as unknown;
    // An error inside the stream may come as a one-element array, as Google's JSON (non-SSE) stream sends it.
    const one = Array.isArray(chunk) ? chunk[0] : chunk;
    if (one && typeof one === 'object') return one as GeminiResponseChunk;
  } catch {
    // Reported below.
  }
  throw new LlmError(`${SERVER} stream sent an event that is not JSON: ${data.slice(0, 200)}`, 'protocol');
}

/** A whole function call with an id: Gemini's own when it gave one, else a fresh one (ours to match results). */
function toolCall(fc: NonNullable<GeminiPart['functionCall']>): ToolCall {
  if (typeof fc.name !== 'string' || !fc.name)
    throw new LlmError(`${SERVER} sent a function call without a name`, 'protocol');
  const args = fc.args ?? {};
  if (typeof args !== 'object' || Array.isArray(args))
    throw new LlmError(`${SERVER} function call ${fc.name} has args that are not an object`, 'protocol');
  return {
    id: fc.id || `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
    name: fc.name,
    arguments: args,
  };
}

/**
 * The reply's tokens from usageMetadata (each chunk carries the running count; the last is the reply's). A thinking
 * model's thoughts are output tokens too: Google bills them as such.
 */
function chunkUsage(chunk: GeminiResponseChunk): ChatUsage | null {
  const u = chunk.usageMetadata;
  if (!u || typeof u.promptTokenCount !== 'number') return null;
  return {
    inputTokens: u.promptTokenCount,
    outputTokens: (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0),
  };
}

function errorWords(error: NonNullable<GeminiResponseChunk['error']>): string {
  return [error.status, error.message].filter(Boolean).join(': ') || 'unknown error';
}

/** Google's words for an error status (`{error: {code, message, status}}`, or an array of one), short. */
async function errorDetail(body: Dispatcher.ResponseData['body']): Promise<string> {
  let text: string;
  try {
    text = (await body.text()).trim();
  } catch {
    return '';
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    const one = (Array.isArray(parsed) ? parsed[0] : parsed) as GeminiResponseChunk | undefined;
    if (one?.error) text = errorWords(one.error);
  } catch {
    // Plain text.
  }
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}…` : text;
}
