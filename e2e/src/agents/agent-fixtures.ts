import { randomBytes, randomUUID } from 'node:crypto';
import { api, createPartner } from '../../support';

/** Catalog voices seeded by the agents service's migration (ids fixed across environments). */
export const Voices = {
  /** standard tier, en-IN, female (azure) */
  neerja: '72158370-d269-49a5-ae65-8f33fe3b890b',
  /** standard tier, hi-IN, male (sarvam) */
  abhilash: '59a54a7b-b1fe-408f-9712-42425051c1cc',
  /** premium tier, en-IN, female (elevenlabs) */
  priya: '254b0c4e-010c-4759-882c-9cbc43435cc5',
  /** enterprise tier, hi-IN, female (elevenlabs) */
  aditi: '65e7e423-6472-41a3-8f2c-6ec8cc4169a3',
  /** retired: kept for existing agents, offered to no one */
  retired: '2eae05cf-96d0-4c5f-94c2-8c2e7c26847f',
} as const;

/** Background audio seeded by the same migration. */
export const OFFICE_AMBIENCE = '30cbc97d-0fef-4928-a683-6886a260cd0b';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function uniqueName(prefix = 'Agent'): string {
  return `${prefix} ${randomBytes(4).toString('hex')}`;
}

/** A valid creation body with only the required fields, plus overrides. */
export function agentBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    agent_name: uniqueName(),
    prompt: 'You are a polite assistant who books appointments.',
    voice_id: Voices.neerja,
    agent_type: 'outbound',
    ...overrides,
  };
}

export type VoiceTier = 'standard' | 'premium' | 'enterprise';

/** A fresh partner of the given voice tier: its id and API key. */
export async function newPartner(voiceTier: VoiceTier = 'standard'): Promise<{ id: string; key: string }> {
  const { partner, apiKey } = await createPartner({ voice_tier: voiceTier });
  return { id: partner.id, key: apiKey };
}

/** The API key of a fresh partner of the given voice tier. */
export async function partnerKey(voiceTier: VoiceTier = 'standard'): Promise<string> {
  return (await newPartner(voiceTier)).key;
}

/** Creates an agent and returns its record; fails the test with the response when that is not a 200. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createAgent(key: string, overrides: Record<string, unknown> = {}): Promise<any> {
  const res = await api('/agent', { method: 'POST', key, body: agentBody(overrides) });
  if (res.status !== 200) throw new Error(`POST /agent answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export function randomId(): string {
  return randomUUID();
}

/** The `field`s named by a VALIDATION_ERROR's details. */
export function fieldsOf(body: { error?: { details?: { field: string }[] } }): string[] {
  return (body.error?.details ?? []).map((d) => d.field);
}
