import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { KnowledgeSearchResponseDto, KnowledgeSearchResultDto } from '@vap/api';
import {
  AgentDefaults,
  KB_THRESHOLD_MIN_SCORE,
  KnowledgeLimits,
  KnowledgeSearchCommand,
} from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { findAgent } from '../../agents/agent-locks';
import { invalidFields } from '../../common/invalid-fields';
import { splitQueryTerms } from './query-terms';
import { renderResultFormat } from './result-format';

interface ChunkRow {
  id: string;
  document_id: string;
  document_name: string;
  chunk_index: number;
  content: string;
  summary: string | null;
  score: number;
}

/**
 * Ranked chunks of the agent's live links. Any query word may match (chunks with more of the words rank
 * higher), quoted phrases must match as phrases, `-term` excludes; the score is explained beside
 * KB_THRESHOLD_MIN_SCORE. The English text-search configuration stems words and drops stop words.
 */
const searchSql = (ds: DataSource) => `
  WITH q AS (
    SELECT NULLIF(replace(websearch_to_tsquery('english', $3)::text, ' & ', ' | '), '')::tsquery AS positive,
           websearch_to_tsquery('english', $4) AS negative,
           (SELECT coalesce(array_agg(DISTINCT lexeme), '{}') FROM unnest(to_tsvector('english', $3))) AS words
  ), scored AS (
    SELECT c.id, c.document_id, d.name AS document_name, c.chunk_index, c.content, l.summary,
           0.5 * (SELECT count(*) FROM unnest(q.words) w WHERE w = ANY (tsvector_to_array(c.tsv)))::float8
               / greatest(cardinality(q.words), 1)
           + 0.5 * ts_rank_cd('{1,1,1,1}'::float4[], c.tsv, q.positive, 32) AS score
    FROM q
    JOIN ${tableOf(ds, 'kb_chunks')} c ON c.tsv @@ q.positive
    JOIN ${tableOf(ds, 'agent_documents')} l ON l.id = c.link_id AND l.unlinked_at IS NULL
    JOIN ${tableOf(ds, 'documents')} d ON d.id = c.document_id AND d.deleted_at IS NULL
    WHERE c.agent_id = $1 AND c.partner_id = $2 AND (numnode(q.negative) = 0 OR NOT c.tsv @@ q.negative)
  )
  SELECT * FROM scored WHERE score >= $5
  ORDER BY score DESC, document_id, chunk_index
  LIMIT $6`;

@Injectable()
export class KnowledgeSearchService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async search(partnerId: string, command: KnowledgeSearchCommand): Promise<KnowledgeSearchResponseDto> {
    const { query, limit } = this.checked(command);
    const agent = await findAgent(this.dataSource.manager, partnerId, command.agentId);
    const threshold = agent.kbThreshold ?? AgentDefaults.kbThreshold;
    const minScore = KB_THRESHOLD_MIN_SCORE[threshold];
    const terms = splitQueryTerms(query);
    const rows = (await this.dataSource.query(searchSql(this.dataSource), [
      agent.id,
      partnerId,
      terms.positive,
      terms.negative,
      minScore,
      limit,
    ])) as ChunkRow[];
    const results = rows.map((row, i): KnowledgeSearchResultDto => {
      const score = Math.round(Number(row.score) * 10_000) / 10_000;
      const summary = agent.kbIncludeSummaries ? (row.summary ?? '') : null;
      const result: KnowledgeSearchResultDto = {
        chunk_id: row.id,
        document_id: row.document_id,
        document_name: row.document_name,
        chunk_index: row.chunk_index,
        content: row.content,
        score,
        formatted: renderResultFormat(agent.kbResultFormat, {
          content: row.content,
          document_name: row.document_name,
          document_id: row.document_id,
          summary: summary ?? '',
          score: score.toFixed(3),
          rank: String(i + 1),
          chunk_index: String(row.chunk_index),
        }),
      };
      if (summary !== null) result.summary = summary;
      return result;
    });
    return {
      agent_id: agent.id,
      query,
      threshold,
      min_score: minScore,
      results,
      context: results.map((r) => r.formatted).join('\n\n'),
    };
  }

  /** The partner route is validated by the gateway; calls' commands are checked here. */
  private checked(command: KnowledgeSearchCommand): { query: string; limit: number } {
    const query = typeof command.query === 'string' ? command.query.trim() : '';
    const limit = command.limit ?? KnowledgeLimits.defaultResults;
    const problems = [];
    if (!query || query.length > KnowledgeLimits.queryMax) {
      problems.push({ field: 'query', message: `query must be 1 to ${KnowledgeLimits.queryMax} characters` });
    }
    if (!Number.isInteger(limit) || limit < 1 || limit > KnowledgeLimits.maxResults) {
      problems.push({
        field: 'limit',
        message: `limit must be an integer from 1 to ${KnowledgeLimits.maxResults}`,
      });
    }
    if (problems.length) throw invalidFields(problems);
    return { query, limit };
  }
}
