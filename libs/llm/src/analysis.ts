import { ChatMessage } from './chat-model';
import { LlmError } from './llm-error';
import { contentWords, sentences } from './text';
import type { TranscriptEntry } from '@vap/messages';

/** Post-call analysis: the call's transcript and what the agent asks of it (analysis_config). */
export interface AnalysisInput {
  transcript: TranscriptEntry[];
  variables: Record<string, unknown>;
  /** Write a summary. */
  summary: boolean;
  /** Added to the summary's instructions; null: none. */
  summaryInstructions: string | null;
  /** What a successful call achieves; null: no success evaluation. */
  successRubric: string | null;
}

/** What the model answers: a summary when asked, a score out of 10 and its reasons when there is a rubric. */
export interface AnalysisAnswer {
  summary: string | null;
  success: { score: number; reasons: string } | null;
}

/** Longest summary or reasons kept from a model's answer. */
const TEXT_MAX = 2000;

function transcriptText(transcript: TranscriptEntry[]): string {
  return transcript.map((t) => `${t.role === 'bot' ? 'Agent' : 'Caller'}: ${t.content}`).join('\n');
}

/** The chat that asks a model for the analysis as one JSON object. */
export function analysisMessages(input: AnalysisInput): ChatMessage[] {
  const asks: string[] = [];
  if (input.summary) {
    asks.push(
      '"summary": a summary of the call in two to four sentences: who called about what, what was agreed or ' +
        `done, and what is left to do.${input.summaryInstructions ? ` ${input.summaryInstructions}` : ''}`,
    );
  }
  if (input.successRubric) {
    asks.push(
      '"score": how well the call met the success criteria below, a number from 0 (not at all) to 10 (fully); ' +
        '"reasons": one to three sentences on what the score rests on, quoting the call where it helps.\n' +
        `Success criteria: ${input.successRubric}`,
    );
  }
  return [
    {
      role: 'system',
      content:
        'You analyse a phone call between an AI agent and a caller. Judge only by the transcript. Answer with one ' +
        `JSON object with these keys:\n${asks.join('\n')}`,
    },
    {
      role: 'user',
      content: `Pre-call variables: ${JSON.stringify(input.variables)}\n\nTranscript:\n${transcriptText(input.transcript)}`,
    },
  ];
}

function clip(text: string): string {
  return text.trim().slice(0, TEXT_MAX);
}

/**
 * The reasons as one text: models asked for sentences often answer a list of them instead, which is joined
 * (one reason a sentence) rather than dropped.
 */
function reasonsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return '';
  return value
    .filter((r): r is string => typeof r === 'string')
    .map((r) => r.trim())
    .filter(Boolean)
    .map((r) => (/[.!?]$/.test(r) ? r : `${r}.`))
    .join(' ');
}

/** The analysis in a model's answer (a JSON object, maybe wrapped in prose or a code fence), checked. */
export function parseAnalysisAnswer(input: AnalysisInput, answer: string): AnalysisAnswer {
  const match = /\{[\s\S]*\}/.exec(answer);
  let parsed: Record<string, unknown> | undefined;
  try {
    const value = match ? (JSON.parse(match[0]) as unknown) : undefined;
    if (value && typeof value === 'object' && !Array.isArray(value))
      parsed = value as Record<string, unknown>;
  } catch {
    parsed = undefined;
  }
  if (!parsed) throw new LlmError('the model did not answer with a JSON object', 'protocol');
  let summary: string | null = null;
  if (input.summary) {
    if (typeof parsed.summary !== 'string' || !parsed.summary.trim())
      throw new LlmError('the model answered no summary', 'protocol');
    summary = clip(parsed.summary);
  }
  let success: AnalysisAnswer['success'] = null;
  if (input.successRubric) {
    const score = typeof parsed.score === 'string' ? Number(parsed.score) : parsed.score;
    if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 10)
      throw new LlmError('the model answered no score from 0 to 10', 'protocol');
    const reasons = clip(reasonsText(parsed.reasons));
    success = { score: Math.round(score * 10) / 10, reasons };
  }
  return { summary, success };
}

/**
 * The offline engine's analysis, the same for the same transcript: the summary is the caller's first sentence and
 * the agent's last one; the score is the share of the rubric's words the conversation used, out of 10, and the
 * reasons name the words found and missed.
 */
export function analyzeOffline(input: AnalysisInput): AnalysisAnswer {
  const said = (role: TranscriptEntry['role']) =>
    input.transcript.filter((t) => t.role === role).flatMap((t) => sentences(t.content));
  let summary: string | null = null;
  if (input.summary) {
    const caller = said('user')[0];
    const agent = said('bot').at(-1);
    summary = clip(
      [
        caller ? `The caller said: "${caller}"` : 'The caller said nothing.',
        agent ? `The agent ended with: "${agent}"` : '',
      ]
        .filter(Boolean)
        .join(' '),
    );
  }
  let success: AnalysisAnswer['success'] = null;
  if (input.successRubric) {
    const wanted = [...new Set(contentWords(input.successRubric))];
    const used = new Set(contentWords(input.transcript.map((t) => t.content).join(' ')));
    const found = wanted.filter((w) => used.has(w));
    const missed = wanted.filter((w) => !used.has(w));
    const score = wanted.length ? Math.round((found.length / wanted.length) * 100) / 10 : 0;
    success = {
      score,
      reasons: clip(
        `The conversation covered ${found.length} of the criteria's ${wanted.length} key words` +
          (found.length ? ` (${found.join(', ')})` : '') +
          (missed.length ? `; not: ${missed.join(', ')}.` : '.'),
      ),
    };
  }
  return { summary, success };
}
