import { Module } from '@nestjs/common';
import { CallbackUrls } from '../../carriers/callback-urls';
import { DefaultLineService } from './default-line.service';
import { CredentialsStore } from './credentials-store.service';
import { TelephonyHandlers } from './telephony.handlers';
import { TelephonyService } from './telephony.service';

@Module({
  controllers: [TelephonyHandlers],
  providers: [TelephonyService, CredentialsStore, DefaultLineService, CallbackUrls],
  exports: [CredentialsStore],
})
export class TelephonyModule {}
