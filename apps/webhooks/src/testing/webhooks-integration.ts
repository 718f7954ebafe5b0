// The webhooks service as an integration spec starts it (IntegrationApp): its own module, configs and schema.
import { randomBytes } from 'node:crypto';
import { IntegrationApp, IntegrationAppDefinition, IntegrationAppOptions } from '@vap/testing/integration';
import { AppModule } from '../app.module';
import { WebhooksConfig } from '../config/webhooks.config';
import { webhooksDataSourceOptions } from '../database/data-source';

export const webhooksService: IntegrationAppDefinition<WebhooksConfig> = {
  name: 'webhooks',
  configClass: WebhooksConfig,
  module: (config) => AppModule.forRoot(config),
  dataSource: webhooksDataSourceOptions,
  env: {
    SECRETS_KEY: randomBytes(32).toString('hex'),
  },
};

export const startWebhooks = (options?: IntegrationAppOptions): Promise<IntegrationApp<WebhooksConfig>> =>
  IntegrationApp.start(webhooksService, options);
