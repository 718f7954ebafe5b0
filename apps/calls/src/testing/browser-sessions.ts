// Browser sessions as a partner creates them (calls.browser_session.create), for the browser-session specs.
import { randomUUID } from 'node:crypto';
import { CreatedBrowserSessionDto } from '@vap/api';
import { PartnerContext } from '@vap/messages';
import { IntegrationApp } from '@vap/testing/integration';
import { CallsConfig } from '../config/calls.config';

export const SPEC_ORIGIN = 'https://app.example.com';

export function createBrowserSession(
  calls: IntegrationApp<CallsConfig>,
  partner: PartnerContext,
  fields: {
    agent_id?: string;
    allowed_origins?: string[];
    metadata?: Record<string, unknown>;
    variables?: Record<string, unknown>;
    customer_id?: string;
  } = {},
): Promise<CreatedBrowserSessionDto> {
  return calls.send('calls.browser_session.create', partner, {
    agent_id: randomUUID(),
    allowed_origins: [SPEC_ORIGIN],
    ...fields,
  });
}
