import { Module } from '@nestjs/common';
import { CampaignsModule } from '../campaigns/campaigns.module';
import { CampaignClockModule } from '../clock/campaign-clock.module';
import { PartnersModule } from '../partners/partners.module';
import { AttemptsRepository } from './attempts.repository';
import { CallPlacer } from './call-placer';
import { CallStatusConsumer } from './call-status.consumer';
import { ContactOutcomes } from './contact-outcomes';
import { DispatchClaims } from './dispatch-claims';
import { DispatchSignalModule } from './dispatch-signal.module';
import { Dispatcher } from './dispatcher.service';

@Module({
  imports: [CampaignsModule, CampaignClockModule, PartnersModule, DispatchSignalModule],
  providers: [
    AttemptsRepository,
    ContactOutcomes,
    DispatchClaims,
    CallPlacer,
    CallStatusConsumer,
    Dispatcher,
  ],
})
export class DispatchModule {}
