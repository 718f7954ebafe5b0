// Answers that come after their turn: an async function's answer, or a tool the caller spoke over. They join the
// history at the next model round (never between a tool call and its result), and an answer that asks for it is
// spoken about as soon as the agent is idle and the caller is not speaking.

import type { ChatMessage, ToolCall } from '@vap/llm';
import type { ConversationPort } from '../conversation-port';

export interface LateResultsOptions {
  /** Whether something else holds the floor beyond what the port knows (an early reply, an overlap, open tools). */
  floorTaken(): boolean;
  /** The agent takes a round by itself, with the late answers in its history. */
  speakUp(): void;
}

export class LateResults {
  private readonly waiting: ChatMessage[] = [];
  /** An answer waits for the agent to be idle to be spoken about. */
  private roundWanted = false;

  constructor(
    private readonly port: ConversationPort,
    private readonly options: LateResultsOptions,
  ) {
    // Wherever the agent may fall idle, an answer that came is spoken about first (before the idle timer arms:
    // this unit is made before the idle controller, so its listeners run first).
    port.events.on('live', ({ intro }) => !intro && this.speakIfIdle());
    port.events.on('agentLineDone', () => this.speakIfIdle());
    port.events.on('turnEnded', () => this.speakIfIdle());
    port.events.on('callerWords', () => this.speakIfIdle());
  }

  /** Whether answers wait for the next model round. */
  get pending(): boolean {
    return this.waiting.length > 0;
  }

  /** The answers waiting, for the next model round's history; they are no longer waiting. */
  take(): ChatMessage[] {
    return this.waiting.splice(0);
  }

  /** An async function's answer: into the history at the next round; spoken about when the agent is free. */
  deliver(call: ToolCall, result: string, speak: boolean): void {
    if (this.port.ending || !this.port.live) return;
    this.add(call, result);
    if (speak) this.roundWanted = true;
    this.speakIfIdle();
  }

  /** A tool's answer that came after its turn: its own call and result, so any model reads it as the tool's. */
  add(call: ToolCall, result: string): void {
    const answer: ToolCall = { ...call, id: `${call.id}-answer` };
    this.waiting.push(
      { role: 'assistant', content: null, tool_calls: [answer] },
      { role: 'tool', tool_call_id: answer.id, content: result },
    );
  }

  /** Speaks about answers that came, once the agent is idle and the caller is not speaking. */
  private speakIfIdle(): void {
    const { port } = this;
    if (!this.roundWanted || this.waiting.length === 0) return;
    if (port.ending || !port.live || port.turn || this.options.floorTaken()) return;
    if (port.voice.busy || port.caller.speaking) return;
    this.roundWanted = false;
    this.options.speakUp();
  }
}
