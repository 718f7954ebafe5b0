import { Injectable } from '@nestjs/common';
import { Clock } from '@vap/runtime';
import { CampaignsConfig } from '../config/campaigns.config';

/**
 * Time as the campaigns service sees it: instants from the service's Clock; campaign minutes (retry delays,
 * cooldowns) last 60 s divided by CAMPAIGNS_TIME_SCALE, so tests can run hours of schedule in seconds.
 */
@Injectable()
export class CampaignClock {
  private readonly scale: number;

  constructor(
    config: CampaignsConfig,
    private readonly clock: Clock,
  ) {
    this.scale = config.CAMPAIGNS_TIME_SCALE;
  }

  now(): Date {
    return this.clock.now();
  }

  /** The instant `minutes` campaign minutes after `from`. */
  after(from: Date, minutes: number): Date {
    return new Date(from.getTime() + Math.round((minutes * 60_000) / this.scale));
  }
}
