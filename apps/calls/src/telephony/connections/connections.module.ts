import { Module } from '@nestjs/common';
import { CredentialsStore } from './credentials-store.service';
import { DefaultLineService } from './default-line.service';
import { FromNumbers } from './from-numbers';
import { ConnectionHealthRecorder } from './health/connection-health.recorder';
import { TelephonyHandlers } from './telephony.handlers';
import { ListTelephonyConfig } from './usecases/list-telephony-config/list-telephony-config.usecase';
import { SaveCarrierCredentials } from './usecases/save-carrier-credentials/save-carrier-credentials.usecase';

/** A partner's carrier connections: their credentials (sealed), and the sandbox line every partner starts with. */
@Module({
  controllers: [TelephonyHandlers],
  providers: [
    SaveCarrierCredentials,
    ListTelephonyConfig,
    FromNumbers,
    CredentialsStore,
    DefaultLineService,
    ConnectionHealthRecorder,
  ],
  exports: [FromNumbers, CredentialsStore, DefaultLineService, ConnectionHealthRecorder],
})
export class ConnectionsModule {}
