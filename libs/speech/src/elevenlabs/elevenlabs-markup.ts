import { xmlEscape } from '../azure/azure-ssml';
import { splitByPronunciations } from '../pronunciation-match';
import type { Pronunciation } from '../tts-provider';

/**
 * The text as ElevenLabs' SSML parsing takes it (no `<speak>` root; of the pronunciation tags it reads only
 * `<phoneme>`): dictionary words with an IPA spelling in phoneme tags, words with only an alias replaced by
 * it, and everything escaped.
 */
export function elevenLabsPhonemeText(
  text: string,
  pronunciations: readonly Pronunciation[] | undefined,
): string {
  return splitByPronunciations(text, pronunciations, (e) => Boolean(e.ipa?.trim() || e.alias?.trim()))
    .map(({ text: piece, entry }) => {
      if (!entry) return xmlEscape(piece);
      const ipa = entry.ipa?.trim();
      if (ipa) return `<phoneme alphabet="ipa" ph="${xmlEscape(ipa)}">${xmlEscape(piece)}</phoneme>`;
      return xmlEscape(entry.alias!.trim());
    })
    .join('');
}
