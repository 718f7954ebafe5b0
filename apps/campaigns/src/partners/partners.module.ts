import { Module } from '@nestjs/common';
import { PartnerEventsConsumer } from './partner-events.consumer';
import { PartnerSnapshots } from './partner-snapshots';

@Module({ providers: [PartnerSnapshots, PartnerEventsConsumer], exports: [PartnerSnapshots] })
export class PartnersModule {}
