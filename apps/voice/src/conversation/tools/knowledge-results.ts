// The tools the agent's language model may call during a call (only those the agent's fields enable), how a
// knowledge-base result is handed back to it, and what the agent says while a slow tool runs.

import { KB_THRESHOLD_MIN_SCORE } from '@vap/messages';
import type { AgentSettings, KnowledgeSearchHit, KnowledgeSearchReply, ToolAckConfig } from '@vap/messages';
import type { ToolSpec } from '@vap/llm';

export const END_CALL_TOOL = 'end_call';
export const TRANSFER_CALL_TOOL = 'transfer_call';
export const SEARCH_KNOWLEDGE_TOOL = 'search_knowledge_base';
export const OPT_OUT_TOOL = 'opt_out';

/** Results asked of the knowledge base per search: enough context for one spoken answer. */
export const KNOWLEDGE_RESULT_LIMIT = 5;

/** The tool specs (OpenAI function style) the agent's fields enable. */
export function conversationTools(agent: AgentSettings): ToolSpec[] {
  const tools: ToolSpec[] = [];
  if (agent.end_call_enabled) {
    tools.push({
      name: END_CALL_TOOL,
      description: 'End the phone call. The agent says goodbye and hangs up.',
      parameters: {
        type: 'object',
        properties: { reason: { type: 'string', description: 'Why the call is ending' } },
        required: [],
      },
    });
  }
  if (agent.transfer_enabled && agent.transfer_number) {
    tools.push({
      name: TRANSFER_CALL_TOOL,
      description: 'Transfer the caller to a human colleague. The call leaves the agent.',
      parameters: {
        type: 'object',
        properties: { reason: { type: 'string', description: 'Why the caller is being transferred' } },
        required: [],
      },
    });
  }
  if (agent.has_knowledge) {
    tools.push({
      name: SEARCH_KNOWLEDGE_TOOL,
      description: "Search the company's knowledge base for facts to answer the caller.",
      parameters: {
        type: 'object',
        properties: { query: { type: 'string', description: 'What to look up, in a few words' } },
        required: ['query'],
      },
    });
  }
  // Always offered: a person who asks not to be called again is honoured on every call, whatever the agent.
  tools.push({
    name: OPT_OUT_TOOL,
    description:
      'The person asks not to be called again. Their number joins the do-not-call list and the call ends politely.',
    parameters: { type: 'object', properties: {}, required: [] },
  });
  return tools;
}

/** Renders kb_result_format for one result: {placeholder} is replaced, {{ and }} are literal braces. */
function renderResultFormat(
  format: string,
  result: KnowledgeSearchHit,
  rank: number,
  includeSummary: boolean,
): string {
  const values: Record<string, string> = {
    content: result.content,
    document_name: result.document_name,
    document_id: result.document_id,
    summary: includeSummary ? (result.summary ?? '') : '',
    score: result.score.toFixed(3),
    rank: String(rank),
    chunk_index: String(result.chunk_index),
  };
  return format.replace(/\{\{|\}\}|\{(\w+)\}/g, (whole, name: string | undefined) => {
    if (whole === '{{') return '{';
    if (whole === '}}') return '}';
    return name !== undefined && name in values ? values[name] : whole;
  });
}

/**
 * The tool result for a knowledge search: results under the agent's kb_threshold dropped (null counts as
 * medium), each rendered with kb_result_format (or its content, with the document's summary when
 * kb_include_summaries), best first.
 */
export function formatKnowledgeResults(response: KnowledgeSearchReply, agent: AgentSettings): string {
  const minScore = KB_THRESHOLD_MIN_SCORE[agent.kb_threshold ?? 'medium'];
  const kept = response.results.filter((r) => r.score >= minScore);
  if (kept.length === 0) return 'No relevant information was found in the knowledge base.';
  return kept
    .map((result, i) => {
      if (agent.kb_result_format)
        return renderResultFormat(agent.kb_result_format, result, i + 1, agent.kb_include_summaries);
      const summary = agent.kb_include_summaries && result.summary ? `Summary: ${result.summary}\n` : '';
      return `[${i + 1}] ${result.document_name}\n${summary}${result.content}`;
    })
    .join('\n\n');
}

/** What the agent says, in dynamic mode, while each tool runs. */
const DYNAMIC_ACKS: Record<string, string> = {
  [SEARCH_KNOWLEDGE_TOOL]: 'Let me look that up.',
  [TRANSFER_CALL_TOOL]: 'One moment while I connect you.',
};
const DYNAMIC_ACK_DEFAULT = 'One moment, please.';

/**
 * The acknowledgement for a tool that has run longer than delay_ms, or null when acknowledgements are off.
 * Static mode picks one of the partner's phrases; dynamic mode a short phrase that fits the tool.
 */
export function toolAckPhrase(
  config: ToolAckConfig | null,
  tool: string,
  random: () => number = Math.random,
): string | null {
  if (!config || !config.enabled) return null;
  if (config.mode === 'static') {
    if (config.phrases.length === 0) return null;
    return config.phrases[Math.floor(random() * config.phrases.length) % config.phrases.length];
  }
  return DYNAMIC_ACKS[tool] ?? DYNAMIC_ACK_DEFAULT;
}
