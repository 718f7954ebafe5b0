import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { MESSAGING_ENTITIES } from '@vap/messaging';
import { schemaDataSourceOptions, migrationsIn } from '@vap/persistence';
import { AgentSetting } from '../agent-flag/entities/agent-setting.entity';
import { WebhooksConfig } from '../config/webhooks.config';
import { WebhookEndpoint } from '../endpoints/entities/webhook-endpoint.entity';

export const SCHEMA = 'webhooks';

export function webhooksDataSourceOptions(config: WebhooksConfig): DataSourceOptions {
  return schemaDataSourceOptions({
    url: config.DATABASE_URL,
    schema: SCHEMA,
    entities: [...MESSAGING_ENTITIES, WebhookEndpoint, AgentSetting],
    migrations: migrationsIn(join(__dirname, 'migrations')),
    applicationName: 'webhooks',
    // Delivery workers, fan-out consumers and commands share it; sends wait on the network, not on the pool.
    poolSize: config.WEBHOOK_DB_POOL_SIZE,
  });
}
