import { Module } from '@nestjs/common';
import { CredentialsStore } from './credentials-store.service';
import { DefaultLineService } from './default-line.service';
import { TelephonyHandlers } from './telephony.handlers';
import { TelephonyService } from './telephony.service';

/** A partner's carrier connections: their credentials (sealed), and the sandbox line every partner starts with. */
@Module({
  controllers: [TelephonyHandlers],
  providers: [TelephonyService, CredentialsStore, DefaultLineService],
  exports: [CredentialsStore, DefaultLineService],
})
export class ConnectionsModule {}
