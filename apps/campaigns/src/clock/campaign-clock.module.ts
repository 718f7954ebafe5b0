import { Module } from '@nestjs/common';
import { CampaignClock } from './campaign-clock';

@Module({ providers: [CampaignClock], exports: [CampaignClock] })
export class CampaignClockModule {}
