// How a knowledge-base result is handed back to the model.

import { KB_THRESHOLD_MIN_SCORE } from '@vap/messages';
import type { AgentSnapshot, KnowledgeSearchHit, KnowledgeSearchReply } from '@vap/messages';

/** Results asked of the knowledge base per search: enough context for one spoken answer. */
export const KNOWLEDGE_RESULT_LIMIT = 5;

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
export function formatKnowledgeResults(response: KnowledgeSearchReply, agent: AgentSnapshot): string {
  const minScore = KB_THRESHOLD_MIN_SCORE[agent.kbThreshold ?? 'medium'];
  const kept = response.results.filter((r) => r.score >= minScore);
  if (kept.length === 0) return 'No relevant information was found in the knowledge base.';
  return kept
    .map((result, i) => {
      if (agent.kbResultFormat)
        return renderResultFormat(agent.kbResultFormat, result, i + 1, agent.kbIncludeSummaries);
      const summary = agent.kbIncludeSummaries && result.summary ? `Summary: ${result.summary}\n` : '';
      return `[${i + 1}] ${result.document_name}\n${summary}${result.content}`;
    })
    .join('\n\n');
}
