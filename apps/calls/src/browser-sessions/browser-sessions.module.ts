import { Module } from '@nestjs/common';
import { BalanceGuardModule } from '../balance-guard/balance-guard.module';
import { CarriersModule } from '../carriers/carriers.module';
import { PartnersModule } from '../partners/partners.module';
import { RecordingModule } from '../recording/recording.module';
import { BrowserSessionExpiry } from './browser-session-expiry.service';
import { BrowserSessionLinks } from './browser-session-links';
import { BrowserSessionsHandlers } from './browser-sessions.handlers';
import { BrowserSessionsService } from './browser-sessions.service';

/**
 * Browser voice sessions: created (admitted like a call, a one-time access token), read, and expired when not
 * connected in time. The browser is their transport (carriers/browser): it checks their attach and ends them
 * through call progress, so their call rows (kind browser) run through transcripts, recordings, charges and
 * post-call work as calls do.
 */
@Module({
  imports: [BalanceGuardModule, CarriersModule, PartnersModule, RecordingModule],
  controllers: [BrowserSessionsHandlers],
  providers: [BrowserSessionsService, BrowserSessionLinks, BrowserSessionExpiry],
})
export class BrowserSessionsModule {}
