import { TranscriptEntry } from '@vap/contracts';
import type { ExtractionInput } from '@vap/llm';

export type { ExtractionInput } from '@vap/llm';

export interface AgentReplyInput {
  /** The agent's prompt (its system instructions). */
  prompt: string;
  /** The conversation so far, oldest first. */
  history: TranscriptEntry[];
  /** What the callee just said. */
  userText: string;
  /** Knowledge-base context for the callee's words, or null when the search found nothing. */
  knowledge: string | null;
}

/**
 * The calls service's LLM entry point: agent replies and post-call extraction, over the @vap/llm model that
 * createChatModel picks (an OpenAI-compatible server when LLM_BASE_URL is set, else the offline engine).
 */
export interface LlmAdapter {
  /** Reported as extraction.model. */
  readonly model: string;
  reply(input: AgentReplyInput): Promise<string>;
  /** One value per key (null when the conversation does not say), by key name. */
  extract(input: ExtractionInput): Promise<Record<string, unknown>>;
}

export const LLM_ADAPTER = Symbol('LLM_ADAPTER');
