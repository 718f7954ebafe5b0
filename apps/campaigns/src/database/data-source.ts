import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { MESSAGING_ENTITIES } from '@vap/messaging';
import { schemaDataSourceOptions, migrationsIn } from '@vap/persistence';
import { CampaignsConfig } from '../config/campaigns.config';

export const SCHEMA = 'campaigns';

export function campaignsDataSourceOptions(config: CampaignsConfig): DataSourceOptions {
  return schemaDataSourceOptions({
    url: config.DATABASE_URL,
    schema: SCHEMA,
    entities: [...MESSAGING_ENTITIES],
    migrations: migrationsIn(join(__dirname, 'migrations')),
    applicationName: 'campaigns',
  });
}
