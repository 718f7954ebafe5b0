import { Module } from '@nestjs/common';
import { PartnerBalances } from './partner-balances';
import { PartnerEventsConsumer } from './partner-events.consumer';
import { PartnerStanding } from './partner-standing';

@Module({
  providers: [PartnerStanding, PartnerBalances, PartnerEventsConsumer],
  exports: [PartnerStanding, PartnerBalances],
})
export class PartnersModule {}
