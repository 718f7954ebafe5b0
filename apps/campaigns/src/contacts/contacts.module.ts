import { Module } from '@nestjs/common';
import { CampaignsModule } from '../campaigns/campaigns.module';
import { ClockModule } from '../clock/clock.module';
import { DispatchSignalModule } from '../dispatch/dispatch-signal.module';
import { ContactsHandlers } from './contacts.handlers';
import { ContactsService } from './contacts.service';

@Module({
  imports: [CampaignsModule, ClockModule, DispatchSignalModule],
  controllers: [ContactsHandlers],
  providers: [ContactsService],
})
export class ContactsModule {}
