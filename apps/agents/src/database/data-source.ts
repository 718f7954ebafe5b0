import { DataSourceOptions } from 'typeorm';
import { MESSAGING_ENTITIES } from '@vap/messaging';
import { schemaDataSourceOptions } from '@vap/persistence';
import { AgentsConfig } from '../config/agents.config';
import { MIGRATIONS } from './migrations';

export const SCHEMA = 'agents';

export function agentsDataSourceOptions(config: AgentsConfig): DataSourceOptions {
  return schemaDataSourceOptions({
    url: config.DATABASE_URL,
    schema: SCHEMA,
    entities: [...MESSAGING_ENTITIES],
    migrations: MIGRATIONS,
    applicationName: 'agents',
  });
}
