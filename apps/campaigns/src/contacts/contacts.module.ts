import { Module } from '@nestjs/common';
import { CampaignsModule } from '../campaigns/campaigns.module';
import { CampaignClockModule } from '../clock/campaign-clock.module';
import { DispatchSignalModule } from '../dispatch/dispatch-signal.module';
import { ContactsHandlers } from './contacts.handlers';
import { ContactsService } from './contacts.service';

@Module({
  imports: [CampaignsModule, CampaignClockModule, DispatchSignalModule],
  controllers: [ContactsHandlers],
  providers: [ContactsService],
})
export class ContactsModule {}
