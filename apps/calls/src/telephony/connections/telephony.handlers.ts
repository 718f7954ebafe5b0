import { Controller } from '@nestjs/common';
import { CarrierACredentialsDto, CarrierBCredentialsDto } from '@vap/api';
import { Subjects } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { ListTelephonyConfig } from './usecases/list-telephony-config/list-telephony-config.usecase';
import { SaveCarrierCredentials } from './usecases/save-carrier-credentials/save-carrier-credentials.usecase';

/** NATS commands of carrier credentials (queue group: calls). */
@Controller()
export class TelephonyHandlers {
  constructor(
    private readonly saveCredentials: SaveCarrierCredentials,
    private readonly listConfig: ListTelephonyConfig,
  ) {}

  @Command(Subjects.calls.telephonyCarrierAPut)
  putCarrierA(@Data() credentials: CarrierACredentialsDto, @PartnerId() partnerId: string) {
    return this.saveCredentials.execute(partnerId, 'carrier_a', credentials);
  }

  @Command(Subjects.calls.telephonyCarrierBPut)
  putCarrierB(@Data() credentials: CarrierBCredentialsDto, @PartnerId() partnerId: string) {
    return this.saveCredentials.execute(partnerId, 'carrier_b', credentials);
  }

  @Command(Subjects.calls.telephonyList)
  list(@PartnerId() partnerId: string) {
    return this.listConfig.execute(partnerId);
  }
}
