import { usageFigures, usageReport, UsageRow } from './usage-report';

type TokenPart =
  'modelInputTokens' | 'modelOutputTokens' | 'platformModelInputTokens' | 'platformModelOutputTokens';
const NO_TOKENS: Pick<UsageRow, TokenPart> = {
  modelInputTokens: 0,
  modelOutputTokens: 0,
  platformModelInputTokens: 0,
  platformModelOutputTokens: 0,
};
const NO_TOKEN_FIGURES = {
  model_input_tokens: 0,
  model_output_tokens: 0,
  platform_model_input_tokens: 0,
  platform_model_output_tokens: 0,
};

const row = (
  key: string | null,
  calls: number,
  billedSeconds: number,
  paise: number,
  platformSpeechSeconds = 0,
  tokens: Partial<Pick<UsageRow, TokenPart>> = {},
) =>
  ({ key, calls, billedSeconds, paise, platformSpeechSeconds, ...NO_TOKENS, ...tokens }) satisfies UsageRow;

describe('usageReport', () => {
  it('orders the buckets by key, the ungrouped one last, and totals the integers', () => {
    const report = usageReport([
      row(null, 1, 10, 17),
      row('2026-01-02', 2, 61, 101, 60),
      row('2026-01-01', 1, 1, 2),
    ]);
    expect(report.buckets.map((b) => b.key)).toEqual(['2026-01-01', '2026-01-02', null]);
    expect(report.totals).toEqual({
      calls: 4,
      billed_seconds: 72,
      minutes: 1.2,
      credits_inr: 1.2,
      platform_speech_billed_seconds: 60,
      platform_speech_minutes: 1,
      ...NO_TOKEN_FIGURES,
    });
  });

  it('sums the totals from seconds and paise, not from the rounded bucket figures', () => {
    // Three buckets of 1 s: 0.02 min each rounded, 3 s together is 0.05 min.
    const report = usageReport(['a', 'b', 'c'].map((key) => row(key, 1, 1, 1, 1)));
    expect(report.buckets.map((b) => b.minutes)).toEqual([0.02, 0.02, 0.02]);
    expect(report.totals.minutes).toBe(0.05);
    expect(report.totals.credits_inr).toBe(0.03);
    // Platform speech minutes likewise: from the seconds, never the rounded bucket minutes.
    expect(report.buckets.map((b) => b.platform_speech_minutes)).toEqual([0.02, 0.02, 0.02]);
    expect(report.totals.platform_speech_billed_seconds).toBe(3);
    expect(report.totals.platform_speech_minutes).toBe(0.05);
  });

  it('keeps each bucket’s platform speech seconds its own, a part of its billed seconds', () => {
    const report = usageReport([row('agent-a', 3, 200, 340, 125), row('agent-b', 2, 90, 150, 0)]);
    expect(report.buckets).toEqual([
      {
        key: 'agent-a',
        calls: 3,
        billed_seconds: 200,
        minutes: 3.33,
        credits_inr: 3.4,
        platform_speech_billed_seconds: 125,
        platform_speech_minutes: 2.08,
        ...NO_TOKEN_FIGURES,
      },
      {
        key: 'agent-b',
        calls: 2,
        billed_seconds: 90,
        minutes: 1.5,
        credits_inr: 1.5,
        platform_speech_billed_seconds: 0,
        platform_speech_minutes: 0,
        ...NO_TOKEN_FIGURES,
      },
    ]);
    expect(report.totals.platform_speech_billed_seconds).toBe(125);
    for (const b of [...report.buckets, report.totals]) {
      expect(b.platform_speech_billed_seconds).toBeLessThanOrEqual(b.billed_seconds);
    }
  });

  it('answers zero totals and no buckets for a range without charges', () => {
    expect(usageReport([])).toEqual({
      buckets: [],
      totals: {
        calls: 0,
        billed_seconds: 0,
        minutes: 0,
        credits_inr: 0,
        platform_speech_billed_seconds: 0,
        platform_speech_minutes: 0,
        ...NO_TOKEN_FIGURES,
      },
    });
  });

  it('gives minutes to two decimals', () => {
    const figures = usageFigures({
      calls: 1,
      billedSeconds: 95,
      paise: 150,
      platformSpeechSeconds: 95,
      ...NO_TOKENS,
    });
    expect(figures.minutes).toBe(1.58);
    expect(figures.platform_speech_minutes).toBe(1.58);
  });

  it('sums each bucket’s model tokens and the platform’s part of them into exact totals', () => {
    const report = usageReport([
      row('agent-a', 2, 120, 200, 0, {
        modelInputTokens: 900,
        modelOutputTokens: 70,
        platformModelInputTokens: 400,
        platformModelOutputTokens: 30,
      }),
      row('agent-b', 1, 60, 100, 0, { modelInputTokens: 15, modelOutputTokens: 4 }),
    ]);
    expect(report.buckets.map((b) => [b.key, b.model_input_tokens, b.platform_model_input_tokens])).toEqual([
      ['agent-a', 900, 400],
      ['agent-b', 15, 0],
    ]);
    expect(report.totals).toMatchObject({
      model_input_tokens: 915,
      model_output_tokens: 74,
      platform_model_input_tokens: 400,
      platform_model_output_tokens: 30,
    });
  });
});
