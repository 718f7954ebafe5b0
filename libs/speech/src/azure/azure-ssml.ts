import { INDIAN_LOCALES } from '../languages';
import { splitByPronunciations } from '../pronunciation-match';
import type { Pronunciation, TtsVoice } from '../tts-provider';

/** Azure's prosody takes a rate within 0.5-2 times the voice's own. */
const MIN_RATE = 0.5;
const MAX_RATE = 2;
/** Volume as a relative change: 0 is silent, 2 is twice as loud (Azure caps at its own maximum). */
const MAX_VOLUME = 2;
const LOCALE = /^[a-z]{2,3}-[A-Z]{2}$/;

/**
 * Characters XML 1.0 forbids anywhere in a document (C0 controls other than tab/LF/CR, lone surrogates,
 * U+FFFE/U+FFFF): escaping cannot make them legal, and Azure refuses the whole request for one of them.
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- matching the forbidden control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Text made safe for XML content and (double- or single-quoted) attribute values. */
export function xmlEscape(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/**
 * The voice's locale for `xml:lang`: its language when that is a locale (en-IN), else the locale its Azure name
 * begins with (hi-IN-SwaraNeural), else the Indian locale of a spoken_languages code (hi -> hi-IN), else en-US.
 */
export function azureLocale(voice: Pick<TtsVoice, 'language' | 'providerVoiceId'>): string {
  const [lang, region] = (voice.language ?? '').trim().split(/[-_]/);
  const asLocale = lang && region ? `${lang.toLowerCase()}-${region.toUpperCase()}` : '';
  if (LOCALE.test(asLocale)) return asLocale;
  const fromName = /^([a-z]{2,3}-[A-Z]{2})-/.exec(voice.providerVoiceId.trim())?.[1];
  if (fromName) return fromName;
  const indian = (INDIAN_LOCALES as Record<string, string | undefined>)[
    (voice.language ?? '').trim().toLowerCase()
  ];
  return indian ?? 'en-US';
}

/** A relative change as Azure's prosody spells it: 1.25 -> "+25%", 0.5 -> "-50%". */
function percentChange(factor: number): string {
  const change = Math.round((factor - 1) * 100);
  return `${change >= 0 ? '+' : ''}${change}%`;
}

/**
 * The text as SSML content with the dictionary's words marked: an IPA spelling as `<phoneme alphabet="ipa">`
 * (the most exact for a provider that reads it), else the alias as `<sub alias>`. Everything is escaped.
 */
export function ssmlContent(text: string, pronunciations: readonly Pronunciation[] | undefined): string {
  return splitByPronunciations(text, pronunciations, (e) => Boolean(e.ipa?.trim() || e.alias?.trim()))
    .map(({ text: piece, entry }) => {
      if (!entry) return xmlEscape(piece);
      if (entry.ipa?.trim()) {
        return `<phoneme alphabet="ipa" ph="${xmlEscape(entry.ipa.trim())}">${xmlEscape(piece)}</phoneme>`;
      }
      return `<sub alias="${xmlEscape(entry.alias!.trim())}">${xmlEscape(piece)}</sub>`;
    })
    .join('');
}

/**
 * The SSML document of one synthesis: the voice by its Azure name, its locale as xml:lang, the catalog's speed
 * and volume as prosody, the text with its pronunciations.
 */
export function azureSsml(text: string, voice: TtsVoice, pronunciations?: readonly Pronunciation[]): string {
  const rate = Math.min(MAX_RATE, Math.max(MIN_RATE, voice.speed || 1));
  const volume = Math.min(MAX_VOLUME, Math.max(0, voice.volume ?? 1));
  return (
    `<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="${xmlEscape(azureLocale(voice))}">` +
    `<voice name="${xmlEscape(voice.providerVoiceId.trim())}">` +
    `<prosody rate="${percentChange(rate)}" volume="${percentChange(volume)}">` +
    ssmlContent(text, pronunciations) +
    '</prosody></voice></speak>'
  );
}
