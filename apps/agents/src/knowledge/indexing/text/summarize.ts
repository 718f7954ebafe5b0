import { splitSentences, wordHead } from './sentences';

export const SUMMARY_MAX_CHARS = 300;

/**
 * The summary kb_include_summaries adds to search results: the document's opening sentences, up to about
 * 300 characters (a first sentence that is longer is cut at a word and ends with an ellipsis).
 */
export function summarize(text: string, maxChars = SUMMARY_MAX_CHARS): string {
  const sentences = splitSentences(text.replace(/\s+/g, ' ').trim());
  let summary = '';
  for (const sentence of sentences) {
    const next = summary ? `${summary} ${sentence}` : sentence;
    if (next.length > maxChars) break;
    summary = next;
  }
  if (summary || !sentences.length) return summary;
  return `${wordHead(sentences[0], maxChars - 1)}…`;
}
