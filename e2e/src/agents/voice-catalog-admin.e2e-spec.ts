// The operator's catalog management (/admin/v1/voices) and what partners see of it: added voices offered to
// the tiers they belong to, changes, retirement, and a voice's preview as a WAV its words decode from.
import { randomBytes } from 'node:crypto';
import { decodePcm16Wav } from '@vap/media';
import { FakeRecogniser } from '@vap/speech/testing';
import { adminApi, api, gatewayUrl } from '../../support';
import { agentBody, createAgent, fieldsOf, newPartner, UUID, Voices, VoiceTier } from './agent-fixtures';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;

function voiceBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const tag = randomBytes(4).toString('hex');
  return {
    display_name: `Test voice ${tag}`,
    description: 'Added by the catalog e2e spec',
    provider: 'offline',
    model_name: 'flite',
    tier: 'standard',
    provider_voice_id: `e2e-${tag}-female`,
    language: 'en-IN',
    gender: 'female',
    preview_text: `Hello, this is voice ${tag} speaking.`,
    ...overrides,
  };
}

async function addVoice(overrides: Record<string, unknown> = {}): Promise<Body> {
  const res = await adminApi('/voices', { method: 'POST', body: voiceBody(overrides) });
  if (res.status !== 200)
    throw new Error(`POST /admin/v1/voices answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function catalogIds(key: string): Promise<string[]> {
  const res = await api('/voice-configurations', { key });
  expect(res.status).toBe(200);
  return res.body.data.voice_configurations.map((v: { id: string }) => v.id);
}

interface Preview {
  status: number;
  contentType: string | null;
  engine: string | null;
  bytes: Buffer;
  ms: number;
}

async function preview(key: string, id: string): Promise<Preview> {
  const started = Date.now();
  const res = await fetch(`${gatewayUrl()}/api/v2/voice-configurations/${id}/preview`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    engine: res.headers.get('x-voice-preview-engine'),
    bytes,
    ms: Date.now() - started,
  };
}

/** The words the offline engine's speech in a WAV carries, as a fake recogniser hears them. */
function wordsOf(wav: Buffer): string[] {
  const { samples, sampleRate } = decodePcm16Wav(wav);
  const recogniser = new FakeRecogniser(sampleRate);
  const heard: string[] = [];
  // 20 ms frames, as audio arrives on a call.
  const frame = sampleRate / 50;
  for (let at = 0; at < samples.length; at += frame)
    heard.push(...recogniser.push(samples.subarray(at, at + frame)));
  return heard;
}

describe('voice catalog: operator management', () => {
  const keys: Partial<Record<VoiceTier, string>> = {};
  const keyOf = async (tier: VoiceTier) => (keys[tier] ??= (await newPartner(tier)).key);

  it('adds a voice that partners of its tier and above see', async () => {
    const voice = await addVoice({ tier: 'premium' });
    expect(voice).toEqual({
      id: `vc_${voice.voice_id}`,
      voice_id: expect.stringMatching(UUID),
      display_name: expect.stringMatching(/^Test voice /),
      description: 'Added by the catalog e2e spec',
      provider: 'offline',
      model_name: 'flite',
      tier: 'premium',
      provider_voice_id: expect.stringMatching(/^e2e-/),
      speed: 1,
      volume: 1,
      language: 'en-IN',
      gender: 'female',
      preview_text: expect.any(String),
      status: 'active',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await catalogIds(await keyOf('premium'))).toContain(voice.id);
    expect(await catalogIds(await keyOf('enterprise'))).toContain(voice.id);
    expect(await catalogIds(await keyOf('standard'))).not.toContain(voice.id);
    const agentVoices = await api('/agent/voices', { key: await keyOf('premium') });
    expect(agentVoices.body.data.voices.map((v: { voice_id: string }) => v.voice_id)).toContain(
      voice.voice_id,
    );
    // An agent may take it as its voice or a fallback within the tier, not below it.
    expect((await createAgent(await keyOf('premium'), { voice_id: voice.voice_id })).voice_id).toBe(
      voice.voice_id,
    );
    const refused = await api('/agent', {
      method: 'POST',
      key: await keyOf('standard'),
      body: agentBody({ fallback_voice_ids: [voice.voice_id] }),
    });
    expect(refused.status).toBe(400);
    expect(fieldsOf(refused.body)).toEqual(['fallback_voice_ids']);
  });

  it.each([
    ['an unknown provider', { provider: 'google' }, 'provider'],
    ['a language that is not a locale', { language: 'english' }, 'language'],
    ['an unknown tier', { tier: 'gold' }, 'tier'],
    ['an unknown gender', { gender: 'robot' }, 'gender'],
    ['speed out of range', { speed: 3 }, 'speed'],
    ['a long preview text', { preview_text: 'x'.repeat(301) }, 'preview_text'],
    ['no display name', { display_name: '' }, 'display_name'],
  ])('refuses %s with 400 naming the field', async (_title, overrides, field) => {
    const res = await adminApi('/voices', { method: 'POST', body: voiceBody(overrides) });
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body)).toEqual([field]);
  });

  it('refuses the same provider voice twice with 409', async () => {
    const body = voiceBody();
    expect((await adminApi('/voices', { method: 'POST', body })).status).toBe(200);
    const again = await adminApi('/voices', { method: 'POST', body: { ...body, display_name: 'Copy' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
  });

  it('needs the operator token', async () => {
    expect((await api('/admin/v1/voices')).status).toBe(401);
    expect((await api('/admin/v1/voices', { key: await keyOf('enterprise') })).status).toBe(401);
  });

  it('changes a voice; partners see the change', async () => {
    const voice = await addVoice();
    const res = await adminApi(`/voices/${voice.id}`, {
      method: 'PATCH',
      body: { display_name: 'Renamed voice', speed: 1.2, tier: 'premium' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      display_name: 'Renamed voice',
      speed: 1.2,
      tier: 'premium',
      status: 'active',
    });
    expect(Date.parse(res.body.data.updated_at)).toBeGreaterThan(Date.parse(voice.updated_at));
    expect(await catalogIds(await keyOf('standard'))).not.toContain(voice.id);
    const premium = await api('/voice-configurations', { key: await keyOf('premium') });
    const seen = premium.body.data.voice_configurations.find((v: { id: string }) => v.id === voice.id);
    expect(seen).toMatchObject({ display_name: 'Renamed voice', speed: 1.2 });
    // The bare UUID names it too; an unknown one is 404.
    const bare = await adminApi(`/voices/${voice.voice_id}`, { method: 'PATCH', body: { speed: 1 } });
    expect(bare.status).toBe(200);
    const missing = await adminApi(`/voices/vc_${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, {
      method: 'PATCH',
      body: { speed: 1 },
    });
    expect(missing.status).toBe(404);
    expect((await adminApi('/voices/nonsense', { method: 'PATCH', body: { speed: 1 } })).status).toBe(404);
  });

  it('retires a voice: offered to no one, kept by the agents that have it', async () => {
    const voice = await addVoice();
    const key = await keyOf('standard');
    const agent = await createAgent(key, { voice_id: voice.voice_id });
    const retired = await adminApi(`/voices/${voice.id}/retire`, { method: 'POST' });
    expect(retired.status).toBe(200);
    expect(retired.body.data.status).toBe('retired');
    const again = await adminApi(`/voices/${voice.id}/retire`, { method: 'POST' });
    expect(again.body.data).toEqual(retired.body.data);

    expect(await catalogIds(key)).not.toContain(voice.id);
    const kept = await api(`/agent/${agent.id}`, { key });
    expect(kept.body.data.voice_id).toBe(voice.voice_id);
    // Editing something else keeps it; giving it anew is refused.
    const edited = await api(`/agent/${agent.id}`, { method: 'PUT', key, body: { prompt: 'Still here.' } });
    expect(edited.status).toBe(200);
    const fresh = await api('/agent', { method: 'POST', key, body: agentBody({ voice_id: voice.voice_id }) });
    expect(fresh.status).toBe(400);
    expect(fieldsOf(fresh.body)).toEqual(['voice_id']);

    const listed = await adminApi('/voices?status=retired');
    expect(listed.status).toBe(200);
    expect(listed.body.data.voices.map((v: { id: string }) => v.id)).toContain(voice.id);
    const active = await adminApi('/voices?status=active&provider=offline');
    expect(
      active.body.data.voices.every(
        (v: { status: string; provider: string }) => v.status === 'active' && v.provider === 'offline',
      ),
    ).toBe(true);
    expect((await adminApi('/voices?status=gone')).status).toBe(400);
  });

  it('lists the added seed: English of several accents, Indian languages and offline development voices', async () => {
    const res = await adminApi('/voices?status=active');
    const voices: { provider: string; language: string; display_name: string }[] = res.body.data.voices;
    const accents = new Set(voices.filter((v) => v.language.startsWith('en-')).map((v) => v.language));
    for (const locale of ['en-US', 'en-GB', 'en-AU', 'en-IN']) expect(accents).toContain(locale);
    for (const provider of ['openai', 'elevenlabs', 'cartesia', 'deepgram', 'sarvam'])
      expect(voices.some((v) => v.provider === provider)).toBe(true);
    expect(voices.some((v) => v.display_name === 'Offline development voice — English (female)')).toBe(true);
  });
});

describe('voice preview', () => {
  let key: string;

  beforeAll(async () => {
    ({ key } = await newPartner('standard'));
  });

  it('answers an offline voice saying its preview text, as a RIFF WAV, the same bytes when asked again', async () => {
    const voice = await addVoice();
    const first = await preview(key, voice.id);
    expect(first.status).toBe(200);
    expect(first.contentType).toBe('audio/wav');
    expect(first.engine).toBe('offline');
    expect(first.bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(first.bytes.subarray(8, 12).toString('ascii')).toBe('WAVE');
    const { sampleRate, samples } = decodePcm16Wav(first.bytes);
    expect(sampleRate).toBe(8000);
    expect(samples.length).toBeGreaterThan(8000 * 0.5);
    expect(wordsOf(first.bytes)).toEqual([voice.preview_text]);

    const second = await preview(key, voice.id);
    expect(second.status).toBe(200);
    expect(second.bytes.equals(first.bytes)).toBe(true);
  });

  it('speaks a changed preview text after the operator changes it', async () => {
    const voice = await addVoice();
    expect(wordsOf((await preview(key, voice.id)).bytes)).toEqual([voice.preview_text]);
    const text = 'A different sentence for the preview.';
    expect(
      (await adminApi(`/voices/${voice.id}`, { method: 'PATCH', body: { preview_text: text } })).status,
    ).toBe(200);
    expect(wordsOf((await preview(key, voice.id)).bytes)).toEqual([text]);
  });

  it('stands in with the offline engine for a cloud voice the platform has no key for', async () => {
    const voice = await addVoice({
      provider: 'elevenlabs',
      model_name: 'eleven_flash_v2_5',
      provider_voice_id: `E2e${randomBytes(6).toString('hex')}`,
    });
    const res = await preview(key, voice.id);
    expect(res.status).toBe(200);
    expect(res.engine).toBe('offline');
    expect(wordsOf(res.bytes)).toEqual([voice.preview_text]);
  });

  it('previews a seeded voice of the catalog', async () => {
    const res = await preview(key, `vc_${Voices.neerja}`);
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('audio/wav');
    expect(wordsOf(res.bytes)).toHaveLength(1);
  });

  it('answers 404 for voices the account cannot see: above its tier, retired, unknown or malformed', async () => {
    const premium = await addVoice({ tier: 'premium' });
    const retired = await addVoice();
    await adminApi(`/voices/${retired.id}/retire`, { method: 'POST' });
    for (const id of [
      premium.id,
      retired.id,
      `vc_${Voices.retired}`,
      `vc_${Voices.priya}`,
      Voices.neerja,
      'vc_nope',
    ]) {
      const res = await api(`/voice-configurations/${id}/preview`, { key });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('requires an API key', async () => {
    expect((await api(`/voice-configurations/vc_${Voices.neerja}/preview`)).status).toBe(401);
  });
});
