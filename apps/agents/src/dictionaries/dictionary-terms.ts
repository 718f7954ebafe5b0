import { EntityManager, In } from 'typeorm';
import { MAX_PLAN_KEYTERMS, SpeechPlanPronunciation } from '@vap/messages';
import { Dictionary, StoredDictionaryEntry } from './entities/dictionary.entity';

/** Pronunciations a plan carries at most (5 dictionaries of 500 entries would be 2 500). */
export const MAX_PLAN_PRONUNCIATIONS = 1000;

/**
 * What a call's speech takes of the agent's dictionaries: every word as a keyterm to boost (deduplicated
 * case-insensitively, at most MAX_PLAN_KEYTERMS, dictionaries in the agent's order), and the entries that say how
 * to pronounce them (alias or IPA; the first dictionary naming a word wins). Ids of another account or of a
 * dictionary deleted since the call started are skipped.
 */
export async function dictionaryTerms(
  em: EntityManager,
  partnerId: string,
  ids: readonly string[],
): Promise<{ keyterms: string[]; pronunciations: SpeechPlanPronunciation[] }> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return { keyterms: [], pronunciations: [] };
  const rows = await em.findBy(Dictionary, { id: In(wanted), partnerId });
  const byId = new Map(rows.map((d) => [d.id, d]));
  const entries = wanted.flatMap((id) => byId.get(id)?.entries ?? []);
  return termsOf(entries);
}

/** The keyterms and pronunciations of entries in order (see dictionaryTerms). */
export function termsOf(entries: readonly StoredDictionaryEntry[]): {
  keyterms: string[];
  pronunciations: SpeechPlanPronunciation[];
} {
  const keyterms: string[] = [];
  const pronunciations: SpeechPlanPronunciation[] = [];
  const seenTerm = new Set<string>();
  const seenSaid = new Set<string>();
  for (const entry of entries) {
    const key = entry.word.toLowerCase();
    if (keyterms.length < MAX_PLAN_KEYTERMS && !seenTerm.has(key)) {
      seenTerm.add(key);
      keyterms.push(entry.word);
    }
    if ((entry.alias || entry.ipa) && !seenSaid.has(key) && pronunciations.length < MAX_PLAN_PRONUNCIATIONS) {
      seenSaid.add(key);
      pronunciations.push({
        word: entry.word,
        ...(entry.alias ? { alias: entry.alias } : {}),
        ...(entry.ipa ? { ipa: entry.ipa } : {}),
      });
    }
  }
  return { keyterms, pronunciations };
}
