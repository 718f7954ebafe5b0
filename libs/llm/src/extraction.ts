import { EffectiveExtractionKey, TranscriptEntry } from '@vap/messages';
import { ChatMessage } from './chat-model';
import { LlmError } from './llm-error';

/** Post-call extraction: the agent's effective keys, the call's transcript and its pre-call variables. */
export interface ExtractionInput {
  keys: EffectiveExtractionKey[];
  transcript: TranscriptEntry[];
  variables: Record<string, unknown>;
}

/** The chat that asks a model for the extraction as one JSON object. */
export function extractionMessages(input: ExtractionInput): ChatMessage[] {
  const schema = input.keys.map(
    (k) =>
      `- ${k.name} (${k.type}${k.options?.length ? `: one of ${k.options.join(', ')}` : ''}): ${k.description}`,
  );
  const transcript = input.transcript
    .map((t) => `${t.role === 'bot' ? 'Agent' : 'Callee'}: ${t.content}`)
    .join('\n');
  return [
    {
      role: 'system',
      content:
        'Extract the requested fields from a phone call transcript. Answer with one JSON object whose keys are ' +
        'exactly the field names; use null when the call does not say. Dates as YYYY-MM-DD.\nFields:\n' +
        schema.join('\n'),
    },
    {
      role: 'user',
      content: `Pre-call variables: ${JSON.stringify(input.variables)}\n\nTranscript:\n${transcript}`,
    },
  ];
}

/** The JSON object in a model's answer (models sometimes wrap it in prose or a code fence), shaped to the keys. */
export function parseExtractionAnswer(
  keys: EffectiveExtractionKey[],
  answer: string,
): Record<string, unknown> {
  const match = /\{[\s\S]*\}/.exec(answer);
  let parsed: unknown;
  try {
    parsed = match ? JSON.parse(match[0]) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new LlmError('the model did not answer with a JSON object', 'protocol');
  return shapeValues(keys, parsed as Record<string, unknown>);
}

/** A value as the key's type wants it, or null when it cannot be one. */
export function coerceValue(key: EffectiveExtractionKey, value: unknown): unknown {
  if (value === null || value === undefined || value === '') return null;
  switch (key.type) {
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string' && /^(true|yes)$/i.test(value.trim())) return true;
      if (typeof value === 'string' && /^(false|no)$/i.test(value.trim())) return false;
      return null;
    case 'number': {
      const n = typeof value === 'number' ? value : Number(String(value).replace(/[^0-9.+-]/g, ''));
      return Number.isFinite(n) ? n : null;
    }
    case 'date': {
      const parsed = Date.parse(String(value));
      return Number.isNaN(parsed) ? null : new Date(parsed).toISOString().slice(0, 10);
    }
    case 'enum': {
      const options = key.options ?? [];
      return options.find((o) => o.toLowerCase() === String(value).trim().toLowerCase()) ?? null;
    }
    default:
      return typeof value === 'string' ? value.trim() : JSON.stringify(value);
  }
}

/** Keeps exactly the schema's keys, coerced; anything else the model returned is dropped. */
export function shapeValues(
  keys: EffectiveExtractionKey[],
  raw: Record<string, unknown>,
): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k.name, coerceValue(k, raw[k.name])]));
}
