/** Languages an agent can speak: English, Hinglish (code-mixed Hindi-English), Hindi and the regional languages. */
export const SPOKEN_LANGUAGES = [
  'en',
  'hinglish',
  'hi',
  'mr',
  'te',
  'ta',
  'kn',
  'ml',
  'gu',
  'pa',
  'bn',
] as const;
export type SpokenLanguage = (typeof SPOKEN_LANGUAGES)[number];

/** Hindi and the regional languages: an agent speaks at most one of them. */
export const REGIONAL_LANGUAGES: readonly SpokenLanguage[] = [
  'hi',
  'mr',
  'te',
  'ta',
  'kn',
  'ml',
  'gu',
  'pa',
  'bn',
];

/** What an empty or omitted spoken_languages means. */
export const DEFAULT_SPOKEN_LANGUAGES: readonly SpokenLanguage[] = ['en'];

export const MAX_SPOKEN_LANGUAGES = 2;

/**
 * Why a spoken_languages value is not allowed, or null when it is. Rules: an array of at most two distinct
 * allowed codes; at most one of Hindi and the regional languages; hinglish only alone or with en or hi.
 */
export function spokenLanguagesProblem(value: unknown): string | null {
  if (!Array.isArray(value)) return 'spoken_languages must be an array of language codes';
  if (value.length > MAX_SPOKEN_LANGUAGES)
    return `spoken_languages takes at most ${MAX_SPOKEN_LANGUAGES} languages`;
  const unknown = value.find((v) => !(SPOKEN_LANGUAGES as readonly unknown[]).includes(v));
  if (unknown !== undefined) {
    return `spoken_languages: ${JSON.stringify(unknown)} is not one of ${SPOKEN_LANGUAGES.join(', ')}`;
  }
  const langs = value as SpokenLanguage[];
  if (new Set(langs).size !== langs.length) return 'spoken_languages must not repeat a language';
  if (langs.filter((l) => REGIONAL_LANGUAGES.includes(l)).length > 1) {
    return 'spoken_languages may hold at most one of Hindi and the regional languages';
  }
  if (langs.includes('hinglish') && langs.some((l) => l !== 'hinglish' && l !== 'en' && l !== 'hi')) {
    return 'spoken_languages: hinglish pairs only with en or hi';
  }
  return null;
}
