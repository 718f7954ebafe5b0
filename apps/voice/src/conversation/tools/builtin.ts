// The platform's own tools: end_call, transfer_call, search_knowledge_base, opt_out, send_dtmf, send_sms.

import type { ToolCall } from '@vap/llm';
import { Aborted } from '../provider-failure';
import { digitsOf, pressedAll, SEND_DTMF_TOOL, sendDtmfToolSpec } from '../dtmf/send-dtmf';
import { formatKnowledgeResults, KNOWLEDGE_RESULT_LIMIT } from './knowledge-results';
import { SEND_SMS_MAX_PER_CALL } from '@vap/messages';
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
  offered: (agent) => agent.endCallEnabled,
  spec: () => ({
    name: END_CALL_TOOL,
    description: 'End the phone call. The agent says goodbye and hangs up.',
    parameters: {
      type: 'object',
      properties: { reason: { type: 'string', description: 'Why the call is ending' } },
      required: [],
    },
  }),
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
  offered: (agent) => agent.transferEnabled && !!agent.transferNumber,
  spec: () => ({
    name: TRANSFER_CALL_TOOL,
    description: 'Transfer the caller to a human colleague. The call leaves the agent.',
    parameters: {
      type: 'object',
      properties: { reason: { type: 'string', description: 'Why the caller is being transferred' } },
      required: [],
    },
  }),
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
  offered: (agent) => agent.hasKnowledge,
  spec: () => ({
    name: SEARCH_KNOWLEDGE_TOOL,
    description: "Search the company's knowledge base for facts to answer the caller.",
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to look up, in a few words' } },
      required: ['query'],
    },
  }),
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
  // Always offered: a person who asks not to be called again is honoured on every call, whatever the agent.
  offered: () => true,
  spec: () => ({
    name: OPT_OUT_TOOL,
    description:
      'The person asks not to be called again. Their number joins the do-not-call list and the call ends politely.',
    parameters: { type: 'object', properties: {}, required: [] },
  }),
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
  offered: (agent) => agent.sendDtmfEnabled === true,
  spec: () => sendDtmfToolSpec(),
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
  offered: (agent) => agent.smsEnabled === true,
  spec: (agent) => {
    const anyone = agent.smsAllowedRecipients === 'any';
    return {
      name: SEND_SMS_TOOL,
      description:
        `Send a text message (SMS) ${anyone ? 'during the call, by default to the person on the call' : 'to the person on the call'}, ` +
        `for example a confirmation, an address or a link. At most ${SEND_SMS_MAX_PER_CALL} per call.`,
      parameters: {
        type: 'object',
        properties: {
          body: { type: 'string', description: 'The text of the message, up to 1600 characters' },
          ...(anyone
            ? {
                to: {
                  type: 'string',
                  description:
                    'Another number in international form (+ and digits); omit for the person on the call',
                },
              }
            : {}),
        },
        required: ['body'],
      },
    };
  },
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

/** The built-in tools, in the order they are offered (before the partner's functions). */
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
