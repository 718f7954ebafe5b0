import { Inject, Injectable, Logger } from '@nestjs/common';
import { Subjects, TranscriptEntry } from '@vap/contracts';
import { RpcClient } from '@vap/messaging';
import { LLM_ADAPTER, LlmAdapter } from '../post-call/llm/llm-adapter';

export interface BrainContext {
  partnerId: string;
  agentId: string;
  prompt: string;
}

/** How many knowledge-base chunks back one reply. */
const KB_RESULTS = 3;

/**
 * The agent's side of a conversation: searches the agent's knowledge base (agents service, over NATS)
 * for what the callee said, then asks the LLM adapter for the reply with that context.
 */
@Injectable()
export class AgentBrain {
  private readonly logger = new Logger(AgentBrain.name);

  constructor(
    private readonly rpc: RpcClient,
    @Inject(LLM_ADAPTER) private readonly llm: LlmAdapter,
  ) {}

  async reply(ctx: BrainContext, history: TranscriptEntry[], userText: string): Promise<string> {
    const knowledge = await this.searchKnowledge(ctx, userText);
    return this.llm.reply({ prompt: ctx.prompt, history, userText, knowledge });
  }

  /** Null when nothing relevant was found; a failed search degrades to no context, never a dead call. */
  private async searchKnowledge(ctx: BrainContext, query: string): Promise<string | null> {
    try {
      const found = await this.rpc.request(Subjects.agents.knowledgeSearch, ctx.partnerId, {
        agentId: ctx.agentId,
        query: query.slice(0, 500),
        limit: KB_RESULTS,
      });
      return found.results.length ? found.context : null;
    } catch (err) {
      this.logger.warn(`knowledge search for agent ${ctx.agentId} failed: ${(err as Error).message}`);
      return null;
    }
  }
}
