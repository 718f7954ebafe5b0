import type { AnalysisAnswer, AnalysisInput, ExtractionInput } from '@vap/llm';

/**
 * The calls service's LLM entry point, post-call extraction and analysis, over the @vap/llm model that createChatModel
 * picks (an OpenAI-compatible server when LLM_BASE_URL is set, else the offline engine).
 */
export interface LlmAdapter {
  /** Reported as extraction.model. */
  readonly model: string;
  /** One value per key (null when the conversation does not say), by key name. */
  extract(input: ExtractionInput): Promise<Record<string, unknown>>;
  /** A summary and a success score, as the input asks. */
  analyze(input: AnalysisInput): Promise<AnalysisAnswer>;
}

export const LLM_ADAPTER = Symbol('LLM_ADAPTER');
