import { entitledVoiceTiers, voiceTierRank } from './voice-tiers';

describe('voice tiers', () => {
  it('orders standard < premium < enterprise', () => {
    expect(voiceTierRank('standard')).toBeLessThan(voiceTierRank('premium'));
    expect(voiceTierRank('premium')).toBeLessThan(voiceTierRank('enterprise'));
  });

  it('entitles each tier to its own and the lower tiers', () => {
    expect(entitledVoiceTiers('standard')).toEqual(['standard']);
    expect(entitledVoiceTiers('premium')).toEqual(['standard', 'premium']);
    expect(entitledVoiceTiers('enterprise')).toEqual(['standard', 'premium', 'enterprise']);
  });

  it('treats an unknown tier as the base tier', () => {
    expect(entitledVoiceTiers('gold')).toEqual(['standard']);
  });
});
