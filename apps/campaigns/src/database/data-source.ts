import { DataSourceOptions } from 'typeorm';
import { MESSAGING_ENTITIES } from '@vap/messaging';
import { schemaDataSourceOptions } from '@vap/persistence';
import { CampaignsConfig } from '../config/campaigns.config';
import { MIGRATIONS } from './migrations';

export const SCHEMA = 'campaigns';

export function campaignsDataSourceOptions(config: CampaignsConfig): DataSourceOptions {
  return schemaDataSourceOptions({
    url: config.DATABASE_URL,
    schema: SCHEMA,
    entities: [...MESSAGING_ENTITIES],
    migrations: MIGRATIONS,
    applicationName: 'campaigns',
  });
}
