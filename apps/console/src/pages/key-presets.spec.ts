import { CUSTOM_PRESET, KEY_PRESETS, presetOf, scopesToSend } from './key-presets';

describe('API key presets', () => {
  it('gives the web page server exactly the scope creating browser sessions needs', () => {
    expect(scopesToSend('web_server', ['billing:write'])).toEqual(['calls:write']);
    expect(KEY_PRESETS[0].label).toBe('Web page server (browser sessions)');
  });

  it('sends no scopes for full access, read_only for reports, and the ticked ones for custom', () => {
    expect(scopesToSend('full', ['calls:read'])).toBeUndefined();
    expect(scopesToSend('read_only', [])).toEqual(['read_only']);
    expect(scopesToSend(CUSTOM_PRESET, ['agents:read', 'calls:read'])).toEqual(['agents:read', 'calls:read']);
    // Custom with nothing ticked is full access, as the API takes a key without scopes.
    expect(scopesToSend(CUSTOM_PRESET, [])).toBeUndefined();
  });

  it('names the preset a key’s scopes amount to', () => {
    expect(presetOf(['calls:write'])).toBe('web_server');
    expect(presetOf(null)).toBe('full');
    expect(presetOf(['read_only'])).toBe('read_only');
    expect(presetOf(['calls:write', 'agents:read'])).toBe(CUSTOM_PRESET);
  });
});
