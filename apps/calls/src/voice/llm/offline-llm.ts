import { EffectiveExtractionKey } from '@vap/contracts';
import { AgentReplyInput, ExtractionInput, LlmAdapter } from './llm-adapter';
import { coerceValue } from './extraction-values';

const STOP_WORDS = new Set(
  'a an the is are was were be to of and or in on at for with by from this that it its as do does did has have had if whether the caller callee call customer user'.split(
    ' ',
  ),
);
const NEGATION = /\b(no|not|don't|dont|never|nope|can't|cannot|won't|isn't|wasn't)\b/i;
const MONTHS = 'january february march april may june july august september october november december'.split(
  ' ',
);

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 2 && !STOP_WORDS.has(w));
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

/**
 * The deterministic engine used when no LLM server is configured: replies grounded in the knowledge-base
 * context or the agent's prompt, and extraction by matching each key's name and description against what
 * the callee said. Same input, same output, no network.
 */
export class OfflineLlm implements LlmAdapter {
  readonly model = 'offline-rules-v1';

  async reply(input: AgentReplyInput): Promise<string> {
    if (input.knowledge) {
      const facts = sentences(input.knowledge.replace(/\s+/g, ' ')).slice(0, 2).join(' ');
      return clip(`Here is what I can tell you: ${facts}`, 300);
    }
    const purpose = sentences(input.prompt.replace(/\s+/g, ' '))[0] ?? '';
    const self = purpose.replace(/^you are\b/i, 'I am').replace(/^your\b/i, 'My');
    const opener = /\?\s*$/.test(input.userText) ? 'Good question.' : 'Thank you.';
    return clip(`${opener} ${self || 'I am here to help you today.'}`.trim(), 300);
  }

  async extract(input: ExtractionInput): Promise<Record<string, unknown>> {
    const said = input.transcript.filter((t) => t.role === 'user').flatMap((t) => sentences(t.content));
    return Object.fromEntries(input.keys.map((key) => [key.name, this.valueOf(key, said)]));
  }

  private valueOf(key: EffectiveExtractionKey, said: string[]): unknown {
    const terms = new Set(words(`${key.name.replace(/_/g, ' ')} ${key.description}`));
    let best: string | null = null;
    let bestScore = 0;
    for (const s of said) {
      const score = words(s).filter((w) => terms.has(w)).length;
      if (score > bestScore) {
        best = s;
        bestScore = score;
      }
    }
    switch (key.type) {
      case 'boolean':
        return best === null ? null : !NEGATION.test(best);
      case 'number':
        return coerceValue(key, best === null ? null : (/-?\d+(\.\d+)?/.exec(best)?.[0] ?? null));
      case 'date':
        return this.dateIn(best ? [best, ...said] : said);
      case 'enum': {
        const all = said.join(' ').toLowerCase();
        return (key.options ?? []).find((o) => all.includes(o.toLowerCase())) ?? null;
      }
      default:
        return best;
    }
  }

  private dateIn(texts: string[]): string | null {
    for (const t of texts) {
      const iso = /\b(\d{4}-\d{2}-\d{2})\b/.exec(t);
      if (iso) return iso[1];
      const named = new RegExp(
        `\\b(${MONTHS.join('|')})\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?`,
        'i',
      ).exec(t);
      if (named) {
        const month = MONTHS.indexOf(named[1].toLowerCase()) + 1;
        const year = named[3] ?? String(new Date().getUTCFullYear());
        return `${year}-${String(month).padStart(2, '0')}-${named[2].padStart(2, '0')}`;
      }
    }
    return null;
  }
}
