// The calls service as an integration spec starts it (IntegrationApp): its own module, configs and schema.
import { randomBytes } from 'node:crypto';
import { BlobStorageConfig } from '@vap/storage';
import { IntegrationApp, IntegrationAppDefinition, IntegrationAppOptions } from '@vap/testing/integration';
import { AppModule } from '../app.module';
import { CallsConfig } from '../config/calls.config';
import { TelephonyConfig } from '../config/telephony.config';
import { callsDataSourceOptions } from '../database/data-source';

export const callsService: IntegrationAppDefinition<CallsConfig> = {
  name: 'calls',
  configClass: CallsConfig,
  settings: [TelephonyConfig, BlobStorageConfig],
  module: (config, configs) => AppModule.forRoot(config, configs),
  dataSource: callsDataSourceOptions,
  env: {
    PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
    MEDIA_PUBLIC_URL: 'http://127.0.0.1:3005',
    SECRETS_KEY: randomBytes(32).toString('hex'),
  },
};

export const startCalls = (options?: IntegrationAppOptions): Promise<IntegrationApp<CallsConfig>> =>
  IntegrationApp.start(callsService, options);
