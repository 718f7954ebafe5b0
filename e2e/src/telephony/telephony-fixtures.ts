import { randomBytes } from 'node:crypto';
import { api } from '../../support';

/** A standard-tier catalog voice seeded by the agents service's migration. */
const STANDARD_VOICE = '72158370-d269-49a5-ae65-8f33fe3b890b';

/** Creates an agent for routing and calling tests; `baseUrl` targets another gateway than the run's. */
export async function createTestAgent(
  key: string,
  overrides: Record<string, unknown> = {},
  baseUrl?: string,
): Promise<{ id: string }> {
  const res = await api('/agent', {
    method: 'POST',
    key,
    baseUrl,
    body: {
      agent_name: `Telephony ${randomBytes(4).toString('hex')}`,
      prompt: 'You are a polite assistant who answers phone calls.',
      voice_id: STANDARD_VOICE,
      agent_type: 'outbound',
      ...overrides,
    },
  });
  if (res.status !== 200) throw new Error(`POST /agent answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}
