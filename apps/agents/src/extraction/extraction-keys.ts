import { ExtractionKeyDto, ExtractionKeyInputDto } from '@vap/api';

/** The stored form of keys: description always a string, options only on enum keys. */
export function normalizeKeys(keys: readonly ExtractionKeyInputDto[]): ExtractionKeyDto[] {
  return keys.map((k) => ({
    name: k.name,
    type: k.type,
    ...(k.type === 'enum' && k.options ? { options: [...k.options] } : {}),
    description: k.description ?? '',
  }));
}

/** Where keys of an agent's effective schema come from: its inline config or one attached set. */
export interface KeySource {
  label: string;
  keys: readonly { name: string }[];
}

/**
 * Key names defined by more than one source, each with the sources that define it. An agent's effective
 * schema must have none, so extraction never has to pick between two definitions.
 */
export function keyClashes(sources: readonly KeySource[]): { name: string; sources: string[] }[] {
  const where = new Map<string, string[]>();
  for (const source of sources) {
    for (const key of source.keys) where.set(key.name, [...(where.get(key.name) ?? []), source.label]);
  }
  return [...where]
    .filter(([, labels]) => labels.length > 1)
    .map(([name, labels]) => ({ name, sources: labels }));
}
