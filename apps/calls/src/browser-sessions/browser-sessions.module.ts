import { Module } from '@nestjs/common';
import { BalanceGuardModule } from '../balance-guard/balance-guard.module';
import { CarriersModule } from '../carriers/carriers.module';
import { PartnersModule } from '../partners/partners.module';
import { RecordingModule } from '../recording/recording.module';
import { BrowserSessionExpiry } from './usecases/expire-browser-sessions/browser-session-expiry.service';
import { BrowserSessionLinks } from './browser-session-links';
import { BrowserSessionsHandlers } from './browser-sessions.handlers';
import { CreateBrowserSession } from './usecases/create-browser-session/create-browser-session.usecase';
import { GetBrowserSession } from './usecases/get-browser-session/get-browser-session.usecase';
import { ListBrowserSessions } from './usecases/list-browser-sessions/list-browser-sessions.usecase';

/**
 * Browser voice sessions: created (admitted like a call, a one-time access token), read, and expired when not
 * connected in time. The browser is their transport (carriers/browser): it checks their attach and ends them
 * through call progress, so their call rows (kind browser) run through transcripts, recordings, charges and
 * post-call work as calls do.
 */
@Module({
  imports: [BalanceGuardModule, CarriersModule, PartnersModule, RecordingModule],
  controllers: [BrowserSessionsHandlers],
  providers: [
    CreateBrowserSession,
    GetBrowserSession,
    ListBrowserSessions,
    BrowserSessionLinks,
    BrowserSessionExpiry,
  ],
})
export class BrowserSessionsModule {}
