import { DynamicModule, Module } from '@nestjs/common';
import { serviceCoreModules } from '@vap/runtime';
import { WebhooksConfig } from './config/webhooks.config';
import { webhooksDataSourceOptions } from './database/data-source';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { EndpointsModule } from './endpoints/endpoints.module';
import { FanOutModule } from './fan-out/fan-out.module';

@Module({})
export class AppModule {
  static forRoot(config: WebhooksConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ...serviceCoreModules('webhooks', config, webhooksDataSourceOptions(config)),
        EndpointsModule,
        DeliveriesModule,
        FanOutModule,
      ],
    };
  }
}
