// What the call's models cost, as their providers reported it: every round (a turn's, its tool rounds, an early
// reply that completed, a handoff's summary) counts for the model that wrote it. The line a model writes next
// carries the tokens of that model's rounds since its last line, so a round that said nothing (a tool call, a
// handoff) is not lost from the transcript; the call's totals, per model and key, are kept beside.

import type { ModelUsageEntry, TurnModelUsage } from '@vap/messages';
import type { ChatUsage } from '@vap/llm';
import type { AgentModel, ModelIdentity } from './model-round';

const lineKey = (model: ModelIdentity) => `${model.provider}\u0000${model.model}`;

export class ModelUsageTally {
  /** Tokens not yet on a line, by provider and model. */
  private readonly pending = new Map<string, TurnModelUsage>();
  /** The call's use, by provider, model and who paid. */
  private readonly totals = new Map<string, ModelUsageEntry>();

  /** A round `model` wrote (usage null: the provider reported none). */
  add(model: AgentModel, usage: ChatUsage | null): void {
    const totalKey = `${lineKey(model)}\u0000${model.paidBy ?? ''}`;
    const total = this.totals.get(totalKey) ?? {
      provider: model.provider,
      model: model.model,
      paidBy: model.paidBy,
      inputTokens: 0,
      outputTokens: 0,
      replies: 0,
    };
    total.replies++;
    this.totals.set(totalKey, total);
    if (!usage) return;
    const input = whole(usage.inputTokens);
    const output = whole(usage.outputTokens);
    total.inputTokens += input;
    total.outputTokens += output;
    const line = this.pending.get(lineKey(model)) ?? { input_tokens: 0, output_tokens: 0 };
    line.input_tokens += input;
    line.output_tokens += output;
    this.pending.set(lineKey(model), line);
  }

  /** The tokens of `model`'s rounds since its last line, for the line it wrote now (undefined: none reported). */
  take(model: ModelIdentity): TurnModelUsage | undefined {
    const usage = this.pending.get(lineKey(model));
    this.pending.delete(lineKey(model));
    return usage;
  }

  /** Tokens taken for a line that was never written (nothing of it was heard): the model's next line carries them. */
  giveBack(model: ModelIdentity, usage: TurnModelUsage): void {
    const line = this.pending.get(lineKey(model)) ?? { input_tokens: 0, output_tokens: 0 };
    line.input_tokens += usage.input_tokens;
    line.output_tokens += usage.output_tokens;
    this.pending.set(lineKey(model), line);
  }

  /** The call's model use so far, per model (and key) that wrote at least one round, in the order they first did. */
  entries(): ModelUsageEntry[] {
    return [...this.totals.values()].map((entry) => ({ ...entry }));
  }
}

/** A provider's count as a whole, non-negative number (a broken report counts as nothing). */
function whole(tokens: number): number {
  return Number.isFinite(tokens) && tokens > 0 ? Math.round(tokens) : 0;
}
