import { DataSourceOptions } from 'typeorm';
import { MESSAGING_ENTITIES } from '@vap/messaging';
import { schemaDataSourceOptions } from '@vap/persistence';
import { WebhooksConfig } from '../config/webhooks.config';
import { MIGRATIONS } from './migrations';

export const SCHEMA = 'webhooks';

export function webhooksDataSourceOptions(config: WebhooksConfig): DataSourceOptions {
  return schemaDataSourceOptions({
    url: config.DATABASE_URL,
    schema: SCHEMA,
    entities: [...MESSAGING_ENTITIES],
    migrations: MIGRATIONS,
    applicationName: 'webhooks',
  });
}
