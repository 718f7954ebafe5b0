import { Module } from '@nestjs/common';
import { CampaignClockModule } from '../clock/campaign-clock.module';
import { DispatchSignalModule } from '../dispatch/dispatch-signal.module';
import { PartnersModule } from '../partners/partners.module';
import { CampaignLifecycle } from './campaign-lifecycle.service';
import { CampaignReferences } from './campaign-references';
import { CampaignStatusEvents } from './campaign-status-event';
import { CampaignWaits } from './campaign-waits';
import { CampaignsHandlers } from './campaigns.handlers';
import { CampaignsRepository } from './campaigns.repository';
import { CampaignsService } from './campaigns.service';
import { ContactPolicySettingsConsumer } from './contact-policy-settings.consumer';

@Module({
  imports: [PartnersModule, DispatchSignalModule, CampaignClockModule],
  controllers: [CampaignsHandlers],
  providers: [
    CampaignsRepository,
    CampaignReferences,
    CampaignStatusEvents,
    CampaignsService,
    CampaignLifecycle,
    CampaignWaits,
    ContactPolicySettingsConsumer,
  ],
  exports: [CampaignsRepository, CampaignLifecycle, CampaignReferences],
})
export class CampaignsModule {}
