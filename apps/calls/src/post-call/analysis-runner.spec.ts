import type { AnalysisAnswer, AnalysisInput } from '@vap/llm';
import { AnalysisDefaults, analysisSnapshotOf, type TranscriptEntry } from '@vap/messages';
import { CallsConfig } from '../config/calls.config';
import type { Call } from '../calls/entities/call.entity';
import type { CallSession } from '../calls/entities/call-session.entity';
import { AnalysisRunner } from './analysis-runner.service';
import type { LlmAdapter } from './llm/llm-adapter';
import { ModelChain, type PostCallModels } from './llm/post-call-models';

const said: TranscriptEntry[] = [
  { role: 'bot', content: 'Hello.', timestamp: 't' },
  { role: 'user', content: 'I want to book.', timestamp: 't' },
];

function callOf(analysis: Partial<typeof AnalysisDefaults> | null): Call {
  return {
    variables: { name: 'Ann' },
    agentSettings: analysis ? { analysis: analysisSnapshotOf({ ...AnalysisDefaults, ...analysis }) } : {},
  } as unknown as Call;
}

const session = (transcript = said) => ({ transcript }) as CallSession;

/** An LLM that answers from a script, recording what it was asked. */
function llm(...answers: (AnalysisAnswer | Error)[]): LlmAdapter & { asked: AnalysisInput[] } {
  return named('fake-model', ...answers);
}

function named(
  model: string,
  ...answers: (AnalysisAnswer | Error)[]
): LlmAdapter & { asked: AnalysisInput[] } {
  const asked: AnalysisInput[] = [];
  return {
    model,
    asked,
    extract: async () => ({}),
    analyze: async (input) => {
      asked.push(input);
      const next = answers.shift();
      if (!next || next instanceof Error) throw next ?? new Error('no answer scripted');
      return next;
    },
  };
}

const config = Object.assign(new CallsConfig(), { EXTRACTION_MAX_ATTEMPTS: 2 });

/** The call's models, in order (the plan's, as PostCallModels gives them). */
const on = (...models: LlmAdapter[]) =>
  ({ chainFor: () => ModelChain.of(...models) }) as unknown as PostCallModels;

describe('AnalysisRunner', () => {
  it('asks for what the call started with and judges the score against its threshold', async () => {
    const model = llm({ summary: 'Ann booked.', success: { score: 6, reasons: 'Booked, no date.' } });
    const runner = new AnalysisRunner(config, on(model));
    const result = await runner.run(
      callOf({
        summary_instructions: 'Name the day.',
        success_rubric: 'A visit is booked',
        success_threshold: 7,
      }),
      session(),
    );
    expect(model.asked).toEqual([
      {
        transcript: said,
        variables: { name: 'Ann' },
        summary: true,
        summaryInstructions: 'Name the day.',
        successRubric: 'A visit is booked',
      },
    ]);
    expect(result).toEqual({
      status: 'success',
      model: 'fake-model',
      analyzedAt: expect.any(String),
      latencyMs: expect.any(Number),
      attempts: 1,
      summary: 'Ann booked.',
      success: { passed: false, score: 6, threshold: 7, reasons: 'Booked, no date.' },
      error: null,
    });
    const passing = await new AnalysisRunner(
      config,
      on(llm({ summary: null, success: { score: 7, reasons: '' } })),
    ).run(callOf({ success_rubric: 'A visit is booked', success_threshold: 7 }), session());
    expect(passing?.success?.passed).toBe(true);
  });

  it('retries a failed answer, counting attempts, and reports the last error once they are spent', async () => {
    const recovered = await new AnalysisRunner(
      config,
      on(llm(new Error('503'), { summary: 's', success: null })),
    ).run(callOf({}), session());
    expect(recovered).toMatchObject({ status: 'success', attempts: 2, summary: 's' });
    const failed = await new AnalysisRunner(config, on(llm(new Error('503'), new Error('timed out')))).run(
      callOf({}),
      session(),
    );
    expect(failed).toMatchObject({
      status: 'failed',
      attempts: 2,
      summary: null,
      success: null,
      error: 'timed out',
    });
  });

  it('falls to the next of the agent’s models within an attempt and names the model that answered', async () => {
    const first = named('claude-3-5-haiku-latest', new Error('529 overloaded'), new Error('529 overloaded'));
    const second = named('gpt-4o-mini', { summary: 'Ann booked.', success: null });
    const result = await new AnalysisRunner(config, on(first, second)).run(callOf({}), session());
    expect(result).toMatchObject({
      status: 'success',
      model: 'gpt-4o-mini',
      attempts: 1,
      summary: 'Ann booked.',
    });
    expect([first.asked.length, second.asked.length]).toEqual([1, 1]);
    // Every model failing on every attempt: the last one asked is named with its failure.
    const down = await new AnalysisRunner(
      config,
      on(
        named('a', new Error('a down'), new Error('a down')),
        named('b', new Error('b down'), new Error('b down')),
      ),
    ).run(callOf({}), session());
    expect(down).toMatchObject({ status: 'failed', model: 'b', attempts: 2, error: 'b down' });
  });

  it('skips without asking when nothing is asked or the caller said nothing, and has none for an older call', async () => {
    const model = llm();
    const runner = new AnalysisRunner(config, on(model));
    expect(await runner.run(callOf({ summary_enabled: false }), session())).toMatchObject({
      status: 'skipped',
      attempts: 0,
      error: 'the agent asks for no summary and has no success rubric',
    });
    expect(await runner.run(callOf({}), session([said[0]]))).toMatchObject({
      status: 'skipped',
      error: 'the caller said nothing',
    });
    expect(await runner.run(callOf(null), session())).toBeNull();
    expect(model.asked).toEqual([]);
  });
});
