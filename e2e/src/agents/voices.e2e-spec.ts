// The voice catalog as each tier sees it, the older agent voice list, and background audio.
import { api } from '../../support';
import { TTS_PROVIDERS } from '@vap/messages';
import { OFFICE_AMBIENCE, partnerKey, UUID, Voices, VoiceTier } from './agent-fixtures';

/** The first seed's Google voices, retired because no Google speech plugin exists. */
const RetiredGoogleVoices = {
  aoede: '26bb7dbd-2d1c-4af0-953e-7c2a26a2c0bd',
  charon: '0316909e-3bbb-49ea-a894-8c893b618676',
};

interface VoiceConfiguration {
  id: string;
  tier: string;
  provider: string;
  model_name: string;
  language: string;
  gender: string;
  status: string;
}

async function catalog(tier: VoiceTier): Promise<VoiceConfiguration[]> {
  const res = await api('/voice-configurations', { key: await partnerKey(tier) });
  expect(res.status).toBe(200);
  return res.body.data.voice_configurations;
}

describe('voices', () => {
  let standard: VoiceConfiguration[];
  let premium: VoiceConfiguration[];
  let enterprise: VoiceConfiguration[];

  beforeAll(async () => {
    [standard, premium, enterprise] = await Promise.all([
      catalog('standard'),
      catalog('premium'),
      catalog('enterprise'),
    ]);
  });

  const tiers = (list: VoiceConfiguration[]) => [...new Set(list.map((v) => v.tier))].sort();
  const ids = (list: VoiceConfiguration[]) => list.map((v) => v.id);

  it('answers voice configurations in the contract shape', async () => {
    expect(standard.length).toBeGreaterThan(10);
    for (const v of standard) {
      expect(v).toEqual({
        id: expect.stringMatching(/^vc_[0-9a-f-]{36}$/),
        display_name: expect.any(String),
        description: expect.any(String),
        provider: expect.any(String),
        model_name: expect.any(String),
        tier: 'standard',
        provider_voice_id: expect.any(String),
        speed: expect.any(Number),
        volume: expect.any(Number),
        language: expect.stringMatching(/^[a-z]{2,3}-[A-Z]{2}$/),
        gender: expect.stringMatching(/^(female|male)$/),
        preview_text: expect.any(String),
        status: 'active',
        // The run's platform has no provider keys and lets the offline engine stand in (NODE_ENV=test); the
        // offline development voices and local speech's voices need no key at all.
        availability: ['offline', 'local'].includes(v.provider) ? 'offline' : 'development_stand_in',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(v.id.slice(3)).toMatch(UUID);
    }
  });

  it('limits the catalog to the tier entitlement, including tier-exclusive voices', () => {
    expect(tiers(standard)).toEqual(['standard']);
    expect(tiers(premium)).toEqual(['premium', 'standard']);
    expect(tiers(enterprise)).toEqual(['enterprise', 'premium', 'standard']);
    // Each higher tier sees everything below it plus its exclusives.
    expect(ids(premium)).toEqual(expect.arrayContaining(ids(standard)));
    expect(ids(enterprise)).toEqual(expect.arrayContaining(ids(premium)));
    expect(ids(premium)).toContain(`vc_${Voices.priya}`);
    expect(ids(standard)).not.toContain(`vc_${Voices.priya}`);
    expect(ids(enterprise)).toContain(`vc_${Voices.aditi}`);
    expect(ids(premium)).not.toContain(`vc_${Voices.aditi}`);
  });

  it('offers several providers and models, both genders, English and the Indian languages', () => {
    expect(new Set(enterprise.map((v) => v.provider)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(enterprise.map((v) => `${v.provider}/${v.model_name}`)).size).toBeGreaterThanOrEqual(6);
    expect([...new Set(standard.map((v) => v.gender))].sort()).toEqual(['female', 'male']);
    const languages = new Set(standard.map((v) => v.language.slice(0, 2)));
    for (const lang of ['en', 'hi', 'mr', 'te', 'ta', 'kn', 'ml', 'gu', 'pa', 'bn'])
      expect(languages).toContain(lang);
  });

  it('never offers a retired voice', () => {
    expect(ids(enterprise)).not.toContain(`vc_${Voices.retired}`);
  });

  it('offers only voices of providers the platform can speak with (no Google stand-ins)', () => {
    for (const v of enterprise) expect(TTS_PROVIDERS).toContain(v.provider);
    expect(enterprise.filter((v) => v.provider === 'google')).toEqual([]);
    for (const id of Object.values(RetiredGoogleVoices)) expect(ids(enterprise)).not.toContain(`vc_${id}`);
  });

  it('answers the older agent voice list with the same voices, voice_id being the configuration UUID', async () => {
    const key = await partnerKey('premium');
    const res = await api('/agent/voices', { key });
    expect(res.status).toBe(200);
    const voices = res.body.data.voices;
    expect(voices[0]).toEqual({
      voice_id: expect.stringMatching(UUID),
      name: expect.any(String),
      gender: expect.stringMatching(/^(female|male)$/),
      language: expect.any(String),
      provider: expect.any(String),
      model: expect.any(String),
      tier: expect.any(String),
      description: expect.any(String),
      availability: 'development_stand_in',
    });
    expect(voices.map((v: { voice_id: string }) => `vc_${v.voice_id}`).sort()).toEqual(ids(premium).sort());
  });

  it('answers the background audio catalog', async () => {
    const res = await api('/agent/background-audio', { key: await partnerKey() });
    expect(res.status).toBe(200);
    const list = res.body.data.background_audio;
    expect(list.length).toBeGreaterThanOrEqual(4);
    expect(list).toContainEqual({
      id: OFFICE_AMBIENCE,
      name: 'Office ambience',
      description: expect.any(String),
      category: 'ambience',
      duration_secs: 120,
      default_volume: 0.3,
    });
  });

  it('requires an API key', async () => {
    for (const path of ['/voice-configurations', '/agent/voices', '/agent/background-audio']) {
      expect((await api(path)).status).toBe(401);
    }
  });
});
