// What a new API key is for, as the key form offers it: a preset chooses exactly the scopes that use needs; custom
// leaves the choice to the person. The scopes a route needs are the gateway's (each route's resource, read for
// GET, write otherwise); the web page server's route only creates browser sessions (POST /browser-sessions).

export interface KeyPreset {
  value: string;
  label: string;
  /** null: no scopes, full access. */
  scopes: string[] | null;
  hint: string;
}

export const CUSTOM_PRESET = 'custom';

export const KEY_PRESETS: readonly KeyPreset[] = [
  {
    value: 'web_server',
    label: 'Web page server (browser sessions)',
    scopes: ['calls:write'],
    hint:
      'For the session route of your web page’s server (Embed on your site): it creates browser sessions and ' +
      'reads calls and sessions, nothing else. Scope: calls:write.',
  },
  {
    value: 'read_only',
    label: 'Reports (read only)',
    scopes: ['read_only'],
    hint: 'Reads everything (calls, agents, billing), changes nothing. Scope: read_only.',
  },
  {
    value: 'full',
    label: 'Full access',
    scopes: null,
    hint: 'Everything the API offers, as your team in the console: keep it on servers you trust.',
  },
  {
    value: CUSTOM_PRESET,
    label: 'Custom: choose the scopes',
    scopes: [],
    hint: 'Tick what the key may do; with none ticked the key has full access.',
  },
];

/** The scopes a key is created with for a preset and the custom choice: undefined means no limit (full access). */
export function scopesToSend(preset: string, custom: string[]): string[] | undefined {
  const chosen = KEY_PRESETS.find((p) => p.value === preset);
  if (!chosen || chosen.value === CUSTOM_PRESET) return custom.length ? [...custom] : undefined;
  return chosen.scopes ? [...chosen.scopes] : undefined;
}

/** The preset a key's scopes amount to (for a key already made), or custom. */
export function presetOf(scopes: string[] | null): string {
  const key = scopes && scopes.length ? [...scopes].sort().join(',') : null;
  const found = KEY_PRESETS.find(
    (p) => p.value !== CUSTOM_PRESET && (p.scopes ? [...p.scopes].sort().join(',') : null) === key,
  );
  return found?.value ?? CUSTOM_PRESET;
}
