import { DynamicModule, Module } from '@nestjs/common';
import { serviceCoreModules } from '@vap/runtime';
import { CampaignsModule } from './campaigns/campaigns.module';
import { CampaignsConfig } from './config/campaigns.config';
import { ContactsModule } from './contacts/contacts.module';
import { campaignsDataSourceOptions } from './database/data-source';
import { DispatchModule } from './dispatch/dispatch.module';
import { PartnersModule } from './partners/partners.module';
import { TestRunsModule } from './test-runs/test-runs.module';
import { TestScenariosModule } from './test-scenarios/test-scenarios.module';

@Module({})
export class AppModule {
  static forRoot(config: CampaignsConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ...serviceCoreModules('campaigns', config, campaignsDataSourceOptions(config)),
        PartnersModule,
        CampaignsModule,
        ContactsModule,
        DispatchModule,
        TestScenariosModule,
        TestRunsModule,
      ],
    };
  }
}
