import type { ChatDelta } from '../chat-model';
import type { AnalysisAnswer } from '../analysis';
import type { LanguageModel } from '../language-model';
import { LlmError } from '../llm-error';

/**
 * The chat adapter of a speech-to-speech model (OpenAI Realtime, Gemini Live): such a model hears and speaks over
 * its own session, which the voice service's realtime driver runs; it has no text chat to stream. Every call fails
 * with an LlmError saying so, so a plan that hands one to the transcriber, model and voice chain fails loudly.
 */
export class SpeechToSpeechOnlyModel implements LanguageModel {
  constructor(
    readonly model: string,
    private readonly providerLabel: string,
  ) {}

  // eslint-disable-next-line require-yield
  async *stream(): AsyncGenerator<ChatDelta, void, undefined> {
    throw this.error();
  }

  async extract(): Promise<Record<string, unknown>> {
    throw this.error();
  }

  async analyze(): Promise<AnalysisAnswer> {
    throw this.error();
  }

  private error(): LlmError {
    return new LlmError(
      `${this.providerLabel} ${this.model} is a speech-to-speech model: the realtime driver runs it, not the chat adapter`,
      'protocol',
    );
  }
}
