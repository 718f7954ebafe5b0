// OpenAI's Realtime API over WebSocket, as its beta interface documents it (https://platform.openai.com/docs/api-
// reference/realtime, `OpenAI-Beta: realtime=v1`; the GA event names `response.output_audio.*` are taken too):
// - GET wss <base>/realtime?model=<model>, `Authorization: Bearer <key>`; the server opens with session.created.
// - session.update: instructions, voice, pcm16 both ways (24 kHz), input_audio_transcription (whisper-1),
//   turn_detection server_vad (the server starts each reply when the caller stops, and cancels it when they
//   speak over it), tools, temperature, max_response_output_tokens; answered by session.updated.
// - input_audio_buffer.append {audio}; the server tells input_audio_buffer.speech_started / speech_stopped and
//   conversation.item.input_audio_transcription.completed {transcript}.
// - A reply: response.created, response.output_item.added, response.audio.delta {delta}, response.audio_
//   transcript.delta / .done, response.function_call_arguments.done {call_id, name, arguments}, response.done
//   {response: {status, output, usage}}.
// - Tool results: conversation.item.create {type: function_call_output, call_id, output}, then response.create.
// - Barge-in: response.cancel (while a reply is under way) and conversation.item.truncate {item_id,
//   content_index: 0, audio_end_ms} to what the caller heard.
// - error {error: {type, code, message, event_id}}: an error caused by a cancel, truncate or response.create of
//   ours that came too late is harmless (the session goes on); any other fails the session.
import type { ChatUsage, ToolCall, ToolSpec } from '../chat-model';
import { apiBaseUrl } from '../api-base-url';
import { LlmError } from '../llm-error';
import { pcm16FromBase64, pcm16ToBase64 } from './realtime-audio';
import type {
  RealtimeContextLine,
  RealtimeEvent,
  RealtimeResponseStatus,
  RealtimeSession,
  RealtimeSessionConfig,
  RealtimeToolResult,
} from './realtime-session';
import { opened, RealtimeSessionBase } from './realtime-session-base';
import { socketBase } from './realtime-socket';

/** OpenAI Realtime's audio rate (pcm16), both ways. */
export const OPENAI_REALTIME_SAMPLE_RATE = 24_000;
/** The caller's words are transcribed by this model (the Realtime model does not transcribe its input itself). */
export const OPENAI_REALTIME_TRANSCRIPTION_MODEL = 'whisper-1';

/** Client events whose errors mean only that they came too late (the reply was already over, the item gone). */
const LATE_EVENTS = new Set(['response.cancel', 'conversation.item.truncate', 'response.create']);

/** The Realtime URL of a model on an OpenAI API base (`https://api.openai.com/v1` -> wss .../v1/realtime). */
export function openAiRealtimeUrl(baseUrl: string, model: string): string {
  return `${socketBase(apiBaseUrl(baseUrl))}/realtime?${new URLSearchParams({ model })}`;
}

/** Tools as the Realtime session takes them. */
function realtimeTools(tools: readonly ToolSpec[]): Record<string, unknown>[] {
  return tools.map((t) => ({
    type: 'function',
    name: t.name,
    description: t.description,
    parameters: t.parameters,
  }));
}

/** A line said before, as a conversation item. */
function contextItem(line: RealtimeContextLine): Record<string, unknown> {
  return {
    type: 'message',
    role: line.role,
    content: [{ type: line.role === 'assistant' ? 'text' : 'input_text', text: line.text }],
  };
}

/** A tool call's arguments: the JSON object the model wrote, or none when it wrote something else. */
function parseArguments(text: unknown): Record<string, unknown> {
  if (typeof text !== 'string' || !text.trim()) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const obj = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** The reply under way. */
interface Reply {
  id: string;
  transcript: string;
  /** The provider's final transcript (response.audio_transcript.done), which wins over the deltas. */
  finalTranscript: string | null;
  calls: ToolCall[];
  /** The caller spoke over it: its audio is dropped from here on. */
  cut: boolean;
}

export class OpenAiRealtimeSession extends RealtimeSessionBase implements RealtimeSession {
  readonly provider = 'openai' as const;
  private reply: Reply | null = null;
  /** The assistant audio item of the latest reply, and the audio of it received (ms), for a truncate. */
  private audioItem: { id: string; ms: number; complete: boolean; truncated: boolean } | null = null;
  private eventCount = 0;
  /** What each client event we sent was, by its event_id, so an error can be traced to it. */
  private readonly sent = new Map<string, string>();

  constructor(config: RealtimeSessionConfig, onEvent: (event: RealtimeEvent) => void) {
    super(config, onEvent, {
      url: openAiRealtimeUrl(config.baseUrl, config.model),
      headers: { authorization: `Bearer ${config.apiKey}`, 'openai-beta': 'realtime=v1' },
      label: 'OpenAI Realtime',
      inputRate: OPENAI_REALTIME_SAMPLE_RATE,
      outputRate: OPENAI_REALTIME_SAMPLE_RATE,
    });
  }

  sendAudio(pcm: Int16Array): void {
    if (this.closed || !this.configured) return;
    const samples = this.input.push(pcm);
    if (samples.length) this.send('input_audio_buffer.append', { audio: pcm16ToBase64(samples) });
  }

  interrupt(playedMs: number): void {
    if (this.closed) return;
    const reply = this.reply;
    if (reply && !reply.cut) {
      reply.cut = true;
      this.send('response.cancel', {});
    }
    this.output.reset();
    // The item may hold more audio than came (generated before the cancel): it is cut unless all of it was heard.
    const item = this.audioItem;
    if (item && !item.truncated && (!item.complete || playedMs < item.ms)) {
      item.truncated = true;
      this.send('conversation.item.truncate', {
        item_id: item.id,
        content_index: 0,
        audio_end_ms: Math.max(0, Math.floor(Math.min(playedMs, item.ms))),
      });
    }
  }

  sendToolResults(results: readonly RealtimeToolResult[], respond: boolean): void {
    if (this.closed) return;
    for (const result of results) {
      this.send('conversation.item.create', {
        item: { type: 'function_call_output', call_id: result.callId, output: result.output },
      });
    }
    if (respond) this.respond();
  }

  addContext(lines: readonly RealtimeContextLine[]): void {
    if (this.closed) return;
    for (const line of lines) this.send('conversation.item.create', { item: contextItem(line) });
  }

  respond(): void {
    if (this.closed) return;
    this.send('response.create', {});
    this.socket.expect();
  }

  update(instructions: string, tools: readonly ToolSpec[]): boolean {
    if (this.closed) return false;
    this.send('session.update', {
      session: { instructions, tools: realtimeTools(tools), tool_choice: tools.length ? 'auto' : 'none' },
    });
    return true;
  }

  private send(type: string, body: Record<string, unknown>): void {
    const eventId = `evt_vap_${++this.eventCount}`;
    if (type !== 'input_audio_buffer.append') {
      this.sent.set(eventId, type);
      // Only recent events can still be answered with an error.
      if (this.sent.size > 256) this.sent.delete(this.sent.keys().next().value as string);
    }
    this.socket.send({ event_id: eventId, type, ...body });
  }

  private configure(): void {
    const { config } = this;
    this.send('session.update', {
      session: {
        modalities: ['audio', 'text'],
        instructions: config.instructions,
        ...(config.voice ? { voice: config.voice } : {}),
        input_audio_format: 'pcm16',
        output_audio_format: 'pcm16',
        input_audio_transcription: { model: OPENAI_REALTIME_TRANSCRIPTION_MODEL },
        turn_detection: { type: 'server_vad', create_response: true, interrupt_response: true },
        tools: realtimeTools(config.tools),
        tool_choice: config.tools.length ? 'auto' : 'none',
        ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
        ...(config.maxTokens !== undefined ? { max_response_output_tokens: config.maxTokens } : {}),
      },
    });
    if (config.context?.length) this.addContext(config.context);
  }

  protected handle(message: Record<string, unknown>): void {
    if (this.closed) return;
    switch (message.type) {
      case 'session.created':
        if (!this.configured) this.configure();
        return;
      case 'session.updated':
        if (!this.configured) this.opened();
        return;
      case 'input_audio_buffer.speech_started':
        // The caller has the floor again: no reply is due until they stop (the server cancels one under way).
        this.socket.settle();
        this.onEvent({ type: 'caller.speech_started' });
        return;
      case 'input_audio_buffer.speech_stopped':
        this.socket.expect();
        this.onEvent({ type: 'caller.speech_stopped' });
        return;
      case 'conversation.item.input_audio_transcription.completed': {
        const text = str(message.transcript)?.trim();
        if (text) this.onEvent({ type: 'caller.transcript', text });
        return;
      }
      case 'response.created': {
        const id = str(obj(message.response)?.id) ?? `resp_${this.eventCount}`;
        this.startReply(id);
        return;
      }
      case 'response.output_item.added': {
        const item = obj(message.item);
        if (item?.type === 'message' && str(item.id))
          this.audioItem = { id: item.id as string, ms: 0, complete: false, truncated: false };
        return;
      }
      case 'response.audio.delta':
      case 'response.output_audio.delta':
        return this.audio(message);
      case 'response.audio.done':
      case 'response.output_audio.done':
        return this.audioDone();
      case 'response.audio_transcript.delta':
      case 'response.output_audio_transcript.delta': {
        const reply = this.replyOf(message);
        const delta = str(message.delta);
        if (!reply || !delta) return;
        reply.transcript += delta;
        this.onEvent({ type: 'response.transcript', responseId: reply.id, delta });
        return;
      }
      case 'response.audio_transcript.done':
      case 'response.output_audio_transcript.done': {
        const reply = this.replyOf(message);
        const transcript = str(message.transcript);
        if (reply && transcript !== undefined) reply.finalTranscript = transcript;
        return;
      }
      case 'response.function_call_arguments.done': {
        const reply = this.replyOf(message);
        const callId = str(message.call_id);
        const name = str(message.name);
        if (!reply || !callId || !name || reply.calls.some((c) => c.id === callId)) return;
        reply.calls.push({ id: callId, name, arguments: parseArguments(message.arguments) });
        return;
      }
      case 'response.done':
        return this.replyDone(obj(message.response) ?? {});
      case 'error':
        return this.error(obj(message.error) ?? {});
      default:
        return;
    }
  }

  private startReply(id: string): Reply {
    this.output.reset();
    // A barge-in from now on cuts this reply's audio, not the last one's.
    this.audioItem = null;
    this.reply = { id, transcript: '', finalTranscript: null, calls: [], cut: false };
    this.socket.expect();
    this.onEvent({ type: 'response.started', responseId: id });
    return this.reply;
  }

  /** The reply a message belongs to (one the server started without response.created is started here). */
  private replyOf(message: Record<string, unknown>): Reply | null {
    const id = str(message.response_id);
    if (this.reply && (!id || this.reply.id === id)) return this.reply;
    // A message of a reply already over (cut, done) is dropped.
    if (id && this.reply === null) return this.startReply(id);
    return null;
  }

  private audio(message: Record<string, unknown>): void {
    const reply = this.replyOf(message);
    const data = str(message.delta);
    if (!reply || !data) return;
    const samples = pcm16FromBase64(data);
    const itemId = str(message.item_id);
    if (itemId && this.audioItem?.id !== itemId)
      this.audioItem = { id: itemId, ms: 0, complete: false, truncated: false };
    if (this.audioItem) this.audioItem.ms += (samples.length * 1000) / OPENAI_REALTIME_SAMPLE_RATE;
    if (reply.cut) return;
    const pcm = this.output.push(samples);
    if (pcm.length) this.onEvent({ type: 'response.audio', responseId: reply.id, pcm });
  }

  private audioDone(): void {
    if (this.audioItem) this.audioItem.complete = true;
    const reply = this.reply;
    if (!reply || reply.cut) return;
    const tail = this.output.flush();
    if (tail.length) this.onEvent({ type: 'response.audio', responseId: reply.id, pcm: tail });
  }

  private replyDone(response: Record<string, unknown>): void {
    const id = str(response.id);
    const reply = this.reply && (!id || this.reply.id === id) ? this.reply : null;
    if (!reply) return;
    this.audioDone();
    this.reply = null;
    this.socket.settle();
    const status = replyStatus(response.status, reply.cut);
    if (status === 'failed') {
      const details = obj(obj(response.status_details)?.error);
      return this.socket.fail(
        new LlmError(`OpenAI Realtime reply failed: ${str(details?.message) ?? 'no reason given'}`, 'status'),
      );
    }
    // Tool calls the reply's output holds that no arguments.done event told (the output is the record).
    for (const item of Array.isArray(response.output) ? response.output : []) {
      const entry = obj(item);
      const callId = str(entry?.call_id);
      const name = str(entry?.name);
      if (entry?.type !== 'function_call' || !callId || !name) continue;
      if (!reply.calls.some((c) => c.id === callId))
        reply.calls.push({ id: callId, name, arguments: parseArguments(entry.arguments) });
    }
    this.onEvent({
      type: 'response.done',
      responseId: reply.id,
      status,
      transcript: (reply.finalTranscript ?? reply.transcript).trim(),
      toolCalls: status === 'completed' ? reply.calls : [],
      usage: usageOf(obj(response.usage)),
    });
  }

  private error(error: Record<string, unknown>): void {
    const cause = this.sent.get(str(error.event_id) ?? '');
    const text = `OpenAI Realtime error${str(error.code) ? ` ${error.code as string}` : ''}: ${
      str(error.message) ?? 'no message'
    }`;
    if (this.configured && cause && LATE_EVENTS.has(cause)) return;
    this.socket.fail(new LlmError(text, 'protocol'));
  }
}

function replyStatus(status: unknown, cut: boolean): RealtimeResponseStatus {
  if (status === 'failed') return 'failed';
  if (status === 'cancelled' || cut) return 'cancelled';
  if (status === 'incomplete') return 'incomplete';
  return 'completed';
}

function usageOf(usage: Record<string, unknown> | undefined): ChatUsage | null {
  const input = num(usage?.input_tokens);
  const output = num(usage?.output_tokens);
  return input === undefined && output === undefined
    ? null
    : { inputTokens: input ?? 0, outputTokens: output ?? 0 };
}

/** Opens an OpenAI Realtime session; resolves once it took its configuration. */
export async function openOpenAiRealtime(
  config: RealtimeSessionConfig,
  onEvent: (event: RealtimeEvent) => void,
): Promise<RealtimeSession> {
  return opened(new OpenAiRealtimeSession(config, onEvent));
}
