import 'reflect-metadata';
import { bootstrapService } from '@vap/runtime';
import { AppModule } from './app.module';
import { WebhooksConfig } from './config/webhooks.config';
import { webhooksDataSourceOptions } from './database/data-source';

void bootstrapService({
  name: 'webhooks',
  configClass: WebhooksConfig,
  module: (config) => AppModule.forRoot(config),
  dataSource: webhooksDataSourceOptions,
  port: (config) => config.PORT,
});
