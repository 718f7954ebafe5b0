import type { Dispatcher } from 'undici';
import { apiBaseUrl } from '../api-base-url';
import { AnalysisAnswer, AnalysisInput, analysisMessages, parseAnalysisAnswer } from '../analysis';
import type { ChatDelta, ChatMessage, ChatRequest } from '../chat-model';
import { ExtractionInput, extractionMessages, parseExtractionAnswer } from '../extraction';
import { providerWords } from '../key-check';
import type { LanguageModel } from '../language-model';
import { LlmError } from '../llm-error';
import { redactKey } from '../openai-compatible-chat-model';
import type { ModelConfig } from '../plugin';
import { postToProvider, providerFailure, type ProviderFailureOptions } from '../provider-post';
import { SilenceWatchdog } from '../silence-watchdog';
import { serverSentEventData } from '../sse';
import {
  ANTHROPIC_ERROR_STATUS,
  ANTHROPIC_VERSION,
  AnthropicStreamEvent,
  AnthropicStreamReader,
  messageText,
  toAnthropicConversation,
  toAnthropicTools,
} from './anthropic-wire';

/**
 * The reply length asked for when the agent sets none: the Messages API requires `max_tokens`, and a spoken turn
 * (or an extraction's JSON) is far shorter than this.
 */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 1024;

/** Longest non-streamed answer read. */
const MAX_ANSWER_BYTES = 1024 * 1024;
const SERVER = 'Anthropic';

/**
 * Claude through the Messages API (POST {base}/messages, x-api-key and anthropic-version headers). `stream` is the
 * live call's path: `stream: true` with tools, text yielded as it arrives, each tool_use once the message is
 * complete, then the reply's usage. Extraction and analysis ask for one non-streamed message. Every failure is an
 * LlmError that never quotes the key.
 */
export class AnthropicChatModel implements LanguageModel {
  readonly model: string;
  private readonly url: string;

  constructor(private readonly config: ModelConfig) {
    this.model = config.model;
    this.url = `${apiBaseUrl(config.baseUrl)}/messages`;
  }

  async *stream(req: ChatRequest, signal?: AbortSignal): AsyncGenerator<ChatDelta, void, undefined> {
    const watchdog = new SilenceWatchdog(this.config.timeoutMs, SERVER, signal);
    const res = await this.post(
      {
        model: this.model,
        ...toAnthropicConversation(req.messages),
        ...this.parameters(req),
        ...(req.tools.length ? { tools: toAnthropicTools(req.tools) } : {}),
        stream: true,
      },
      watchdog,
      signal,
    );
    const reader = new AnthropicStreamReader();
    let finished = false;
    try {
      for await (const data of serverSentEventData(watchdog.watch(res.body))) {
        const step = reader.read(parseEvent(data));
        if (!step) continue;
        if (step.type === 'text') yield { type: 'text', text: step.text };
        else if (step.type === 'error') {
          throw new LlmError(
            `${SERVER} stream failed: ${step.errorType}: ${this.withoutKey(step.message)}`,
            'status',
            ANTHROPIC_ERROR_STATUS[step.errorType] ?? 500,
          );
        } else {
          finished = true;
          for (const call of step.calls) yield { type: 'tool_call', call };
          break;
        }
      }
    } catch (err) {
      throw this.failure(err, watchdog, signal);
    } finally {
      watchdog.release();
      res.body.destroy();
    }
    if (!finished) throw new LlmError(`${SERVER} stream ended before message_stop`, 'protocol');
    const usage = reader.usage();
    if (usage) yield { type: 'usage', usage };
  }

  /** One non-streamed message's text, at temperature 0 (extraction wants the same answer every time). */
  async complete(messages: ChatMessage[], signal?: AbortSignal): Promise<string> {
    const watchdog = new SilenceWatchdog(this.config.timeoutMs, SERVER, signal);
    const res = await this.post(
      {
        model: this.model,
        ...toAnthropicConversation(messages),
        max_tokens: this.config.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
        temperature: 0,
      },
      watchdog,
      signal,
    );
    let text: string;
    try {
      text = await readText(watchdog.watch(res.body));
    } catch (err) {
      throw this.failure(err, watchdog, signal);
    } finally {
      watchdog.release();
      res.body.destroy();
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new LlmError(`${SERVER} answered something that is not JSON`, 'protocol');
    }
    const answer = messageText(body);
    if (answer === null) throw new LlmError(`${SERVER} answer has no content blocks`, 'protocol');
    return answer;
  }

  async extract(input: ExtractionInput, signal?: AbortSignal): Promise<Record<string, unknown>> {
    return parseExtractionAnswer(input.keys, await this.complete(extractionMessages(input), signal));
  }

  async analyze(input: AnalysisInput, signal?: AbortSignal): Promise<AnalysisAnswer> {
    return parseAnalysisAnswer(input, await this.complete(analysisMessages(input), signal));
  }

  /**
   * The turn's sampling parameters, else the agent's. Anthropic's current models refuse temperature and top_p
   * together ("cannot both be specified for this model"), so top_p goes only when no temperature is set.
   */
  private parameters(req: ChatRequest): Record<string, unknown> {
    const temperature = req.temperature ?? this.config.temperature;
    const topP = req.topP ?? this.config.topP;
    return {
      max_tokens: req.maxTokens ?? this.config.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
      ...(temperature !== undefined ? { temperature } : topP !== undefined ? { top_p: topP } : {}),
    };
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
      headers: { 'x-api-key': this.config.apiKey, 'anthropic-version': ANTHROPIC_VERSION },
      body,
      errorWords: (body) => body.text().then(providerWords, () => ''),
    });
  }

  private failure(err: unknown, watchdog: SilenceWatchdog, signal: AbortSignal | undefined): LlmError {
    return providerFailure(err, this.failureOptions(watchdog, signal));
  }

  private failureOptions(watchdog: SilenceWatchdog, signal: AbortSignal | undefined): ProviderFailureOptions {
    return { server: SERVER, watchdog, signal, redact: (text) => this.withoutKey(text) };
  }

  /** Anthropic's words with the key taken out (`sk-ant-...` echoes included). */
  private withoutKey(text: string): string {
    return redactKey(text, this.config.apiKey);
  }
}

function parseEvent(data: string): AnthropicStreamEvent {
  try {
    const event = JSON.parse(data) as unknown;
    if (event && typeof event === 'object') return event as AnthropicStreamEvent;
  } catch {
    // Reported below.
  }
  throw new LlmError(`${SERVER} stream sent an event that is not JSON: ${data.slice(0, 200)}`, 'protocol');
}

async function readText(chunks: AsyncIterable<Uint8Array | string>): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    const buf = Buffer.from(chunk);
    size += buf.length;
    if (size > MAX_ANSWER_BYTES)
      throw new LlmError(`the ${SERVER} answer is larger than ${MAX_ANSWER_BYTES} bytes`, 'protocol');
    parts.push(buf);
  }
  return Buffer.concat(parts).toString('utf8');
}
