// Runs the model's tool calls of one round in order: refuses the ones past their limits, tells the client which
// tool runs, records each invocation, and keeps the history well formed (every call gets its result, now or,
// when the caller spoke over them, as a late answer).

import {
  CUSTOM_FUNCTION_CALLS_PER_CALL,
  CUSTOM_FUNCTION_CALLS_PER_TURN,
  TOOL_CALL_MAX_ARGUMENT_BYTES,
} from '@vap/messages';
import type { ChatMessage, ToolCall } from '@vap/llm';
import type { MediaStreamNotice } from '@vap/media';
import type { AgentServices } from '../call-platform';
import type { ControlledTurn, TurnControls } from '../call-control-port';
import type { ConversationPort, CurrentTurn } from '../conversation-port';
import type { LateResults } from './late-results';
import type { ToolRegistry } from './registry';
import type { ConversationTool, ToolInvocation, ToolTurn } from './tool';

/** The turn whose tool calls run, as the runner uses it. */
export interface ToolRound {
  readonly turn: CurrentTurn & { customCalls: number; readonly failure: Error | null };
  /** Adds a sentence to the reply's current line. */
  say(sentence: string): void;
  /** Speaks a line of its own after what the turn said so far; the reply continues in a new line. */
  sayApart(sentence: string): void;
  /** Ends the reply's line and waits until everything the turn said has played (or was cut). */
  finishSaying(): Promise<void>;
  /** Plays audio as a line of its own after what the turn said so far; true when all of it played. */
  play(label: string, audio: Int16Array): Promise<boolean>;
}

export interface ToolRunnerOptions {
  tools: ToolRegistry;
  /** The model's history: tool results are appended to it. */
  history: ChatMessage[];
  controls: TurnControls;
  services: AgentServices;
  lateResults: LateResults;
  /** Aborted when the call ends. */
  callSignal: AbortSignal;
  setVariables(values: Record<string, unknown>): boolean;
  /** Reports one invocation to the call's session. */
  record(entry: ToolInvocation): void;
  notify(notice: MediaStreamNotice): void;
}

/** Tool calls the history holds without their results yet (a turn running them). */
interface OpenToolCalls {
  readonly calls: ToolCall[];
  readonly results: Map<string, string>;
  /** The calls that were started (the others were refused or not reached). */
  readonly ran: Set<string>;
  /** Set once the caller spoke over them: the calls whose results were not known then. */
  closedWithout: ToolCall[] | null;
}

export class ToolRunner {
  /** Partner functions called on this call (CUSTOM_FUNCTION_CALLS_PER_CALL). */
  private customCalls = 0;
  /** The model's tool calls of a turn whose results are not in the history yet. */
  private openTools: OpenToolCalls | null = null;

  constructor(
    private readonly port: ConversationPort,
    private readonly options: ToolRunnerOptions,
  ) {}

  /** Tool calls of a turn the caller spoke over are still running. */
  get open(): boolean {
    return this.openTools !== null;
  }

  /** Runs the model's tool calls in order; 'stop' when the turn is over (call ended, transferred, or not). */
  async run(round: ToolRound, calls: ToolCall[]): Promise<'continue' | 'stop'> {
    const { port, options } = this;
    const { turn } = round;
    const results = new Map<string, string>();
    const open: OpenToolCalls = { calls, results, ran: new Set(), closedWithout: null };
    this.openTools = open;
    let outcome: 'continue' | 'stop' = 'continue';
    const followUps: string[] = [];
    const names = calls.map((call) => call.name);
    port.events.emit('toolsStarted', { names });
    /** The tool running now: told done with its outcome, or cancelled should the turn be given up under it. */
    let running: { name: string; startedAt: number } | null = null;
    try {
      for (const call of calls) {
        if (outcome === 'stop') {
          results.set(call.id, 'Not run: the call moved on.');
          continue;
        }
        const tool = options.tools.get(call.name);
        if (!tool) {
          results.set(call.id, `Unknown tool ${call.name}.`);
          continue;
        }
        const refused = this.overLimit(turn, tool);
        if (refused) {
          results.set(call.id, refused);
          options.record({
            name: tool.name,
            kind: tool.kind,
            functionId: tool.functionId,
            arguments: call.arguments,
            outcome: 'limit_reached',
            latencyMs: 0,
            logId: null,
          });
          continue;
        }
        options.notify({
          type: 'tool',
          name: call.name,
          status: 'running',
          ...shownArguments(call.arguments),
        });
        running = { name: call.name, startedAt: performance.now() };
        open.ran.add(call.id);
        // The session's timestamp is when the model called the tool, not when it finished (a transfer's
        // ringing, a handoff's goodbye): a record without a time of its own gets this one.
        const calledAtMs = Math.round(port.clock.now());
        const stamped = (entry: ToolInvocation): ToolInvocation => ({
          ...entry,
          atMs: entry.atMs ?? calledAtMs,
        });
        // What the tool recorded of itself while it ran (the built-in tools record as they go).
        let recorded: ToolInvocation | null = null;
        const run = await tool.run(
          call,
          this.toolTurn(round, tool, followUps, (entry) => (recorded ??= entry), stamped),
        );
        results.set(call.id, run.result);
        if (run.invocation) options.record(stamped(run.invocation));
        const invocation: ToolInvocation | null = run.invocation ?? recorded;
        options.notify({
          type: 'tool',
          name: call.name,
          status: 'done',
          // An async function answers later: its outcome is recorded then.
          outcome: invocation?.outcome ?? 'pending',
          latency_ms: invocation?.latencyMs ?? Math.round(performance.now() - running.startedAt),
        });
        running = null;
        if (run.followUp) followUps.push(run.followUp);
        // A tool that answered after the caller spoke over the turn: the rest of the turn is not run.
        if (run.stop || (turn.controller.signal.aborted && !turn.committed)) outcome = 'stop';
      }
    } finally {
      if (running !== null) {
        options.notify({
          type: 'tool',
          name: running.name,
          status: 'done',
          outcome: 'cancelled',
          latency_ms: Math.round(performance.now() - running.startedAt),
        });
      }
      if (this.openTools === open) this.openTools = null;
      if (open.closedWithout === null) {
        // Every tool call gets its result, so the next model request is well formed.
        for (const call of calls) {
          options.history.push({
            role: 'tool',
            tool_call_id: call.id,
            content: results.get(call.id) ?? 'Not run.',
          });
        }
      } else {
        // The caller spoke first and the history went on without these answers: they join it now.
        for (const call of open.closedWithout) {
          const result = results.get(call.id);
          if (result !== undefined && open.ran.has(call.id)) options.lateResults.add(call, result);
        }
      }
      port.events.emit('toolsFinished', { names });
    }
    // Said only now: the tool results must follow the model's tool calls directly in the history.
    for (const text of followUps) port.say(text);
    return outcome;
  }

  /**
   * The caller speaks while a turn's tools still run: their calls get results now (the ones known, else that
   * the answer is still to come), so the caller's words follow a well-formed history. The answers still to come
   * join it as late results.
   */
  closeOpen(): void {
    const open = this.openTools;
    if (!open) return;
    this.openTools = null;
    open.closedWithout = open.calls.filter((call) => !open.results.has(call.id));
    for (const call of open.calls) {
      this.options.history.push({
        role: 'tool',
        tool_call_id: call.id,
        content: open.results.get(call.id) ?? 'Interrupted: the caller spoke before it finished.',
      });
    }
  }

  /** Why a partner function may not run now (the per-turn or per-call bound), or null when it may. */
  private overLimit(turn: ToolRound['turn'], tool: ConversationTool): string | null {
    if (tool.kind !== 'custom') return null;
    if (this.customCalls >= CUSTOM_FUNCTION_CALLS_PER_CALL)
      return `Not run: the limit of ${CUSTOM_FUNCTION_CALLS_PER_CALL} function calls on this call was reached. Carry on without it.`;
    if (turn.customCalls >= CUSTOM_FUNCTION_CALLS_PER_TURN)
      return `Not run: the limit of ${CUSTOM_FUNCTION_CALLS_PER_TURN} function calls in one turn was reached. Answer the caller now.`;
    turn.customCalls++;
    this.customCalls++;
    return null;
  }

  /** What a tool may do in this turn. */
  private toolTurn(
    round: ToolRound,
    tool: ConversationTool,
    followUps: string[],
    onRecord: (entry: ToolInvocation) => void,
    stamped: (entry: ToolInvocation) => ToolInvocation,
  ): ToolTurn {
    const { port, options } = this;
    const { turn } = round;
    const controlled: ControlledTurn = {
      controller: turn.controller,
      get committed() {
        return turn.committed;
      },
      set committed(value: boolean) {
        turn.committed = value;
      },
      get failure() {
        return turn.failure;
      },
      say: round.say,
      finishSaying: round.finishSaying,
      play: round.play,
      followUp: (text) => followUps.push(text),
    };
    return {
      control: options.controls.forTurn(tool.name, controlled),
      context: {
        agent: port.agent,
        // Read when the tool asks: the variables change as functions answer.
        get variables() {
          return port.variables;
        },
        setVariables: options.setVariables,
        services: options.services,
        callSignal: options.callSignal,
        clock: port.clock,
        deliverLater: (call, result, { speak }) => options.lateResults.deliver(call, result, speak),
        record: (entry) => {
          onRecord(entry);
          options.record(stamped(entry));
        },
        onError: (error, context) => port.onError(error, context),
      },
      speech: {
        say: (sentence) => {
          if (!turn.controller.signal.aborted) round.sayApart(sentence);
        },
        sayAside: (text) => {
          if (!port.ending) port.say(text);
        },
        prepare: (text) => {
          if (!turn.controller.signal.aborted) port.voice.prepare(text);
        },
      },
      // Read when the tool asks: the turn may be given up meanwhile.
      get abandoned() {
        return turn.controller.signal.aborted || port.ending;
      },
    };
  }
}

/**
 * A tool call's arguments as a client is shown them: as given, or (past TOOL_CALL_MAX_ARGUMENT_BYTES, as the
 * session's record cuts them) none, marked cut.
 */
function shownArguments(args: Record<string, unknown>): {
  arguments: Record<string, unknown>;
  arguments_truncated?: true;
} {
  let bytes: number;
  try {
    bytes = Buffer.byteLength(JSON.stringify(args ?? {}));
  } catch {
    bytes = Infinity;
  }
  return bytes > TOOL_CALL_MAX_ARGUMENT_BYTES
    ? { arguments: {}, arguments_truncated: true }
    : { arguments: args ?? {} };
}
