import type { AgentModel } from './model-round';
import { ModelUsageTally } from './model-usage';

const groq: AgentModel = { provider: 'groq', model: 'llama', paidBy: 'account', llm: {} as never };
const platformGroq: AgentModel = { ...groq, paidBy: 'platform' };
const custom: AgentModel = { provider: 'custom', model: 'mine', paidBy: null, llm: {} as never };

describe('ModelUsageTally', () => {
  it("puts a model's rounds since its last line on the line it writes next, a tool round's included", () => {
    const tally = new ModelUsageTally();
    tally.add(groq, { inputTokens: 100, outputTokens: 12 }); // a tool round: no line of its own
    tally.add(groq, { inputTokens: 130, outputTokens: 20 });
    expect(tally.take(groq)).toEqual({ input_tokens: 230, output_tokens: 32 });
    // Taken once: the next line carries only what came after.
    expect(tally.take(groq)).toBeUndefined();
    tally.add(groq, { inputTokens: 5, outputTokens: 1 });
    expect(tally.take({ provider: 'groq', model: 'llama' })).toEqual({ input_tokens: 5, output_tokens: 1 });
    // A line taken for but never written gives its tokens back to the next one.
    tally.giveBack(groq, { input_tokens: 5, output_tokens: 1 });
    tally.add(groq, { inputTokens: 1, outputTokens: 1 });
    expect(tally.take(groq)).toEqual({ input_tokens: 6, output_tokens: 2 });
  });

  it('keeps the call totals per model and per key, rounds without a report counted as replies only', () => {
    const tally = new ModelUsageTally();
    tally.add(groq, { inputTokens: 10, outputTokens: 2 });
    tally.add(custom, null);
    tally.add(platformGroq, { inputTokens: 7, outputTokens: 3 });
    tally.add(groq, { inputTokens: 1, outputTokens: 1 });
    expect(tally.entries()).toEqual([
      { provider: 'groq', model: 'llama', paidBy: 'account', inputTokens: 11, outputTokens: 3, replies: 2 },
      { provider: 'custom', model: 'mine', paidBy: null, inputTokens: 0, outputTokens: 0, replies: 1 },
      { provider: 'groq', model: 'llama', paidBy: 'platform', inputTokens: 7, outputTokens: 3, replies: 1 },
    ]);
    expect(tally.take(custom)).toBeUndefined();
  });

  it('counts a broken report as nothing rather than corrupting the sums', () => {
    const tally = new ModelUsageTally();
    tally.add(groq, { inputTokens: Number.NaN, outputTokens: -4 });
    tally.add(groq, { inputTokens: 2.6, outputTokens: Infinity });
    expect(tally.entries()[0]).toMatchObject({ inputTokens: 3, outputTokens: 0, replies: 2 });
  });
});
