// Zero-latency stand-ins for OpenAI-compatible speech and chat servers, so the benchmark measures the voice
// service's own work: every answer is ready before the request arrives. One HTTP server serves all three APIs;
// routes match by path suffix, so a base URL with or without `/v1` reaches them alike.
import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { pcm16WavHeader } from '@vap/media';
import { pcm16LeBytes, speechLikePcm } from './speech-like-audio';

/** The sample rate of OpenAI's `pcm` speech format. */
export const OPENAI_PCM_SAMPLE_RATE = 24_000;

export interface FakeSpeechProvidersOptions {
  /**
   * What every transcription returns, or how to transcribe an upload: given the uploaded file's bytes (the
   * voice service sends a WAV), the text. Runs in this process, as the provider's work would run in its own.
   */
  transcript: string | ((file: Buffer) => string);
  /** What every chat completion says, streamed in a few chunks. */
  reply: string;
  /**
   * Sees every chat completion request (its messages), before it is answered; `receivedAt` is when its body had
   * arrived (performance.now()).
   */
  onCompletion?: (request: ChatCompletionRequest, receivedAt: number) => void;
  /**
   * A partner tool to call: a streamed completion whose last message is the caller's (and that offers the tool)
   * is a call of it, and the one after, with its result, the spoken reply.
   */
  toolCall?: FakeToolCall;
  /** Seconds of speech every synthesis returns. */
  speechSeconds: number;
  /**
   * Every chat completion is answered this long after its request arrived: one model round's own time (default
   * 0, an answer ready at once).
   */
  completionDelayMs?: number;
}

export interface FakeToolCall {
  /** The function's name, as offered in the request's `tools`. */
  name: string;
  /** The call's arguments, given its id (`call_...`), so the partner's request can be told apart. */
  arguments: (toolCallId: string) => Record<string, unknown>;
  /** When the completion asking for the call had been handed to the socket whole (performance.now()). */
  onStreamed?: (toolCallId: string, at: number) => void;
}

/** The part of a chat completion request the fakes read. */
export interface ChatCompletionRequest {
  model?: string;
  stream?: boolean;
  messages?: { role: string; content?: unknown; tool_call_id?: string }[];
  tools?: { type?: string; function?: { name?: string } }[];
}

/** Requests served, by API. */
export interface FakeSpeechProviderCounts {
  transcriptions: number;
  completions: number;
  speech: number;
  /** Requests that matched no API or carried a body the fake could not read. */
  rejected: number;
}

export interface FakeSpeechProviders {
  /** `http://127.0.0.1:<port>`: the bare origin (the APIs are under /v1). */
  rootUrl: string;
  /** `http://127.0.0.1:<port>/v1`: for clients that append only the API's path (OpenAI SDK style). */
  baseUrl: string;
  readonly counts: FakeSpeechProviderCounts;
  close(): Promise<void>;
}

/** Starts the fake servers on a free port of 127.0.0.1. */
export async function startFakeSpeechProviders(
  options: FakeSpeechProvidersOptions,
): Promise<FakeSpeechProviders> {
  const counts: FakeSpeechProviderCounts = { transcriptions: 0, completions: 0, speech: 0, rejected: 0 };
  // Synthesised once: the answer costs the fake nothing per request.
  const speechPcm = pcm16LeBytes(speechLikePcm(options.speechSeconds, OPENAI_PCM_SAMPLE_RATE, { seed: 3 }));
  const speechWav = Buffer.concat([pcm16WavHeader(speechPcm.length, OPENAI_PCM_SAMPLE_RATE), speechPcm]);
  const chunks = replyChunks(options.reply);

  const server = createServer((req, res) => {
    let receivedAt = 0;
    void readBody(req)
      .then((body) => {
        receivedAt = performance.now();
        const path = (req.url ?? '').split('?')[0];
        if (req.method !== 'POST') return reject(res, 405, 'only POST is served');
        if (path.endsWith('/audio/transcriptions')) {
          counts.transcriptions++;
          return transcription(res, body, req.headers['content-type'], options.transcript);
        }
        if (path.endsWith('/chat/completions')) {
          counts.completions++;
          const delayMs = options.completionDelayMs ?? 0;
          if (delayMs <= 0) return completion(res, body, receivedAt, chunks, options);
          return new Promise<void>((resolve) => setTimeout(resolve, delayMs)).then(() =>
            completion(res, body, receivedAt, chunks, options),
          );
        }
        if (path.endsWith('/audio/speech')) {
          counts.speech++;
          return speech(res, body, speechPcm, speechWav);
        }
        return reject(res, 404, `no fake API at ${path}`);
      })
      .catch((err: Error) => reject(res, 400, err.message))
      .finally(() => {
        if (res.statusCode >= 400) counts.rejected++;
      });
  });
  // Hundreds of calls keep connections alive between turns.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    rootUrl: `http://127.0.0.1:${port}`,
    baseUrl: `http://127.0.0.1:${port}/v1`,
    counts,
    close: () => closeServer(server),
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

function reject(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type: 'invalid_request_error' } }));
}

/** `/audio/transcriptions` takes multipart form data; `response_format` decides between JSON and plain text. */
function transcription(
  res: ServerResponse,
  body: Buffer,
  contentType: string | undefined,
  transcript: FakeSpeechProvidersOptions['transcript'],
): void {
  if (!body.includes('name="file"')) return reject(res, 400, 'a multipart form with a file is required');
  let text: string;
  if (typeof transcript === 'string') text = transcript;
  else {
    const file = multipartFile(body, contentType);
    if (!file) return reject(res, 400, "the form's file part could not be read");
    text = transcript(file);
  }
  const format = /name="response_format"\r\n\r\n([a-z_]+)/.exec(body.toString('latin1'))?.[1] ?? 'json';
  if (format === 'text') {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(text);
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(format === 'verbose_json' ? { text, language: 'english', duration: 1 } : { text }));
}

/**
 * The bytes of a multipart form's `file` part (its content between the part's headers and the next boundary), or
 * undefined when the form has none or its boundary is not declared.
 */
export function multipartFile(body: Buffer, contentType: string | undefined): Buffer | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType ?? '');
  const delimiter = boundary ? `\r\n--${boundary[1] ?? boundary[2]}` : undefined;
  if (!delimiter) return undefined;
  const header = body.indexOf('name="file"');
  if (header < 0) return undefined;
  const start = body.indexOf('\r\n\r\n', header);
  if (start < 0) return undefined;
  const end = body.indexOf(delimiter, start + 4);
  return end < 0 ? undefined : body.subarray(start + 4, end);
}

/** `/chat/completions`: server-sent chunks when `stream` is true (as the voice pipeline asks), else one answer. */
function completion(
  res: ServerResponse,
  body: Buffer,
  receivedAt: number,
  chunks: string[],
  options: Pick<FakeSpeechProvidersOptions, 'onCompletion' | 'toolCall'>,
): void {
  const request = JSON.parse(body.toString('utf8')) as ChatCompletionRequest;
  options.onCompletion?.(request, receivedAt);
  const id = `chatcmpl-bench-${Date.now().toString(36)}`;
  const model = request.model ?? 'bench';
  const created = Math.floor(Date.now() / 1000);
  if (!request.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [
          { index: 0, message: { role: 'assistant', content: chunks.join('') }, finish_reason: 'stop' },
        ],
      }),
    );
    return;
  }
  const event = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const tool = options.toolCall;
  if (tool && asksForToolCall(request, tool.name)) {
    const callId = `call_${randomBytes(8).toString('hex')}`;
    // As OpenAI streams a call: its id and name first, then the arguments' text, then the finish reason.
    let out = event({ role: 'assistant', content: null }, null);
    out += event(
      {
        tool_calls: [
          { index: 0, id: callId, type: 'function', function: { name: tool.name, arguments: '' } },
        ],
      },
      null,
    );
    out += event(
      { tool_calls: [{ index: 0, function: { arguments: JSON.stringify(tool.arguments(callId)) } }] },
      null,
    );
    out += event({}, 'tool_calls');
    out += 'data: [DONE]\n\n';
    res.end(out, () => tool.onStreamed?.(callId, performance.now()));
    return;
  }
  let out = event({ role: 'assistant', content: '' }, null);
  for (const content of chunks) out += event({ content }, null);
  out += event({}, 'stop');
  out += 'data: [DONE]\n\n';
  res.end(out);
}

/** Whether the scripted model calls the tool now: it is offered, and the caller spoke last (no result yet). */
export function asksForToolCall(request: ChatCompletionRequest, name: string): boolean {
  const offered = request.tools?.some((t) => t.function?.name === name) ?? false;
  return offered && request.messages?.[request.messages.length - 1]?.role === 'user';
}

/** `/audio/speech`: raw 24 kHz PCM16 (`pcm`, what the voice pipeline streams) or the same as a WAV file. */
function speech(res: ServerResponse, body: Buffer, pcm: Buffer, wav: Buffer): void {
  const request = JSON.parse(body.toString('utf8')) as { input?: unknown; response_format?: string };
  if (typeof request.input !== 'string' || !request.input) return reject(res, 400, 'input is required');
  const format = request.response_format ?? 'mp3';
  if (format === 'pcm') {
    res.writeHead(200, { 'content-type': 'audio/pcm', 'content-length': pcm.length });
    res.end(pcm);
    return;
  }
  if (format === 'wav') {
    res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': wav.length });
    res.end(wav);
    return;
  }
  reject(res, 400, `the fake serves response_format pcm or wav, not ${format}`);
}

/** The reply split at word boundaries into about three chunks, as a model streams tokens. */
export function replyChunks(reply: string): string[] {
  const words = reply.split(/(?<=\s)/);
  const size = Math.max(1, Math.ceil(words.length / 3));
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += size) chunks.push(words.slice(i, i + size).join(''));
  return chunks;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
