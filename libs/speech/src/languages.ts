import type { SpokenLanguage } from '@vap/messages';

/**
 * BCP-47 locales of the spoken_languages codes as Indian-market providers name them. Hinglish (code-mixed
 * Hindi-English) is recognised and voiced as Hindi of India by providers that have no code-mixed model.
 */
export const INDIAN_LOCALES: Readonly<Record<SpokenLanguage, string>> = {
  en: 'en-IN',
  hinglish: 'hi-IN',
  hi: 'hi-IN',
  mr: 'mr-IN',
  te: 'te-IN',
  ta: 'ta-IN',
  kn: 'kn-IN',
  ml: 'ml-IN',
  gu: 'gu-IN',
  pa: 'pa-IN',
  bn: 'bn-IN',
};

/** ISO 639-1 of a spoken_languages code (hinglish is hi). */
export function isoLanguageOf(language: string): string {
  const code = language.toLowerCase();
  return code === 'hinglish' ? 'hi' : code.split(/[-_]/)[0];
}

/** The spoken_languages code a provider's language answer (hi-IN, hi, en-US) stands for, among the agent's. */
export function spokenLanguageOf(
  answer: string | undefined,
  agentLanguages: readonly string[],
): string | undefined {
  if (!answer) return undefined;
  const iso = isoLanguageOf(answer);
  return agentLanguages.find((l) => isoLanguageOf(l) === iso) ?? iso;
}
