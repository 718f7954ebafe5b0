// Gemini Live (the Live API's BidiGenerateContent over WebSocket, v1beta, as
// https://ai.google.dev/api/live documents it):
// - GET wss <base>/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent, the key as
//   `x-goog-api-key` (the `?key=` query works too; a header keeps it out of every URL).
// - The first message is `setup` {model: models/<model>, generationConfig {responseModalities [AUDIO],
//   speechConfig voice, temperature, maxOutputTokens}, systemInstruction, tools [{functionDeclarations}],
//   inputAudioTranscription {}, outputAudioTranscription {}}; the server answers `setupComplete`. A setup cannot
//   change later: new instructions (a handoff) need a new session.
// - realtimeInput {audio {mimeType 'audio/pcm;rate=16000', data}}: the caller's audio, 16 kHz; the server's own
//   activity detection ends each caller turn and starts the reply.
// - serverContent: modelTurn.parts[].inlineData (audio/pcm;rate=24000), inputTranscription / outputTranscription
//   {text} as they come, interrupted (the caller spoke over the reply: it stops), generationComplete,
//   turnComplete; usageMetadata {promptTokenCount, responseTokenCount}; toolCall {functionCalls [{id, name,
//   args}]} answered by toolResponse {functionResponses [{id, name, response}]}; toolCallCancellation {ids};
//   goAway {timeLeft} before the server ends the connection.
// - clientContent {turns [{role, parts [{text}]}], turnComplete}: lines said outside the model's replies, and a
//   turn the model takes by itself.
// - Errors close the socket with a code and a reason.
import type { ChatUsage, ToolCall, ToolSpec } from '../chat-model';
import { pcm16FromBase64, pcm16ToBase64 } from './realtime-audio';
import type {
  RealtimeContextLine,
  RealtimeEvent,
  RealtimeSession,
  RealtimeSessionConfig,
  RealtimeToolResult,
} from './realtime-session';
import { opened, RealtimeSessionBase } from './realtime-session-base';
import { socketBase } from './realtime-socket';

/** Gemini Live hears 16 kHz PCM16. */
export const GEMINI_LIVE_INPUT_RATE = 16_000;
/** Gemini Live speaks 24 kHz PCM16. */
export const GEMINI_LIVE_OUTPUT_RATE = 24_000;

/** Gemini Live's prebuilt voices (https://ai.google.dev/gemini-api/docs/speech-generation#voices, half-cascade set). */
export const GEMINI_LIVE_VOICES = [
  'Puck',
  'Charon',
  'Kore',
  'Fenrir',
  'Aoede',
  'Leda',
  'Orus',
  'Zephyr',
] as const;

const SERVICE_PATH = '/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent';

/** The Live socket URL on a Gemini API base (`https://generativelanguage.googleapis.com`, with or without /v1beta). */
export function geminiLiveUrl(baseUrl: string): string {
  return `${socketBase(baseUrl).replace(/\/v1(beta|alpha)?$/i, '')}${SERVICE_PATH}`;
}

/** Keys of JSON Schema that Gemini's Schema (an OpenAPI subset) takes; the rest is dropped. */
const SCHEMA_KEYS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'properties',
  'required',
  'items',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'anyOf',
  'propertyOrdering',
]);

/** A tool's JSON Schema as Gemini's Schema: its subset of keys, types in capitals, `[t, "null"]` as nullable. */
export function geminiSchema(schema: unknown): unknown {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (!SCHEMA_KEYS.has(key)) continue;
    if (key === 'type') {
      const types = (Array.isArray(value) ? value : [value]).filter((t) => typeof t === 'string');
      const real = types.filter((t) => t !== 'null');
      if (real[0]) out.type = (real[0] as string).toUpperCase();
      if (types.length > real.length) out.nullable = true;
    } else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, sub]) => [name, geminiSchema(sub)]),
      );
    } else if (key === 'items') {
      out.items = geminiSchema(value);
    } else if (key === 'anyOf' && Array.isArray(value)) {
      out.anyOf = value.map(geminiSchema);
    } else {
      out[key] = value;
    }
  }
  return out;
}

function geminiTools(tools: readonly ToolSpec[]): Record<string, unknown>[] {
  if (!tools.length) return [];
  return [
    {
      functionDeclarations: tools.map((t) => {
        const parameters = geminiSchema(t.parameters) as Record<string, unknown>;
        // A function without arguments has no parameters at all (an empty OBJECT is refused).
        const empty = !parameters.properties || Object.keys(parameters.properties as object).length === 0;
        return { name: t.name, description: t.description, ...(empty ? {} : { parameters }) };
      }),
    },
  ];
}

/** Lines as conversation turns: Live turns are the user's or the model's, so a note goes in as the user's. */
function contextTurns(lines: readonly RealtimeContextLine[]): Record<string, unknown>[] {
  return lines.map((line) => ({
    role: line.role === 'assistant' ? 'model' : 'user',
    parts: [{ text: line.role === 'system' ? `(Note, not said by the caller: ${line.text})` : line.text }],
  }));
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const obj = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

interface Reply {
  id: string;
  transcript: string;
  usage: ChatUsage | null;
  /** The caller spoke over it: its audio is dropped from here on. */
  cut: boolean;
}

export class GeminiLiveSession extends RealtimeSessionBase implements RealtimeSession {
  readonly provider = 'google' as const;
  private reply: Reply | null = null;
  private replies = 0;
  /** The caller's words of the turn under way, as the transcription pieces came. */
  private heard = '';
  /** Tool calls the server cancelled (the caller spoke): their results are not sent. */
  private readonly cancelled = new Set<string>();

  constructor(config: RealtimeSessionConfig, onEvent: (event: RealtimeEvent) => void) {
    super(config, onEvent, {
      url: geminiLiveUrl(config.baseUrl),
      headers: { 'x-goog-api-key': config.apiKey },
      label: 'Gemini Live',
      inputRate: GEMINI_LIVE_INPUT_RATE,
      outputRate: GEMINI_LIVE_OUTPUT_RATE,
    });
    // Gemini speaks first only after the client's setup.
    this.socket.opened.then(
      () => this.setup(),
      () => undefined,
    );
  }

  sendAudio(pcm: Int16Array): void {
    if (this.closed || !this.configured) return;
    const samples = this.input.push(pcm);
    if (!samples.length) return;
    this.socket.send({
      realtimeInput: {
        audio: { mimeType: `audio/pcm;rate=${GEMINI_LIVE_INPUT_RATE}`, data: pcm16ToBase64(samples) },
      },
    });
  }

  interrupt(): void {
    // Gemini keeps no audio position: it stops a reply under way by itself when it hears the caller.
    if (this.reply) this.reply.cut = true;
    this.output.reset();
  }

  sendToolResults(results: readonly RealtimeToolResult[], respond: boolean): void {
    if (this.closed || !respond) return;
    const functionResponses = results
      .filter((r) => !this.cancelled.has(r.callId))
      .map((r) => ({ id: r.callId, name: r.name, response: { output: r.output } }));
    if (!functionResponses.length) return;
    this.socket.send({ toolResponse: { functionResponses } });
    this.socket.expect();
  }

  addContext(lines: readonly RealtimeContextLine[]): void {
    if (this.closed || !lines.length) return;
    this.socket.send({ clientContent: { turns: contextTurns(lines), turnComplete: false } });
  }

  respond(): void {
    if (this.closed) return;
    this.socket.send({ clientContent: { turns: [], turnComplete: true } });
    this.socket.expect();
  }

  update(): boolean {
    // A Live session's setup is fixed once sent.
    return false;
  }

  private setup(): void {
    const { config } = this;
    const model = config.model.startsWith('models/') ? config.model : `models/${config.model}`;
    this.socket.send({
      setup: {
        model,
        generationConfig: {
          responseModalities: ['AUDIO'],
          ...(config.voice
            ? { speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: config.voice } } } }
            : {}),
          ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
          ...(config.maxTokens !== undefined ? { maxOutputTokens: config.maxTokens } : {}),
        },
        systemInstruction: { parts: [{ text: config.instructions }] },
        tools: geminiTools(config.tools),
        inputAudioTranscription: {},
        outputAudioTranscription: {},
      },
    });
  }

  protected handle(message: Record<string, unknown>): void {
    if (this.closed) return;
    if (message.setupComplete !== undefined && !this.configured) {
      if (this.config.context?.length) this.addContext(this.config.context);
      this.opened();
      return;
    }
    const usage = obj(message.usageMetadata);
    if (usage && this.reply) this.reply.usage = usageOf(usage);
    const content = obj(message.serverContent);
    if (content) this.content(content);
    const toolCall = obj(message.toolCall);
    if (toolCall) this.toolCall(toolCall);
    const cancellation = obj(message.toolCallCancellation);
    if (cancellation && Array.isArray(cancellation.ids))
      for (const id of cancellation.ids) if (typeof id === 'string') this.cancelled.add(id);
    // goAway: the server ends the connection soon; the close that follows fails the session.
  }

  private content(content: Record<string, unknown>): void {
    const input = str(obj(content.inputTranscription)?.text);
    if (input) {
      this.heard += input;
      // The caller's words are coming: a reply is due once they stop.
      if (!this.reply) this.socket.expect();
    }
    if (content.interrupted === true) {
      this.socket.settle();
      this.onEvent({ type: 'caller.speech_started' });
      if (this.reply) {
        this.reply.cut = true;
        this.finishReply('cancelled', []);
      }
    }
    const parts = obj(content.modelTurn)?.parts;
    for (const part of Array.isArray(parts) ? parts : []) {
      const data = str(obj(obj(part)?.inlineData)?.data);
      if (!data) continue;
      const reply = this.current();
      if (reply.cut) continue;
      const pcm = this.output.push(pcm16FromBase64(data));
      if (pcm.length) this.onEvent({ type: 'response.audio', responseId: reply.id, pcm });
    }
    const output = str(obj(content.outputTranscription)?.text);
    if (output) {
      const reply = this.current();
      reply.transcript += output;
      this.onEvent({ type: 'response.transcript', responseId: reply.id, delta: output });
    }
    if (content.turnComplete === true) {
      this.flushHeard();
      if (this.reply) this.finishReply(this.reply.cut ? 'cancelled' : 'completed', []);
      this.socket.settle();
    }
  }

  /** The reply under way, begun by the first of its content: the caller's turn is over then. */
  private current(): Reply {
    if (this.reply) return this.reply;
    this.flushHeard();
    this.output.reset();
    this.reply = { id: `gemini_turn_${++this.replies}`, transcript: '', usage: null, cut: false };
    this.socket.expect();
    this.onEvent({ type: 'response.started', responseId: this.reply.id });
    return this.reply;
  }

  private flushHeard(): void {
    const text = this.heard.replace(/\s+/g, ' ').trim();
    this.heard = '';
    if (text) this.onEvent({ type: 'caller.transcript', text });
  }

  private toolCall(toolCall: Record<string, unknown>): void {
    const calls: ToolCall[] = [];
    for (const entry of Array.isArray(toolCall.functionCalls) ? toolCall.functionCalls : []) {
      const call = obj(entry);
      const name = str(call?.name);
      if (!call || !name) continue;
      calls.push({ id: str(call.id) ?? `${name}_${calls.length}`, name, arguments: obj(call.args) ?? {} });
    }
    if (!calls.length) return;
    const reply = this.current();
    // The model waits for the results: nothing is due until they are sent.
    this.finishReply(reply.cut ? 'cancelled' : 'completed', reply.cut ? [] : calls);
    this.socket.settle();
  }

  private finishReply(status: 'completed' | 'cancelled', toolCalls: ToolCall[]): void {
    const reply = this.reply;
    if (!reply) return;
    this.reply = null;
    if (!reply.cut) {
      const tail = this.output.flush();
      if (tail.length) this.onEvent({ type: 'response.audio', responseId: reply.id, pcm: tail });
    } else this.output.reset();
    this.onEvent({
      type: 'response.done',
      responseId: reply.id,
      status,
      transcript: reply.transcript.replace(/\s+/g, ' ').trim(),
      toolCalls,
      usage: reply.usage,
    });
  }
}

function usageOf(usage: Record<string, unknown>): ChatUsage | null {
  const input = num(usage.promptTokenCount);
  const output = num(usage.responseTokenCount) ?? num(usage.candidatesTokenCount);
  return input === undefined && output === undefined
    ? null
    : { inputTokens: input ?? 0, outputTokens: output ?? 0 };
}

/** Opens a Gemini Live session; resolves once its setup is complete. */
export async function openGeminiLive(
  config: RealtimeSessionConfig,
  onEvent: (event: RealtimeEvent) => void,
): Promise<RealtimeSession> {
  return opened(new GeminiLiveSession(config, onEvent));
}
