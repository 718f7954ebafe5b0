import { Module } from '@nestjs/common';
import { CredentialsStore } from './credentials-store.service';
import { DefaultLineService } from './default-line.service';
import { ConnectionHealthRecorder } from './health/connection-health.recorder';
import { TelephonyHandlers } from './telephony.handlers';
import { TelephonyService } from './telephony.service';

/** A partner's carrier connections: their credentials (sealed), and the sandbox line every partner starts with. */
@Module({
  controllers: [TelephonyHandlers],
  providers: [TelephonyService, CredentialsStore, DefaultLineService, ConnectionHealthRecorder],
  exports: [TelephonyService, CredentialsStore, DefaultLineService, ConnectionHealthRecorder],
})
export class ConnectionsModule {}
