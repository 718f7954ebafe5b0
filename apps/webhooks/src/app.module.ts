import { DynamicModule, Module } from '@nestjs/common';
import { serviceCoreModules } from '@vap/runtime';
import { WebhooksConfig } from './config/webhooks.config';
import { webhooksDataSourceOptions } from './database/data-source';

@Module({})
export class AppModule {
  static forRoot(config: WebhooksConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [...serviceCoreModules('webhooks', config, webhooksDataSourceOptions(config))],
      providers: [{ provide: WebhooksConfig, useValue: config }],
      exports: [WebhooksConfig],
    };
  }
}
