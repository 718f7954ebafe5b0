// One round of the agent's model: stream the reply, hand each sentence to TTS as soon as it is complete (the
// first sentence is spoken while the model is still writing), and collect the tool calls it makes.

import type { ChatModel, ChatRequest, ToolCall } from '@vap/llm';
import { withProviderTimeout } from './provider-failure';
import { SentenceSplitter } from './sentence-splitter';

export interface ModelRoundOptions {
  llm: ChatModel;
  request: ChatRequest;
  /** Aborts on barge-in or hang-up (the stream stops, nothing is reported). */
  signal: AbortSignal;
  /** Wall ms the model may take for each next delta before it counts as failed. */
  timeoutMs: number;
  /** A complete sentence to speak. */
  onSentence(sentence: string): void;
  /** The first delta (text or tool call) arrived. */
  onFirstDelta(): void;
}

/** Streams one model reply. Rejects with ProviderFailure('llm') on failure or timeout, Aborted on abort. */
export async function runModelRound(
  options: ModelRoundOptions,
): Promise<{ text: string; calls: ToolCall[] }> {
  const { signal } = options;
  // The request has its own controller so a timeout can cancel it without reading as a barge-in.
  const request = new AbortController();
  const onAbort = () => request.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  const iterator = options.llm.stream(options.request, request.signal)[Symbol.asyncIterator]();
  const splitter = new SentenceSplitter();
  const calls: ToolCall[] = [];
  let text = '';
  let first = true;
  try {
    for (;;) {
      const next = await withProviderTimeout('llm', iterator.next(), options.timeoutMs, signal, onAbort);
      if (next.done) break;
      if (first) {
        first = false;
        options.onFirstDelta();
      }
      const delta = next.value;
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
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  for (const sentence of splitter.flush()) options.onSentence(sentence);
  return { text: text.trim(), calls };
}
