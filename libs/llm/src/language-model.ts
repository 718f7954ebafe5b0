import { ChatModel } from './chat-model';
import { AnalysisAnswer, AnalysisInput } from './analysis';
import { ExtractionInput } from './extraction';

/**
 * A chat model that also does post-call extraction: what createChatModel returns, so the live call and the
 * calls service's extraction use the same client (or the same offline engine).
 */
export interface LanguageModel extends ChatModel {
  /** One value per key (null when the conversation does not say), by key name. */
  extract(input: ExtractionInput, signal?: AbortSignal): Promise<Record<string, unknown>>;
  /** Post-call analysis: a summary and a success score, as the input asks. */
  analyze(input: AnalysisInput, signal?: AbortSignal): Promise<AnalysisAnswer>;
}
