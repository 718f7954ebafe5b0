import { Injectable } from '@nestjs/common';
import { CampaignsConfig } from '../config/campaigns.config';

/**
 * Time as the campaigns service sees it. Wall-clock instants are real; campaign minutes (retry delays,
 * cooldowns) last 60 s divided by CAMPAIGNS_TIME_SCALE, so tests can run hours of schedule in seconds.
 */
@Injectable()
export class Clock {
  private readonly scale: number;

  constructor(config: CampaignsConfig) {
    this.scale = config.CAMPAIGNS_TIME_SCALE;
  }

  now(): Date {
    return new Date();
  }

  /** The instant `minutes` campaign minutes after `from`. */
  after(from: Date, minutes: number): Date {
    return new Date(from.getTime() + Math.round((minutes * 60_000) / this.scale));
  }
}
