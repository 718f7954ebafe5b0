import { Module } from '@nestjs/common';
import { PartnerEventsConsumer } from './partner-events.consumer';
import { PartnerTiers } from './partner-tiers';

/** The agents service's copy of each partner's voice tier, from the gateway's partner events. */
@Module({ providers: [PartnerTiers, PartnerEventsConsumer], exports: [PartnerTiers] })
export class PartnersModule {}
