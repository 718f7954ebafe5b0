import { DataSourceOptions } from 'typeorm';
import { MESSAGING_ENTITIES } from '@vap/messaging';
import { schemaDataSourceOptions } from '@vap/persistence';
import { CallsConfig } from '../config/calls.config';
import { MIGRATIONS } from './migrations';

export const SCHEMA = 'calls';

export function callsDataSourceOptions(config: CallsConfig): DataSourceOptions {
  return schemaDataSourceOptions({
    url: config.DATABASE_URL,
    schema: SCHEMA,
    entities: [...MESSAGING_ENTITIES],
    migrations: MIGRATIONS,
    applicationName: 'calls',
  });
}
