import type { KnowledgeSearchReply } from '@vap/messages';
import { agentSettings } from './testing/conversation-harness';
import { conversationTools, formatKnowledgeResults, toolAckPhrase } from './tools';

const response = (scores: number[]): KnowledgeSearchReply => ({
  agent_id: 'a',
  query: 'q',
  threshold: 'low',
  min_score: 0,
  context: '',
  results: scores.map((score, i) => ({
    chunk_id: `c${i}`,
    document_id: `d${i}`,
    document_name: `Doc ${i}`,
    chunk_index: i,
    content: `Content ${i}`,
    score,
    summary: `Summary ${i}`,
    formatted: `Content ${i}`,
  })),
});

describe('tools', () => {
  it('offers the tools the agent enables', () => {
    // opt_out on every call: a person who asks not to be called again is always heard.
    expect(conversationTools(agentSettings()).map((t) => t.name)).toEqual(['end_call', 'opt_out']);
    expect(
      conversationTools(
        agentSettings({
          endCallEnabled: false,
          transferEnabled: true,
          transferNumber: '+1555',
          hasKnowledge: true,
        }),
      ).map((t) => t.name),
    ).toEqual(['transfer_call', 'search_knowledge_base', 'opt_out']);
    const search = conversationTools(agentSettings({ hasKnowledge: true }))[1];
    expect(search.parameters).toMatchObject({ required: ['query'] });
  });

  it.each([
    ['low', 3],
    [null, 2],
    ['medium', 2],
    ['high', 1],
  ] as const)('kb_threshold %s keeps %i of the results', (threshold, kept) => {
    const text = formatKnowledgeResults(response([0.8, 0.5, 0.2]), agentSettings({ kbThreshold: threshold }));
    expect(text.split('\n\n')).toHaveLength(kept);
  });

  it('says when nothing relevant was found', () => {
    expect(formatKnowledgeResults(response([0.1]), agentSettings({ kbThreshold: 'high' }))).toMatch(
      /No relevant/,
    );
  });

  it('includes summaries only with kb_include_summaries', () => {
    expect(formatKnowledgeResults(response([0.9]), agentSettings())).toBe('[1] Doc 0\nContent 0');
    expect(formatKnowledgeResults(response([0.9]), agentSettings({ kbIncludeSummaries: true }))).toBe(
      '[1] Doc 0\nSummary: Summary 0\nContent 0',
    );
    expect(
      formatKnowledgeResults(
        response([0.9]),
        agentSettings({ kbResultFormat: '{content}|{summary}|{nope}' }),
      ),
    ).toBe('Content 0||{nope}');
  });

  it('picks acknowledgements by mode', () => {
    const stat = { enabled: true, mode: 'static' as const, phrases: ['A.', 'B.'], delayMs: 0 };
    expect(toolAckPhrase(stat, 'search_knowledge_base', () => 0.99)).toBe('B.');
    expect(toolAckPhrase(stat, 'search_knowledge_base', () => 0)).toBe('A.');
    const dyn = { enabled: true, mode: 'dynamic' as const, phrases: [], delayMs: 0 };
    expect(toolAckPhrase(dyn, 'search_knowledge_base')).toBe('Let me look that up.');
    expect(toolAckPhrase(dyn, 'transfer_call')).toBe('One moment while I connect you.');
    expect(toolAckPhrase({ ...dyn, enabled: false }, 'transfer_call')).toBeNull();
    expect(toolAckPhrase(null, 'transfer_call')).toBeNull();
  });
});
