import { Module } from '@nestjs/common';
import { AddressRateLimiter } from '../rate-limit/address-rate-limit';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { PublishableKeysController } from './publishable-keys.controller';
import { PublishableKeysService } from './publishable-keys.service';
import { WebSessionsController } from './web-sessions.controller';

/** Publishable keys and the public route they open (POST /web/sessions); the limiters share Postgres windows. */
@Module({
  providers: [PublishableKeysService, RateLimitService, AddressRateLimiter],
  controllers: [PublishableKeysController, WebSessionsController],
})
export class PublishableKeysModule {}
