import { LanguageModel, OfflineChatModel } from '@vap/llm';
import { TestJudgeVerdictDto } from '@vap/api';
import type { TranscriptEntry } from '@vap/messages';
import type { TestJudge } from '../../test-scenarios/test-scenario-row';

/**
 * The LLM judge: the post-call analysis' success evaluation (the same prompt and parsing as the calls service's
 * analysis, on the configured model or the offline engine), its 0..10 score read as 0..1 against the threshold.
 */
export async function judgeCall(
  model: LanguageModel,
  judge: TestJudge,
  transcript: { role: 'agent' | 'caller'; text: string }[],
  variables: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<TestJudgeVerdictDto> {
  const entries: TranscriptEntry[] = transcript.map((l) => ({
    role: l.role === 'agent' ? 'bot' : 'user',
    content: l.text,
    timestamp: new Date(0).toISOString(),
  }));
  const answer = await model.analyze(
    {
      transcript: entries,
      variables,
      summary: false,
      summaryInstructions: null,
      successRubric: judge.rubric,
    },
    signal,
  );
  const score = Math.round(((answer.success?.score ?? 0) / 10) * 100) / 100;
  return {
    score,
    pass_threshold: judge.pass_threshold,
    passed: score >= judge.pass_threshold,
    reasons: answer.success?.reasons ?? '',
    model: model instanceof OfflineChatModel ? 'offline' : model.model,
  };
}
