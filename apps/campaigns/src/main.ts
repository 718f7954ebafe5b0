import 'reflect-metadata';
import { bootstrapService } from '@vap/runtime';
import { AppModule } from './app.module';
import { CampaignsConfig } from './config/campaigns.config';
import { campaignsDataSourceOptions } from './database/data-source';

void bootstrapService({
  name: 'campaigns',
  configClass: CampaignsConfig,
  module: (config) => AppModule.forRoot(config),
  dataSource: campaignsDataSourceOptions,
  port: (config) => config.PORT,
});
