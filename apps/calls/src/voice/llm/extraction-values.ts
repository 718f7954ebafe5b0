import { EffectiveExtractionKey } from '@vap/contracts';

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
