import { Injectable } from '@nestjs/common';
import { CallsConfig } from '../../config/calls.config';

/**
 * The time the contact policy judges windows and caps by: the wall clock, or (tests only,
 * CONTACT_POLICY_CLOCK_START) a clock that started at a chosen instant, so a spec can place a dial just before a
 * DST change or midnight while the rest of the service keeps the wall clock.
 */
@Injectable()
export class PolicyClock {
  private readonly offsetMs: number;

  constructor(config: CallsConfig) {
    const start = config.CONTACT_POLICY_CLOCK_START;
    this.offsetMs = start ? Date.parse(start) - Date.now() : 0;
  }

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}
