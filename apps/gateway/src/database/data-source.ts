import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { MESSAGING_ENTITIES } from '@vap/messaging';
import { schemaDataSourceOptions, migrationsIn } from '@vap/persistence';
import { GatewayConfig } from '../config/gateway.config';
import { Partner } from '../accounts/entities/partner.entity';
import { ApiKey } from '../accounts/entities/api-key.entity';
import { LedgerEntry } from '../accounts/entities/ledger-entry.entity';
import { Customer } from '../customers/entities/customer.entity';

export const SCHEMA = 'gateway';

export function gatewayDataSourceOptions(config: GatewayConfig): DataSourceOptions {
  return schemaDataSourceOptions({
    url: config.DATABASE_URL,
    schema: SCHEMA,
    entities: [...MESSAGING_ENTITIES, Partner, ApiKey, LedgerEntry, Customer],
    migrations: migrationsIn(join(__dirname, 'migrations')),
    applicationName: 'gateway',
    poolSize: 20,
  });
}
