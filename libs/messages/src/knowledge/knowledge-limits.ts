import { KbThreshold } from '../agents/agent-limits';

/** Indexing state of a document linked to an agent. */
export const KB_INDEX_STATUSES = ['pending', 'indexing', 'indexed', 'failed'] as const;
export type KbIndexStatus = (typeof KB_INDEX_STATUSES)[number];

export const KnowledgeLimits = {
  queryMax: 1000,
  defaultResults: 5,
  maxResults: 20,
  linkBatchMax: 50,
} as const;

/**
 * Minimum relevance per kb_threshold (null counts as medium). A chunk's score, in [0, 1), is the mean of
 * - coverage: the share of the query's distinct words (stemmed, English stop words left out) the chunk
 *   contains, and
 * - density: Postgres ts_rank_cd over the chunk for any query word, normalised as rank / (rank + 1); about
 *   0.5 for one occurrence, 0.67 for two, 0.8 for four (closer occurrences count more).
 * So one occurrence of a one-word query scores 0.75; for a four-word question, a chunk with one of the
 * words once scores about 0.38, with two of them about 0.58, with three about 0.75.
 * low keeps every chunk that contains a query word; medium needs about half the query; high most of it.
 */
export const KB_THRESHOLD_MIN_SCORE: Record<KbThreshold, number> = {
  low: 0,
  medium: 0.45,
  high: 0.7,
};

/**
 * Placeholders of kb_result_format, rendered once per result. Unknown placeholders are left as written;
 * `{{` and `}}` produce literal braces. With kb_result_format null a result renders as `{content}`.
 */
export const KB_RESULT_PLACEHOLDERS = {
  content: 'the chunk text',
  document_name: 'name of the document the chunk comes from',
  document_id: 'id of that document',
  summary: "the document's summary (its first sentences); empty unless kb_include_summaries is true",
  score: 'relevance score, 3 decimals',
  rank: 'position in the results, from 1',
  chunk_index: 'position of the chunk in its document, from 0',
} as const;
export type KbResultPlaceholder = keyof typeof KB_RESULT_PLACEHOLDERS;
