// What the platform's own tools do: end_call, transfer_call, search_knowledge_base, opt_out, send_dtmf,
// send_sms. What the model is offered of them (names, descriptions, parameters) and when is the agent tool
// catalog's (@vap/messages, agents/agent-tools.ts); every catalog entry has its runner here (registry.spec.ts
// proves it).

import type { ToolCall } from '@vap/llm';
import { Aborted } from '../provider-failure';
import { digitsOf, pressedAll, SEND_DTMF_TOOL } from '../dtmf/send-dtmf';
import { formatKnowledgeResults, KNOWLEDGE_RESULT_LIMIT } from './knowledge-results';
import {
  END_CALL_TOOL,
  OPT_OUT_TOOL,
  SEARCH_KNOWLEDGE_TOOL,
  SEND_SMS_TOOL,
  TRANSFER_CALL_TOOL,
} from './names';
import type { ConversationTool, ToolInvocation, ToolRun } from './tool';

/** The session's record of a built-in tool's invocation. */
function builtin(call: ToolCall, outcome: ToolInvocation['outcome'], startedAt: number): ToolInvocation {
  return {
    name: call.name,
    kind: 'builtin',
    functionId: null,
    arguments: call.arguments,
    outcome,
    latencyMs: Math.max(0, Math.round(performance.now() - startedAt)),
    logId: null,
  };
}

const endCall: ConversationTool = {
  name: END_CALL_TOOL,
  kind: 'builtin',
  functionId: null,
  ackPhrase: null,
  async run(call, turn): Promise<ToolRun> {
    // Recorded before the hang-up, which settles only once the call is over.
    turn.context.record(builtin(call, 'success', performance.now()));
    await turn.control.endCall();
    return { result: 'Call ended.', stop: true, invocation: null };
  },
};

const transferCall: ConversationTool = {
  name: TRANSFER_CALL_TOOL,
  kind: 'builtin',
  functionId: null,
  ackPhrase: 'One moment while I connect you.',
  async run(call, turn): Promise<ToolRun> {
    const startedAt = performance.now();
    const reason = typeof call.arguments.reason === 'string' ? call.arguments.reason : 'caller request';
    let recorded = false;
    const decided = (ok: boolean) => {
      recorded = true;
      turn.context.record(builtin(call, ok ? 'success' : 'failed', startedAt));
    };
    const ok = await turn.control.transfer(turn.context.agent.transferNumber!, reason, decided);
    return {
      result: ok ? 'Transferred.' : 'The transfer failed; the caller is still on the line.',
      stop: true,
      // Never asked of the carrier (the call ended while the transfer message played): recorded now.
      invocation: recorded ? null : builtin(call, 'cancelled', startedAt),
    };
  },
};

const searchKnowledge: ConversationTool = {
  name: SEARCH_KNOWLEDGE_TOOL,
  kind: 'builtin',
  functionId: null,
  ackPhrase: 'Let me look that up.',
  async run(call, turn): Promise<ToolRun> {
    const startedAt = performance.now();
    const query = typeof call.arguments.query === 'string' ? call.arguments.query.trim() : '';
    if (!query)
      return { result: 'No query was given.', invocation: builtin(call, 'invalid_arguments', startedAt) };
    try {
      const response = await turn.control.withAck(
        turn.context.services.searchKnowledge(query, KNOWLEDGE_RESULT_LIMIT),
      );
      return {
        result: formatKnowledgeResults(response, turn.context.agent),
        invocation: builtin(call, 'success', startedAt),
      };
    } catch (error) {
      if (error instanceof Aborted) throw error;
      turn.context.onError(error, 'knowledge search');
      return {
        result: 'The knowledge base could not be searched right now.',
        invocation: builtin(call, 'failed', startedAt),
      };
    }
  },
};

const optOut: ConversationTool = {
  name: OPT_OUT_TOOL,
  kind: 'builtin',
  functionId: null,
  ackPhrase: null,
  async run(call, turn): Promise<ToolRun> {
    const startedAt = performance.now();
    let recorded = false;
    await turn.control.optOut((listed) => {
      recorded = true;
      turn.context.record(builtin(call, listed ? 'success' : 'failed', startedAt));
    });
    return {
      result: 'The number is on the do-not-call list; the call is ending.',
      stop: true,
      // The call was already ending: nothing was asked.
      invocation: recorded ? null : builtin(call, 'cancelled', startedAt),
    };
  },
};

const sendDtmfTool: ConversationTool = {
  name: SEND_DTMF_TOOL,
  kind: 'builtin',
  functionId: null,
  // Keys for a phone menu: nothing to say to a machine while they play.
  ackPhrase: null,
  async run(call, turn): Promise<ToolRun> {
    const startedAt = performance.now();
    // Keys that are not keys are not pressed; the result words the rule for the model.
    const result = await turn.control.pressKeys(call);
    const outcome = digitsOf(call) === null ? 'invalid_arguments' : pressedAll(result) ? 'success' : 'failed';
    return { result, invocation: builtin(call, outcome, startedAt) };
  },
};

const sendSms: ConversationTool = {
  name: SEND_SMS_TOOL,
  kind: 'builtin',
  functionId: null,
  ackPhrase: null,
  async run(call, turn): Promise<ToolRun> {
    const startedAt = performance.now();
    const body = typeof call.arguments.body === 'string' ? call.arguments.body.trim() : '';
    if (!body)
      return {
        result: 'No message text was given.',
        invocation: builtin(call, 'invalid_arguments', startedAt),
      };
    const to =
      typeof call.arguments.to === 'string' && call.arguments.to.trim() ? call.arguments.to.trim() : null;
    try {
      const reply = await turn.control.withAck(turn.context.services.sendSms(to, body));
      return {
        result: reply.sent
          ? `The message was sent to ${reply.to}.`
          : `The message was not sent: ${reply.reason}.`,
        invocation: builtin(call, reply.sent ? 'success' : 'failed', startedAt),
      };
    } catch (error) {
      if (error instanceof Aborted) throw error;
      turn.context.onError(error, 'send_sms');
      return {
        result: 'The message could not be sent right now.',
        invocation: builtin(call, 'failed', startedAt),
      };
    }
  },
};

/** The built-in tools' runners, one per entry of the catalog. */
export const BUILTIN_TOOLS: readonly ConversationTool[] = [
  endCall,
  transferCall,
  searchKnowledge,
  optOut,
  sendDtmfTool,
  sendSms,
];

/** Whether `name` is a built-in tool's. */
export function isBuiltinTool(name: string): boolean {
  return BUILTIN_TOOLS.some((t) => t.name === name);
}

/** The runner of a built-in tool, by name. */
export function builtinTool(name: string): ConversationTool | undefined {
  return BUILTIN_TOOLS.find((t) => t.name === name);
}
