import { Dispatcher, request } from 'undici';
import { apiBaseUrl } from './api-base-url';
import { ChatDelta, ChatMessage, ChatRequest } from './chat-model';
import { AnalysisAnswer, AnalysisInput, analysisMessages, parseAnalysisAnswer } from './analysis';
import { ExtractionInput, extractionMessages, parseExtractionAnswer } from './extraction';
import { LanguageModel } from './language-model';
import { LlmError } from './llm-error';
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

  constructor(private readonly options: OpenAiCompatibleOptions) {
    this.model = options.model;
    this.url = `${apiBaseUrl(options.baseUrl)}/chat/completions`;
  }

  async *stream(req: ChatRequest, signal?: AbortSignal): AsyncGenerator<ChatDelta, void, undefined> {
    const watchdog = new SilenceWatchdog(this.options.timeoutMs, 'the LLM server', signal);
    const res = await this.post(
      {
        model: this.model,
        messages: toOpenAiMessages(req.messages),
        stream: true,
        ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
        ...(req.tools.length ? { tools: toOpenAiTools(req.tools), tool_choice: 'auto' } : {}),
      },
      watchdog,
      signal,
    );
    const calls = new ToolCallAssembler();
    let finished = false;
    try {
      for await (const data of serverSentEventData(watchdog.watch(res.body))) {
        if (data.trim() === '[DONE]') {
          finished = true;
          break;
        }
        const chunk = parseChunk(data);
        if (chunk.error)
          throw new LlmError(`the LLM stream failed: ${chunk.error.message ?? 'unknown error'}`, 'protocol');
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
      throw failure(err, watchdog, signal);
    } finally {
      watchdog.release();
      res.body.destroy();
    }
    if (!finished) throw new LlmError('the LLM stream ended before the answer was complete', 'protocol');
    for (const call of calls.take()) yield { type: 'tool_call', call };
  }

  /** One non-streamed answer's text. */
  async complete(messages: ChatMessage[], options: CompleteOptions = {}): Promise<string> {
    const watchdog = new SilenceWatchdog(this.options.timeoutMs, 'the LLM server', options.signal);
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
      throw failure(err, watchdog, options.signal);
    } finally {
      watchdog.release();
      res.body.destroy();
    }
    let body: { choices?: { message?: { content?: unknown } }[] };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new LlmError('the LLM server answered something that is not JSON', 'protocol');
    }
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== 'string')
      throw new LlmError('the LLM answer has no choices[0].message.content', 'protocol');
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
  private async post(
    body: Record<string, unknown>,
    watchdog: SilenceWatchdog,
    signal: AbortSignal | undefined,
  ): Promise<Dispatcher.ResponseData> {
    if (signal?.aborted) throw new LlmError('the LLM request was aborted', 'aborted');
    watchdog.arm();
    try {
      const res = await request(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: body.stream ? 'text/event-stream' : 'application/json',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal: watchdog.signal,
      });
      if (res.statusCode >= 200 && res.statusCode < 300) return res;
      const detail = await errorDetail(res.body);
      throw new LlmError(
        `the LLM server answered ${res.statusCode}${detail ? `: ${detail}` : ''}`,
        'status',
        res.statusCode,
      );
    } catch (err) {
      // No answer to read: the request is over.
      watchdog.release();
      throw failure(err, watchdog, signal);
    } finally {
      watchdog.disarm();
    }
  }
}

function parseChunk(data: string): ChatCompletionChunk {
  try {
    const chunk = JSON.parse(data) as unknown;
    if (chunk && typeof chunk === 'object') return chunk as ChatCompletionChunk;
  } catch {
    // Reported below.
  }
  throw new LlmError(
    `the LLM stream sent an event that is not a JSON chunk: ${data.slice(0, 200)}`,
    'protocol',
  );
}

/** What went wrong, as an LlmError: our own errors as they are, then aborts, silences and network failures. */
function failure(err: unknown, watchdog: SilenceWatchdog, signal: AbortSignal | undefined): LlmError {
  if (err instanceof LlmError) return err;
  if (signal?.aborted) return new LlmError('the LLM request was aborted', 'aborted');
  if (watchdog.fired) return watchdog.timeoutError();
  const code = (err as { code?: string }).code;
  if (
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  )
    return watchdog.timeoutError();
  return new LlmError(
    `the LLM server could not be reached: ${(err as Error).message ?? String(err)}`,
    'network',
  );
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
