import { DataSourceOptions, MixedList, EntitySchema } from 'typeorm';
import { CommitWakeupSubscriber } from './commit-wakeups';

export interface SchemaDataSourceInput {
  url: string;
  /** The Postgres schema this service owns; every table it maps lives there. */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  applicationName?: string;
  poolSize?: number;
}

/** TypeORM options for one service's schema. Schemas change through migrations only. */
export function schemaDataSourceOptions(input: SchemaDataSourceInput): DataSourceOptions {
  return {
    type: 'postgres',
    url: input.url,
    schema: input.schema,
    entities: input.entities,
    migrations: input.migrations,
    subscribers: [CommitWakeupSubscriber],
    migrationsTableName: 'migrations',
    migrationsRun: false,
    synchronize: false,
    applicationName: input.applicationName ?? input.schema,
    extra: { max: input.poolSize ?? 10, connectionTimeoutMillis: 5000 },
  };
}
