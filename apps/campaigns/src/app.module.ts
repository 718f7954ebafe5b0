import { DynamicModule, Module } from '@nestjs/common';
import { serviceCoreModules } from '@vap/runtime';
import { CampaignsConfig } from './config/campaigns.config';
import { campaignsDataSourceOptions } from './database/data-source';

@Module({})
export class AppModule {
  static forRoot(config: CampaignsConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [...serviceCoreModules('campaigns', config, campaignsDataSourceOptions(config))],
      providers: [{ provide: CampaignsConfig, useValue: config }],
      exports: [CampaignsConfig],
    };
  }
}
