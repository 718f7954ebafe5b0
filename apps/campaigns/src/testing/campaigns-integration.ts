// The campaigns service as an integration spec starts it (IntegrationApp): its own module, configs and schema.
import { IntegrationApp, IntegrationAppDefinition, IntegrationAppOptions } from '@vap/testing/integration';
import { AppModule } from '../app.module';
import { CampaignsConfig } from '../config/campaigns.config';
import { campaignsDataSourceOptions } from '../database/data-source';

export const campaignsService: IntegrationAppDefinition<CampaignsConfig> = {
  name: 'campaigns',
  configClass: CampaignsConfig,
  module: (config) => AppModule.forRoot(config),
  dataSource: campaignsDataSourceOptions,
};

export const startCampaigns = (options?: IntegrationAppOptions): Promise<IntegrationApp<CampaignsConfig>> =>
  IntegrationApp.start(campaignsService, options);
