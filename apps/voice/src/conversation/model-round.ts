// One round of the agent's model: stream the reply, hand each sentence to TTS as soon as it is complete (the
// first sentence is spoken while the model is still writing), and collect the tool calls it makes. A model that
// fails before any of the round's reply was spoken hands the round over to the fallback model.

import type { AnsweringModelProvider, ModelPaidBy } from '@vap/messages';
import type { ChatModel, ChatRequest, ChatUsage, ToolCall } from '@vap/llm';
import type { ProviderChain } from './provider-chain';
import { Aborted, ProviderFailure, withProviderTimeout } from './provider-failure';
import { SentenceSplitter } from './sentence-splitter';

/** Which model wrote a reply: its provider and the provider's model id. */
export interface ModelIdentity {
  provider: AnsweringModelProvider;
  model: string;
}

/** The agent's parameters for one of its models (model.temperature, max_tokens, top_p), sent with each round. */
export type ModelParameters = Pick<ChatRequest, 'temperature' | 'maxTokens' | 'topP'>;

/** One of the models a call may think with (the agent's, then its fallbacks), and who pays for it. */
export interface AgentModel extends ModelIdentity {
  /** Whose key answers: null for the offline engine, a partner's server and the deployment's default model. */
  paidBy: ModelPaidBy | null;
  llm: ChatModel;
  /** The agent's settings for this model (a fallback has its own); the provider's defaults where absent. */
  parameters?: ModelParameters;
}

export interface ModelRoundOptions {
  models: ProviderChain<AgentModel>;
  request: ChatRequest;
  /** Aborts on barge-in or hang-up (the stream stops, nothing is reported). */
  signal: AbortSignal;
  /** Wall ms the model may take for each next delta before it counts as failed. */
  timeoutMs: number;
  /** A complete sentence to speak. */
  onSentence(sentence: string): void;
  /** The first delta (text or tool call) arrived. */
  onFirstDelta(): void;
  /** `failure` handed the call over to the next model, `next`. */
  onFallback?(failure: ProviderFailure, next: AgentModel): void;
}

export interface ModelRoundResult {
  text: string;
  calls: ToolCall[];
  /** The model that wrote it. */
  model: AgentModel;
  /** Tokens it cost, when the provider said (the offline engine and some servers do not). */
  usage: ChatUsage | null;
}

/**
 * Streams one model reply. Rejects with ProviderFailure('llm') when the model fails or times out after some of
 * its reply was spoken, or when no model is left; Aborted on abort.
 */
export async function runModelRound(options: ModelRoundOptions): Promise<ModelRoundResult> {
  for (;;) {
    const model = options.models.current;
    let spoken = false;
    try {
      const { text, calls, usage } = await streamReply(model.llm, {
        ...options,
        // Each model gets its own parameters: a fallback is not asked with the settings of the model it replaces.
        request: { ...options.request, ...model.parameters },
        onSentence: (sentence) => {
          spoken = true;
          options.onSentence(sentence);
        },
      });
      return { text, calls, model, usage };
    } catch (error) {
      // Once the caller heard part of a reply, another model cannot finish it: the call apologises instead.
      if (!(error instanceof ProviderFailure) || spoken || !options.models.fallBackFrom(model)) throw error;
      options.onFallback?.(error, options.models.current);
    }
  }
}

async function streamReply(
  llm: ChatModel,
  options: ModelRoundOptions,
): Promise<{ text: string; calls: ToolCall[]; usage: ChatUsage | null }> {
  const { signal } = options;
  // The request has its own controller so a timeout can cancel it without reading as a barge-in.
  const request = new AbortController();
  const onAbort = () => request.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  const iterator = llm.stream(options.request, request.signal)[Symbol.asyncIterator]();
  const splitter = new SentenceSplitter();
  const calls: ToolCall[] = [];
  let text = '';
  let first = true;
  let usage: ChatUsage | null = null;
  try {
    for (;;) {
      const next = await withProviderTimeout('llm', iterator.next(), options.timeoutMs, signal, onAbort);
      if (next.done) break;
      const delta = next.value;
      if (delta.type === 'usage') {
        usage = delta.usage;
        continue;
      }
      if (first) {
        first = false;
        options.onFirstDelta();
      }
      if (delta.type === 'tool_call') {
        calls.push(delta.call);
        continue;
      }
      text += delta.text;
      for (const sentence of splitter.push(delta.text)) options.onSentence(sentence);
    }
  } catch (error) {
    request.abort();
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
    throw error instanceof ProviderFailure || error instanceof Aborted
      ? error
      : new ProviderFailure('llm', error);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  for (const sentence of splitter.flush()) options.onSentence(sentence);
  return { text: text.trim(), calls, usage };
}
