import { EffectiveExtractionKey, TranscriptEntry } from '@vap/contracts';

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

export interface ExtractionInput {
  keys: EffectiveExtractionKey[];
  transcript: TranscriptEntry[];
  variables: Record<string, unknown>;
}

/**
 * The voice pipeline's one LLM entry point: agent replies during a call and post-call extraction. An
 * OpenAI-compatible server when LLM_BASE_URL is set, else the deterministic offline engine.
 */
export interface LlmAdapter {
  /** Reported as extraction.model. */
  readonly model: string;
  reply(input: AgentReplyInput): Promise<string>;
  /** One value per key (null when the conversation does not say), by key name. */
  extract(input: ExtractionInput): Promise<Record<string, unknown>>;
}

export const LLM_ADAPTER = Symbol('LLM_ADAPTER');
