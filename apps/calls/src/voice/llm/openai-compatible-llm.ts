import { AgentReplyInput, ExtractionInput, LlmAdapter } from './llm-adapter';
import { shapeValues } from './extraction-values';

interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface OpenAiCompatibleOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

/** Chat completions against any OpenAI-compatible server (`{LLM_BASE_URL}/chat/completions`). */
export class OpenAiCompatibleLlm implements LlmAdapter {
  readonly model: string;

  constructor(private readonly options: OpenAiCompatibleOptions) {
    this.model = options.model;
  }

  async reply(input: AgentReplyInput): Promise<string> {
    const messages: ChatMessage[] = [
      {
        role: 'system',
        content:
          `${input.prompt}\n\nYou are speaking on a phone call. Answer in one to three short spoken sentences.` +
          (input.knowledge
            ? `\n\nKnowledge base results for the caller's last words:\n${input.knowledge}`
            : ''),
      },
      ...input.history.map((t): ChatMessage => ({
        role: t.role === 'bot' ? 'assistant' : 'user',
        content: t.content,
      })),
      { role: 'user', content: input.userText },
    ];
    return (await this.complete(messages, false)).trim();
  }

  async extract(input: ExtractionInput): Promise<Record<string, unknown>> {
    const schema = input.keys.map(
      (k) =>
        `- ${k.name} (${k.type}${k.options?.length ? `: one of ${k.options.join(', ')}` : ''}): ${k.description}`,
    );
    const transcript = input.transcript
      .map((t) => `${t.role === 'bot' ? 'Agent' : 'Callee'}: ${t.content}`)
      .join('\n');
    const content = await this.complete(
      [
        {
          role: 'system',
          content:
            'Extract the requested fields from a phone call transcript. Answer with one JSON object whose keys are ' +
            'exactly the field names; use null when the call does not say. Dates as YYYY-MM-DD.\nFields:\n' +
            schema.join('\n'),
        },
        {
          role: 'user',
          content: `Pre-call variables: ${JSON.stringify(input.variables)}\n\nTranscript:\n${transcript}`,
        },
      ],
      true,
    );
    const match = /\{[\s\S]*\}/.exec(content);
    if (!match) throw new Error('the model did not answer with a JSON object');
    return shapeValues(input.keys, JSON.parse(match[0]) as Record<string, unknown>);
  }

  private async complete(messages: ChatMessage[], json: boolean): Promise<string> {
    const res = await fetch(`${this.options.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: this.model,
        messages,
        temperature: 0,
        ...(json ? { response_format: { type: 'json_object' } } : {}),
      }),
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    if (!res.ok) throw new Error(`LLM server answered ${res.status}`);
    const body = (await res.json()) as { choices?: { message?: { content?: string } }[] };
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new Error('LLM answer has no choices[0].message.content');
    return content;
  }
}
