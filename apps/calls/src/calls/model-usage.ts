import type { CallModelUsage, ModelPaidBy, ModelPaidByEntry, TranscriptEntry } from '@vap/messages';

/**
 * A call's model use, per model that wrote its lines, in the order each first did: the tokens the lines carry
 * (each line the tokens of its model's rounds since that model's last line, tool rounds included), the lines it
 * wrote, and whose key answered. The lines are the call's transcript as kept (each recorded once, whatever the
 * retries and the streams), so the sums are exact however often the voice service repeated a report. A line
 * the platform said itself (no model), or recorded before lines named their model, counts for none.
 */
export function callModelUsage(
  transcript: readonly TranscriptEntry[] | null | undefined,
  paidBy: readonly ModelPaidByEntry[] | null | undefined,
): CallModelUsage[] {
  const byModel = new Map<string, CallModelUsage>();
  for (const line of transcript ?? []) {
    if (line.role !== 'bot') continue;
    const provider = line.providers?.llm;
    const model = line.providers?.llm_model;
    if (!provider || !model) continue;
    const key = `${provider}\u0000${model}`;
    let entry = byModel.get(key);
    if (!entry) {
      entry = {
        provider,
        model,
        paid_by: whoPaid(provider, model, paidBy ?? []),
        input_tokens: 0,
        output_tokens: 0,
        replies: 0,
      };
      byModel.set(key, entry);
    }
    entry.replies++;
    entry.input_tokens += line.usage?.input_tokens ?? 0;
    entry.output_tokens += line.usage?.output_tokens ?? 0;
  }
  return [...byModel.values()];
}

/**
 * Whose key answered for a model: the offline engine and the deployment's default model are nobody's (null), a
 * partner's model server is the account's; a cloud provider's is what the voice service reported (the platform
 * when any report says so: its use is what the platform's usage counts), null while no report names it.
 */
function whoPaid(
  provider: CallModelUsage['provider'],
  model: string,
  reported: readonly ModelPaidByEntry[],
): ModelPaidBy | null {
  if (provider === 'offline' || provider === 'platform') return null;
  if (provider === 'custom') return 'account';
  const named = reported.filter((r) => r.provider === provider && r.model === model);
  if (named.some((r) => r.paidBy === 'platform')) return 'platform';
  if (named.some((r) => r.paidBy === 'account')) return 'account';
  return null;
}
