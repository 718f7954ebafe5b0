import { TTS_PROVIDERS, VOICE_GENDERS, VOICE_TIERS } from '@vap/messages';
import { CatalogVoiceLimits, LOCALE_PATTERN } from '@vap/api';
import { SEEDED_VOICES } from './migrations/1765100030000-catalog-voices';

describe('the added catalog voices', () => {
  const rows = SEEDED_VOICES.map(
    ([id, provider, model, tier, providerVoiceId, name, description, language, gender, preview]) => ({
      id,
      provider,
      model,
      tier,
      providerVoiceId,
      name,
      description,
      language,
      gender,
      preview,
    }),
  );

  it('holds only what the operator API would accept', () => {
    for (const v of rows) {
      expect(v.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(TTS_PROVIDERS).toContain(v.provider);
      expect(VOICE_TIERS).toContain(v.tier);
      expect(VOICE_GENDERS).toContain(v.gender);
      expect(v.language).toMatch(LOCALE_PATTERN);
      expect(v.preview.length).toBeGreaterThan(0);
      expect(v.preview.length).toBeLessThanOrEqual(CatalogVoiceLimits.previewTextMax);
      expect(v.name.length).toBeLessThanOrEqual(CatalogVoiceLimits.displayNameMax);
    }
  });

  it('names each voice and each provider voice once', () => {
    expect(new Set(rows.map((v) => v.id)).size).toBe(rows.length);
    expect(new Set(rows.map((v) => `${v.provider}/${v.model}/${v.providerVoiceId}`)).size).toBe(rows.length);
  });

  it('covers US, UK and Australian English from the cloud providers, the Indian languages, and offline voices', () => {
    for (const provider of ['openai', 'elevenlabs', 'cartesia', 'deepgram']) {
      expect(rows.some((v) => v.provider === provider)).toBe(true);
    }
    const accents = new Set(rows.filter((v) => v.language.startsWith('en-')).map((v) => v.language));
    for (const locale of ['en-US', 'en-GB', 'en-AU', 'en-IN']) expect(accents).toContain(locale);
    const sarvam = new Set(rows.filter((v) => v.provider === 'sarvam').map((v) => v.language));
    for (const locale of ['hi-IN', 'bn-IN', 'ta-IN', 'te-IN', 'kn-IN', 'ml-IN', 'mr-IN', 'gu-IN', 'pa-IN'])
      expect(sarvam).toContain(locale);
    const offline = rows.filter((v) => v.provider === 'offline');
    expect(offline.map((v) => `${v.language}/${v.gender}`).sort()).toEqual([
      'en-IN/female',
      'en-IN/male',
      'hi-IN/female',
      'hi-IN/male',
    ]);
    for (const v of offline) expect(v.name).toMatch(/^Offline development voice/);
  });
});
