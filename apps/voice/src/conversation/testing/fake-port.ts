// Test kit for the conversation's units: a ConversationPort whose clock is stepped by hand and whose voice,
// caller and endings are plain records, so a unit's policy can be driven event by event.

import type { ChatMessage } from '@vap/llm';
import { TurnTakingSnapshotDefaults, type AgentSnapshot, type VoiceTranscriptRequest } from '@vap/messages';
import type { TurnTakingEvent } from '../conversation-contract';
import type { AgentModel } from '../model-round';
import {
  ConversationEventBus,
  type AgentVoice,
  type CallerLine,
  type ConversationPort,
  type CurrentTurn,
  type EndOptions,
  type MediaClock,
} from '../conversation-port';
import { agentSettings } from './conversation-harness';

/** A media clock that moves only when told to (advance), running the timers that come due in order. */
export class ManualClock implements MediaClock {
  private nowMs = 0;
  private timers: { dueAt: number; fn: () => void; id: number }[] = [];
  private nextId = 0;

  now(): number {
    return this.nowMs;
  }

  after(mediaMs: number, fn: () => void): () => void {
    const id = this.nextId++;
    this.timers.push({ dueAt: this.nowMs + Math.max(0, mediaMs), fn, id });
    return () => (this.timers = this.timers.filter((t) => t.id !== id));
  }

  sleep(mediaMs: number): Promise<void> {
    return new Promise((resolve) => this.after(mediaMs, resolve));
  }

  /** Timers waiting. */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves the clock `ms` on, running each timer due on the way at its moment. */
  advance(ms: number): void {
    const until = this.nowMs + ms;
    for (;;) {
      const due = this.timers
        .filter((t) => t.dueAt <= until)
        .sort((a, b) => a.dueAt - b.dueAt || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.nowMs = due.dueAt;
      due.fn();
    }
    this.nowMs = until;
  }
}

export class FakeVoice implements AgentVoice {
  busy = false;
  audible = false;
  holding = false;
  readonly prepared: string[] = [];
  interrupts = 0;

  hold(): boolean {
    if (this.holding || !this.audible) return false;
    this.holding = true;
    return true;
  }
  release(): void {
    this.holding = false;
  }
  interrupt(): boolean {
    this.interrupts++;
    const was = this.audible || this.busy;
    this.audible = this.busy = this.holding = false;
    return was;
  }
  prepare(text: string): void {
    this.prepared.push(text);
  }
  /** Audio looped (hold audio), and whether each loop is still playing. */
  readonly loops: { audio: Int16Array; signal: AbortSignal }[] = [];
  async loop(audio: Int16Array, signal: AbortSignal): Promise<void> {
    this.loops.push({ audio, signal });
    this.busy = this.audible = true;
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  }
}

export class FakePort implements ConversationPort {
  readonly events = new ConversationEventBus();
  readonly clock = new ManualClock();
  readonly voice = new FakeVoice();
  readonly caller: { -readonly [K in keyof CallerLine]: CallerLine[K] } = {
    speaking: false,
    heardMs: 0,
    listening: true,
  };
  readonly turnTaking = { ...TurnTakingSnapshotDefaults };
  agent: AgentSnapshot;
  variables: Record<string, unknown> = { name: 'Ada' };
  /** The model's history: a system prompt, then what was said. */
  history: ChatMessage[] = [{ role: 'system', content: 'You are the first agent.' }];
  readonly callSignal = new AbortController().signal;
  /** What complete() answers, and what it was asked. */
  completion: string | Error = 'A short summary.';
  readonly completions: ChatMessage[][] = [];
  /** Handoffs applied (useAgent) and turns the agent took by itself. */
  readonly handedTo: {
    agent: AgentSnapshot;
    context: ChatMessage[];
    variables: Record<string, unknown>;
    models: readonly AgentModel[] | null;
  }[] = [];
  spokeUp = 0;
  live = true;
  ending = false;
  turn: CurrentTurn | null = null;
  /** What was said, with its options. */
  readonly said: { text: string; remember?: boolean; notice?: boolean }[] = [];
  readonly ends: { reason: string; farewell: string | null; options: EndOptions }[] = [];
  readonly finishes: { reason: string; hangup: boolean }[] = [];
  readonly reported: Omit<VoiceTranscriptRequest, 'callId' | 'callSeconds'>[] = [];
  readonly observed: TurnTakingEvent[] = [];
  readonly errors: string[] = [];

  constructor(agent: Partial<AgentSnapshot> = {}) {
    this.agent = agentSettings(agent);
  }

  /** Media passes with the caller's line carrying audio all along (no stall). */
  pass(ms: number): void {
    this.caller.heardMs += ms;
    this.clock.advance(ms);
  }

  say(text: string, options: { remember?: boolean; notice?: boolean } = {}): void {
    this.said.push({ text, ...options });
  }
  async endWith(reason: string, farewell: string | null, options: EndOptions): Promise<void> {
    if (!this.beginEnding(reason)) return;
    this.ends.push({ reason, farewell, options });
  }
  beginEnding(reason: string): boolean {
    if (this.ending || !this.live) return false;
    this.ending = true;
    this.events.emit('ending', { reason });
    return true;
  }
  async finish(reason: string, hangup: boolean): Promise<void> {
    this.finishes.push({ reason, hangup });
  }
  async complete(messages: ChatMessage[]): Promise<string> {
    this.completions.push(messages);
    if (this.completion instanceof Error) throw this.completion;
    return this.completion;
  }
  /** What modelsOf answers (null: they could not be had), and the agents it was asked about. */
  models: readonly AgentModel[] | null = null;
  readonly modelsAsked: AgentSnapshot[] = [];
  async modelsOf(agent: AgentSnapshot): Promise<readonly AgentModel[] | null> {
    this.modelsAsked.push(agent);
    return this.models;
  }
  useAgent(
    agent: AgentSnapshot,
    context: ChatMessage[],
    variables: Record<string, unknown>,
    models: readonly AgentModel[] | null,
  ): void {
    this.agent = agent;
    this.variables = variables;
    this.handedTo.push({ agent, context, variables, models });
  }
  speakUp(): void {
    this.spokeUp++;
  }
  report(line: Omit<VoiceTranscriptRequest, 'callId' | 'callSeconds'>): void {
    this.reported.push(line);
  }
  observe(event: TurnTakingEvent): void {
    this.observed.push(event);
  }
  onError(_error: unknown, context: string): void {
    this.errors.push(context);
  }
}

/** A turn under way, as the port holds it. */
export function turnOf(committed = false): CurrentTurn {
  return { controller: new AbortController(), committed };
}
