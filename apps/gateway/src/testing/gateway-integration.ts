// The gateway as an integration spec starts it (IntegrationApp): its own module, configs and schema. Its HTTP
// setup (main.ts configure) is not applied: a spec drives it by command or through its providers.
import { randomBytes } from 'node:crypto';
import { BlobStorageConfig } from '@vap/storage';
import { IntegrationApp, IntegrationAppDefinition, IntegrationAppOptions } from '@vap/testing/integration';
import { AppModule } from '../app.module';
import { GatewayConfig } from '../config/gateway.config';
import { gatewayDataSourceOptions } from '../database/data-source';

export const gatewayService: IntegrationAppDefinition<GatewayConfig> = {
  name: 'gateway',
  configClass: GatewayConfig,
  settings: [BlobStorageConfig],
  module: (config, configs) => AppModule.forRoot(config, configs),
  dataSource: gatewayDataSourceOptions,
  env: {
    SECRETS_KEY: randomBytes(32).toString('hex'),
    ADMIN_API_TOKEN: randomBytes(16).toString('hex'),
    PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
  },
};

export const startGateway = (options?: IntegrationAppOptions): Promise<IntegrationApp<GatewayConfig>> =>
  IntegrationApp.start(gatewayService, options);
