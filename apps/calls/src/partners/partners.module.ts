import { Module } from '@nestjs/common';
import { PartnerEventsConsumer } from './partner-events.consumer';
import { PartnerStanding } from './partner-standing';

@Module({ providers: [PartnerStanding, PartnerEventsConsumer], exports: [PartnerStanding] })
export class PartnersModule {}
