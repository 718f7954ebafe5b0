// What a unit of the conversation (turn policy, early reply, idle, call control, call cap, late results) may ask
// of it, and the events it may listen to. Units depend on this port only, never on the Conversation class, so a
// policy can be read, tested and changed on its own; the conversation keeps the turn loop and implements it.

import type { AgentSnapshot, TurnTakingSnapshot, VoiceTranscriptRequest } from '@vap/messages';
import type { ChatMessage } from '@vap/llm';
import type { SpokenLine } from './agent-speech';
import type { TurnTakingEvent } from './conversation-contract';
import type { AgentModel } from './model-round';

/** What happened on the call, in the order it happened. */
export interface ConversationEvents {
  /** The stream started and the call is live; `intro`: the agent opens with its intro line. */
  live: { intro: boolean };
  /** The caller took the floor: speech began, a key was pressed, or a line was typed. */
  callerStarted: { by: 'speech' | 'key' | 'text' };
  /** The caller is typing a line (a browser session's `typing`): silent, but there; not the floor. */
  callerTyping: Record<string, never>;
  /** The caller's final words of an utterance, once the conversation acted on them (a turn taken, or not). */
  callerWords: { text: string };
  /** An agent line finished: played out, or cut. */
  agentLineDone: { line: SpokenLine };
  /** The agent's turn (a reply to the caller, or one it takes by itself) started. */
  turnStarted: { unprompted: boolean };
  /** The agent's turn is over: answered, given up or failed (another may have taken its place). */
  turnEnded: Record<string, never>;
  /** The model's tool calls of a turn start running. */
  toolsStarted: { names: string[] };
  /** The turn's tool calls have run (or were given up); their results are in the history or to come late. */
  toolsFinished: { names: string[] };
  /** The call is ending for `reason`: the caller can no longer start turns. */
  ending: { reason: string };
  /** The conversation stopped every timer and provider. */
  closed: Record<string, never>;
}

type Listener<T> = (event: T) => void;

/** A small typed event emitter: listeners run in the order they were added, synchronously. */
export class ConversationEventBus {
  private readonly listeners = new Map<keyof ConversationEvents, Listener<never>[]>();

  on<K extends keyof ConversationEvents>(type: K, listener: Listener<ConversationEvents[K]>): () => void {
    const list = this.listeners.get(type) ?? [];
    list.push(listener as Listener<never>);
    this.listeners.set(type, list);
    return () => {
      const at = list.indexOf(listener as Listener<never>);
      if (at >= 0) list.splice(at, 1);
    };
  }

  emit<K extends keyof ConversationEvents>(type: K, event: ConversationEvents[K]): void {
    for (const listener of [...(this.listeners.get(type) ?? [])])
      (listener as Listener<ConversationEvents[K]>)(event);
  }
}

/** The call's media clock: ms since the stream started, and timers that die with the call. */
export interface MediaClock {
  now(): number;
  /** Runs `fn` after `mediaMs` of media time; returns its cancel. */
  after(mediaMs: number, fn: () => void): () => void;
  sleep(mediaMs: number, signal?: AbortSignal): Promise<void>;
}

/** The agent's turn under way, as a unit sees it. */
export interface CurrentTurn {
  /** Aborted when the turn is given up (barge-in, the call ending): its model, synthesis and tools stop. */
  readonly controller: AbortController;
  /** Transfer or end call under way: the caller can no longer interrupt it. */
  committed: boolean;
}

/** The agent's voice, as turn-taking uses it. */
export interface AgentVoice {
  /** Something is queued or playing. */
  readonly busy: boolean;
  /** Audio the caller can hear is playing. */
  readonly audible: boolean;
  readonly holding: boolean;
  /** Goes quiet without giving the line up; false when there was nothing to hold. */
  hold(): boolean;
  /** Goes on from the sentence the hold cut. */
  release(): void;
  /** Cuts what is playing and queued; true when something was. */
  interrupt(): boolean;
  /** Synthesises a line that may be due later now, so it starts on time. */
  prepare(text: string): void;
  /**
   * Plays `audio` (PCM16 8 kHz, no speech: hold audio) over and over, in no transcript line, until `signal` aborts
   * or the stream stops; interrupt() then cuts what is still queued.
   */
  loop(audio: Int16Array, signal: AbortSignal): Promise<void>;
}

/** The caller's side of the line. */
export interface CallerLine {
  /** Between the detector's speech start and the endpoint. */
  readonly speaking: boolean;
  /** Media ms of the caller's audio the stream has carried. */
  readonly heardMs: number;
  /** Whether the caller's speech is taken (off while a transfer is asked or the call ends). */
  listening: boolean;
}

/** How the platform ends the call (see ConversationPort.end). */
export interface EndOptions {
  /** Cut what is playing first (as barge-in does). */
  interrupt: boolean;
  /** Media ms the farewell may take before the hang-up goes ahead anyway. */
  limitMs?: number;
  /** Media ms the farewell has to start in; once heard it may play on (within limitMs). */
  startLimitMs?: number;
  /** Wall ms per TTS chunk of the farewell. */
  timeoutMs?: number;
}

export interface ConversationPort {
  /** The agent holding the call: the one it started with, until a handoff. */
  readonly agent: AgentSnapshot;
  readonly turnTaking: TurnTakingSnapshot;
  readonly events: ConversationEventBus;
  readonly clock: MediaClock;
  readonly voice: AgentVoice;
  readonly caller: CallerLine;
  /** The call's variables as they are now (pre-call ones and what partner functions set since). */
  readonly variables: Readonly<Record<string, unknown>>;
  /** The call is live: started, and not yet over. */
  readonly live: boolean;
  /** The agent or the platform has decided how the call ends. */
  readonly ending: boolean;
  /** The agent's turn under way, if any. */
  readonly turn: CurrentTurn | null;
  /**
   * Speaks a line of the agent's own (outside the model's replies), in the model's history unless `remember` is
   * false; a `notice` cut before any of it was heard opens the next reply.
   */
  say(text: string, options?: { remember?: boolean; notice?: boolean }): void;
  /** The platform ends the call: stop the turn, say the farewell (bounded), hang up. */
  endWith(reason: string, farewell: string | null, options: EndOptions): Promise<void>;
  /** Marks the call as ending for `reason` (no more caller turns); false when it already is. */
  beginEnding(reason: string): boolean;
  /** Hangs up (when asked) and settles the conversation with `reason`. */
  finish(reason: string, hangup: boolean): Promise<void>;
  /** A line for the call's transcript (and the client that shows the call). */
  report(line: Omit<VoiceTranscriptRequest, 'callId' | 'callSeconds'>): void;
  /** The model's history as it is now, the system prompt first. */
  readonly history: readonly ChatMessage[];
  /** Aborted when the call ends. */
  readonly callSignal: AbortSignal;
  /** One answer of the agent's model to `messages`, without tools (a summary). */
  complete(messages: ChatMessage[], signal: AbortSignal): Promise<string>;
  /**
   * The models `agent` thinks with (asked at a handoff, before it takes over); null when they cannot be had: the
   * call stays on the models it has (the failure is logged).
   */
  modelsOf(agent: AgentSnapshot): Promise<readonly AgentModel[] | null>;
  /**
   * A handoff: `agent` holds the call from now on, with `context` after its system prompt and these variables,
   * thinking with `models` (modelsOf's; null keeps the models the call has).
   */
  useAgent(
    agent: AgentSnapshot,
    context: ChatMessage[],
    variables: Record<string, unknown>,
    models: readonly AgentModel[] | null,
  ): void;
  /** The agent takes a turn by itself (no caller words): it answers where the conversation is. */
  speakUp(): void;
  /** A turn-taking decision, for the replica's metrics. */
  observe(event: TurnTakingEvent): void;
  onError(error: unknown, context: string): void;
}
