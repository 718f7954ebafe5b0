import type { KbThreshold } from '../agents/agent-limits';

/** Request of agents.knowledge.search: ranked chunks of an agent's knowledge base for a query. */
export interface KnowledgeSearchCommand {
  agentId: string;
  query: string;
  limit?: number;
}

/** One ranked chunk of a knowledge search. */
export interface KnowledgeSearchHit {
  chunk_id: string;
  document_id: string;
  document_name: string;
  chunk_index: number;
  content: string;
  score: number;
  summary?: string | null;
  formatted: string;
}

/** Reply of agents.knowledge.search; the public knowledge search answers the same body. */
export interface KnowledgeSearchReply {
  agent_id: string;
  query: string;
  threshold: KbThreshold;
  min_score: number;
  results: KnowledgeSearchHit[];
  context: string;
}
