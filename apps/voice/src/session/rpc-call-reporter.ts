import {
  KnowledgeSearchResponseDto,
  Subjects,
  VoiceCallContext,
  VoiceTranscriptRequest,
} from '@vap/contracts';
import type { RpcClient } from '@vap/messaging';
import type { CallReporter } from '../conversation';

/**
 * A conversation's reports to the owner of the call, over NATS commands sent as the call's partner: the
 * calls service records lines, transfers and hangs up through the carrier; the agents service searches the
 * agent's knowledge base.
 */
export class RpcCallReporter implements CallReporter {
  constructor(
    private readonly rpc: RpcClient,
    private readonly context: VoiceCallContext,
  ) {}

  async transcript(line: Omit<VoiceTranscriptRequest, 'callId'>): Promise<void> {
    await this.rpc.request(Subjects.calls.voiceTranscript, this.context.partnerId, {
      ...line,
      callId: this.context.callId,
    });
  }

  async transfer(to: string, reason: string): Promise<boolean> {
    const reply = await this.rpc.request(Subjects.calls.voiceTransfer, this.context.partnerId, {
      callId: this.context.callId,
      to,
      reason,
    });
    return reply.transferred;
  }

  async optOut(): Promise<void> {
    await this.rpc.request(Subjects.calls.voiceOptOut, this.context.partnerId, {
      callId: this.context.callId,
    });
  }

  async hangup(reason: string): Promise<void> {
    await this.rpc.request(Subjects.calls.voiceHangup, this.context.partnerId, {
      callId: this.context.callId,
      reason,
    });
  }

  searchKnowledge(query: string, limit: number): Promise<KnowledgeSearchResponseDto> {
    return this.rpc.request(Subjects.agents.knowledgeSearch, this.context.partnerId, {
      agentId: this.context.agentId,
      query,
      limit,
    });
  }
}
