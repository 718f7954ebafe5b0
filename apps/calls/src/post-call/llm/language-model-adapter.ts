import {
  AgentTool,
  ChatMessage,
  ExtractionInput,
  LanguageModel,
  LlmError,
  searchKnowledgeBaseTool,
  ToolSpec,
} from '@vap/llm';
import { AgentReplyInput, LlmAdapter } from './llm-adapter';

/** The platform's own instruction, kept apart from the agent's prompt (which the offline engine quotes). */
const PHONE_STYLE = 'You are speaking on a phone call. Answer in one to three short spoken sentences.';
const KNOWLEDGE_CALL_ID = 'kb_search';

/**
 * Replies and extraction on a @vap/llm model. Knowledge the brain already found is handed over the way a
 * live call hands it: as the search_knowledge_base tool's result for the callee's words, so the model
 * (and the offline engine) answers grounded in it.
 */
export class LanguageModelAdapter implements LlmAdapter {
  constructor(private readonly llm: LanguageModel) {}

  get model(): string {
    return this.llm.model;
  }

  async reply(input: AgentReplyInput): Promise<string> {
    const messages: ChatMessage[] = [
      { role: 'system', content: input.prompt },
      { role: 'system', content: PHONE_STYLE },
      ...input.history.map((t): ChatMessage =>
        t.role === 'bot' ? { role: 'assistant', content: t.content } : { role: 'user', content: t.content },
      ),
      { role: 'user', content: input.userText },
    ];
    const tools: ToolSpec[] = [];
    if (input.knowledge) {
      messages.push(
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: KNOWLEDGE_CALL_ID,
              name: AgentTool.searchKnowledgeBase,
              arguments: { query: input.userText },
            },
          ],
        },
        { role: 'tool', tool_call_id: KNOWLEDGE_CALL_ID, content: input.knowledge },
      );
      // The tool must be declared for its result to be a valid chat.
      tools.push(searchKnowledgeBaseTool());
    }
    let text = '';
    // Only text is spoken here: the search already ran, a second tool call has nothing to run it.
    for await (const delta of this.llm.stream({ messages, tools, temperature: 0 }))
      if (delta.type === 'text') text += delta.text;
    if (!text.trim()) throw new LlmError('the model answered without any text', 'protocol');
    return text.trim();
  }

  extract(input: ExtractionInput): Promise<Record<string, unknown>> {
    return this.llm.extract(input);
  }
}
