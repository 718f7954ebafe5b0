// A partner's function (agent.custom_functions) as a tool: the model calls it, the agents service validates the
// arguments and makes the request, and the agent speaks around it as the function's speech settings say.

import { AppError, ErrorCode } from '@vap/messages';
import type { CustomFunctionInvokeReply, CustomFunctionSnapshot, ToolCallOutcome } from '@vap/messages';
import type { ToolCall } from '@vap/llm';
import { Aborted } from '../provider-failure';
import type { ConversationTool, ToolInvocation, ToolRun, ToolTurn } from './tool';

/** The result an async function's call gets at once; its answer joins the conversation when it comes. */
export function asyncPendingResult(name: string): string {
  return `The request to ${name} is running; its answer will come later. Carry on with the caller meanwhile.`;
}

/** What the model is told of one answer. */
export function customFunctionResult(
  spec: CustomFunctionSnapshot,
  reply: CustomFunctionInvokeReply,
  spokenFailure: string | null,
): string {
  switch (reply.outcome) {
    case 'success': {
      const set = Object.keys(reply.variables);
      const note = set.length ? `\n(Call variables now set: ${set.join(', ')}.)` : '';
      return (reply.result || 'Done; the function returned nothing.') + note;
    }
    case 'invalid_arguments':
      return (
        `The arguments were not valid, so nothing was sent: ${reply.error ?? 'they break the schema'}. ` +
        `Fix them and call ${spec.name} again, or ask the caller for what is missing.`
      );
    default: {
      const reason = reply.error ?? reply.outcome.replace('_', ' ');
      const told = spokenFailure
        ? `The function failed (${reason}). The caller has been told: "${spokenFailure}"`
        : `The function failed (${reason}). Tell the caller briefly that it did not work.`;
      // A non-2xx answer's body often says why (already bounded by the agents service, as a success's is).
      return reply.outcome === 'http_error' && reply.result
        ? `${told}\nThe server's answer:\n${reply.result}`
        : told;
    }
  }
}

/**
 * A request the agents service itself refused or did not answer, as an answer: a function deleted meanwhile
 * (404), arguments it refused outright (400), else no answer in time. Nothing reached the partner.
 */
function replyOfError(error: unknown): CustomFunctionInvokeReply {
  const base = { status: null, latencyMs: 0, result: '', variables: {}, logId: null };
  if (error instanceof AppError && error.code === ErrorCode.NOT_FOUND)
    return { ...base, outcome: 'not_found', error: 'the function no longer exists' };
  if (error instanceof AppError && error.code === ErrorCode.VALIDATION_ERROR) {
    const fields = error.details?.map((d) => `${d.field}: ${d.message}`).join('; ');
    return { ...base, outcome: 'invalid_arguments', error: fields || error.message };
  }
  return { ...base, outcome: 'timeout', error: 'the function did not answer in time' };
}

const FAILURES: ReadonlySet<ToolCallOutcome> = new Set([
  'http_error',
  'timeout',
  'refused',
  'not_found',
  'not_connected',
]);

export function customFunctionTool(spec: CustomFunctionSnapshot): ConversationTool {
  const record = (call: ToolCall, reply: CustomFunctionInvokeReply, atMs: number): ToolInvocation => ({
    name: spec.name,
    kind: 'custom',
    functionId: spec.id,
    arguments: call.arguments,
    outcome: reply.outcome,
    latencyMs: Math.round(reply.latencyMs),
    logId: reply.logId,
    atMs,
    ...(reply.outcome === 'success' && Object.keys(reply.variables).length
      ? { variables: reply.variables }
      : {}),
  });

  /** Sends the request; settles with the answer (an error of the agents service counts as one), or Aborted. */
  const invoke = async (call: ToolCall, turn: ToolTurn): Promise<CustomFunctionInvokeReply> => {
    const startedAt = performance.now();
    try {
      const { context } = turn;
      const reply = await context.services.invokeCustomFunction(
        spec,
        call.arguments,
        { ...context.variables },
        context.callSignal,
      );
      return reply;
    } catch (error) {
      if (error instanceof Aborted || turn.context.callSignal.aborted) throw new Aborted();
      turn.context.onError(error, `custom function ${spec.name}`);
      return { ...replyOfError(error), latencyMs: Math.round(performance.now() - startedAt) };
    }
  };

  /**
   * Applies an answer to the call: variables merged, the invocation recorded. Returns the answer as the model
   * is to see it (no variables when they could not be merged) and the failure line to say, if any.
   */
  const settle = (call: ToolCall, reply: CustomFunctionInvokeReply, atMs: number, turn: ToolTurn) => {
    const sets = reply.outcome === 'success' && Object.keys(reply.variables).length > 0;
    const merged = sets && turn.context.setVariables(reply.variables);
    turn.context.record(record(call, reply, atMs));
    return {
      told: merged || !sets ? reply : { ...reply, variables: {} },
      spoken: FAILURES.has(reply.outcome) ? spec.speech.onFailure : null,
    };
  };

  return {
    name: spec.name,
    kind: 'custom',
    functionId: spec.id,
    // The function's own speech (on_start, on_delay) is what is said while it runs.
    ackPhrase: null,

    async run(call, turn): Promise<ToolRun> {
      const atMs = Math.round(turn.context.clock.now());
      const startedAt = performance.now();
      const pending = invoke(call, turn);
      if (spec.speech.onStart) turn.speech.say(spec.speech.onStart);

      if (spec.async) {
        pending.then(
          (reply) => {
            const { told, spoken } = settle(call, reply, atMs, turn);
            if (spoken) turn.speech.sayAside(spoken);
            turn.context.deliverLater(call, customFunctionResult(spec, told, spoken), { speak: !spoken });
          },
          // The call ended first: nothing joins a conversation that is over.
          () => turn.context.record(cancelled(call, atMs, startedAt)),
        );
        return { result: asyncPendingResult(spec.name), invocation: null };
      }

      const onDelay = spec.speech.onDelay;
      // Ready by delay_ms, so it follows on_start without a pause the caller would take for their turn (on_failure
      // is rare enough not to be worth synthesising on every request).
      if (onDelay) turn.speech.prepare(onDelay);
      const cancelDelay = onDelay
        ? turn.context.clock.after(spec.speech.delayMs, () => {
            if (!turn.abandoned) turn.speech.say(onDelay);
          })
        : null;
      let reply: CustomFunctionInvokeReply;
      try {
        reply = await pending;
      } catch (error) {
        turn.context.record(cancelled(call, atMs, startedAt));
        throw error;
      } finally {
        cancelDelay?.();
      }
      const { told, spoken } = settle(call, reply, atMs, turn);
      // The caller has moved on (barge-in): nothing more is said, but the history keeps what the partner answered.
      if (turn.abandoned) return { result: customFunctionResult(spec, told, null), invocation: null };
      if (spoken) turn.speech.say(spoken);
      return { result: customFunctionResult(spec, told, spoken), invocation: null };
    },
  };

  function cancelled(call: ToolCall, atMs: number, startedAt: number): ToolInvocation {
    return {
      name: spec.name,
      kind: 'custom',
      functionId: spec.id,
      arguments: call.arguments,
      outcome: 'cancelled',
      latencyMs: Math.max(0, Math.round(performance.now() - startedAt)),
      logId: null,
      atMs,
    };
  }
}
