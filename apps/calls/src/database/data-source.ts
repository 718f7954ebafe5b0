import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { MESSAGING_ENTITIES } from '@vap/messaging';
import { schemaDataSourceOptions, migrationsIn } from '@vap/persistence';
import { CallsConfig } from '../config/calls.config';
import { Call } from '../calls/entities/call.entity';
import { CallSession } from '../calls/entities/call-session.entity';
import { BrowserSession } from '../carriers/browser/entities/browser-session.entity';
import { Connection } from '../telephony/connections/entities/connection.entity';
import { PhoneNumber } from '../telephony/phone-numbers/entities/phone-number.entity';
import { InboundRouteDecision } from '../telephony/inbound-routing/entities/inbound-route-decision.entity';
import { InboundRoutePolicy } from '../telephony/inbound-routing/entities/inbound-route-policy.entity';
import { ConnectionCredentials } from '../telephony/connections/entities/connection-credentials.entity';
import { ConnectionHealthRow } from '../telephony/connections/entities/connection-health.entity';
import { ContactPolicySettingsRow } from '../telephony/contact-policy/entities/contact-policy-settings.entity';
import { DoNotCallEntry } from '../telephony/contact-policy/entities/do-not-call-entry.entity';
import { PolicyDecision } from '../telephony/contact-policy/entities/policy-decision.entity';
import { LifecycleHook } from '../lifecycle-hooks/entities/lifecycle-hook.entity';
import { Message } from '../messages/entities/message.entity';
import { SmsPolicyRow } from '../messages/entities/sms-policy.entity';

export const SCHEMA = 'calls';

export function callsDataSourceOptions(config: CallsConfig): DataSourceOptions {
  return schemaDataSourceOptions({
    url: config.DATABASE_URL,
    schema: SCHEMA,
    entities: [
      ...MESSAGING_ENTITIES,
      Connection,
      PhoneNumber,
      Call,
      CallSession,
      BrowserSession,
      ConnectionCredentials,
      ConnectionHealthRow,
      InboundRoutePolicy,
      InboundRouteDecision,
      DoNotCallEntry,
      PolicyDecision,
      ContactPolicySettingsRow,
      LifecycleHook,
      Message,
      SmsPolicyRow,
    ],
    migrations: migrationsIn(join(__dirname, 'migrations')),
    applicationName: 'calls',
  });
}
