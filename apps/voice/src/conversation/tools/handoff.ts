// handoff_to_<name>: the agent hands the call to another agent of its squad (the agent's handoffs). The tool
// asks its turn's call control, which hands the call over once what the agent said has been heard. What the model
// is offered of it is the agent tool catalog's (handoffToolSpec, @vap/messages).

import { handoffToolName, type HandoffSnapshot, type VoiceToolCallRecord } from '@vap/messages';
import type { ConversationTool, ToolRun } from './tool';

export function handoffTool(handoff: HandoffSnapshot): ConversationTool {
  const name = handoffToolName(handoff.name);
  return {
    name,
    kind: 'handoff',
    functionId: null,
    // The agent says it is passing the caller on in its own words, before the call.
    ackPhrase: null,
    async run(call, turn): Promise<ToolRun> {
      const startedAt = performance.now();
      const reason = typeof call.arguments.reason === 'string' ? call.arguments.reason : '';
      const summary = typeof call.arguments.summary === 'string' ? call.arguments.summary : '';
      const { handedOff, result } = await turn.control.handOff(handoff, reason, summary);
      const invocation: Omit<VoiceToolCallRecord, 'atMs'> = {
        name,
        kind: 'handoff',
        functionId: null,
        arguments: call.arguments,
        outcome: handedOff ? 'success' : 'failed',
        latencyMs: Math.max(0, Math.round(performance.now() - startedAt)),
        logId: null,
      };
      return { result, stop: handedOff, invocation };
    },
  };
}
