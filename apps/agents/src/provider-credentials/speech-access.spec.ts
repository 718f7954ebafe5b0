import { availabilityOf, unavailableReason } from './speech-access';

/** A deployment whose platform has an ElevenLabs key for premium accounts. */
const deployment = (offlineStandIn: boolean) => ({
  offlineStandIn,
  platformKeyFor: (provider: string, tier: string) =>
    provider === 'elevenlabs' && tier === 'premium'
      ? { provider: 'elevenlabs' as const, apiKey: 'k', tiers: ['premium' as const] }
      : undefined,
});

describe('availabilityOf', () => {
  const standard = { keys: new Set<string>(), voiceTier: 'standard' };
  const premium = { keys: new Set<string>(), voiceTier: 'premium' };
  const withCartesia = { keys: new Set(['cartesia']), voiceTier: 'standard' };

  it('offers the keyless engines’ voices (offline, local speech) to everyone', () => {
    expect(availabilityOf('offline', standard, deployment(false))).toBe('offline');
    expect(availabilityOf('local', standard, deployment(false))).toBe('offline');
  });

  it('prefers the account’s own key, then the platform’s for its tier', () => {
    expect(availabilityOf('cartesia', withCartesia, deployment(false))).toBe('account_key');
    expect(availabilityOf('elevenlabs', premium, deployment(false))).toBe('platform');
    expect(
      availabilityOf('elevenlabs', { ...premium, keys: new Set(['elevenlabs']) }, deployment(false)),
    ).toBe('account_key');
  });

  it('hides a cloud voice nobody has a key for, unless the offline engine may stand in', () => {
    expect(availabilityOf('elevenlabs', standard, deployment(false))).toBeNull();
    expect(availabilityOf('cartesia', premium, deployment(false))).toBeNull();
    expect(availabilityOf('elevenlabs', standard, deployment(true))).toBe('development_stand_in');
    // A provider the platform has no adapter for is only ever a stand-in.
    expect(availabilityOf('google', withCartesia, deployment(false))).toBeNull();
    expect(availabilityOf('google', withCartesia, deployment(true))).toBe('development_stand_in');
  });
});

describe('unavailableReason', () => {
  it('says which key the voice needs and where to store it', () => {
    expect(unavailableReason('elevenlabs')).toBe(
      'voice_id needs a key for ElevenLabs on this account: store one with POST /provider-credentials ' +
        "(the platform offers no ElevenLabs key for this account's tier)",
    );
    expect(unavailableReason('google')).toMatch(/cannot speak/);
  });
});
