import { Module } from '@nestjs/common';
import { ChargesModule } from '../charges/charges.module';
import { PartnersModule } from '../partners/partners.module';
import { RecordingModule } from '../recording/recording.module';
import { BrowserSessionExpiry } from './browser-session-expiry.service';
import { BrowserSessionLifecycle } from './browser-session-lifecycle';
import { BrowserSessionLinks } from './browser-session-links';
import { BrowserSessionsHandlers } from './browser-sessions.handlers';
import { BrowserSessionsService } from './browser-sessions.service';

/**
 * Browser voice sessions: created (admitted like a call, a one-time access token), read, attached by the voice
 * service (origin, pending), ended on its report, expired when not connected in time. Their call rows (kind
 * browser) run through transcripts, recordings, charges and post-call work as calls do.
 */
@Module({
  imports: [ChargesModule, PartnersModule, RecordingModule],
  controllers: [BrowserSessionsHandlers],
  providers: [BrowserSessionsService, BrowserSessionLinks, BrowserSessionLifecycle, BrowserSessionExpiry],
  exports: [BrowserSessionLifecycle],
})
export class BrowserSessionsModule {}
