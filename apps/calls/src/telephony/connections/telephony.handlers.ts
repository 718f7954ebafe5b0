import { Controller } from '@nestjs/common';
import { CarrierACredentialsDto, CarrierBCredentialsDto } from '@vap/api';
import { Subjects } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { TelephonyService } from './telephony.service';

/** NATS commands of carrier credentials (queue group: calls). */
@Controller()
export class TelephonyHandlers {
  constructor(private readonly telephony: TelephonyService) {}

  @Command(Subjects.calls.telephonyCarrierAPut)
  putCarrierA(@Data() credentials: CarrierACredentialsDto, @PartnerId() partnerId: string) {
    return this.telephony.putCarrierA(partnerId, credentials);
  }

  @Command(Subjects.calls.telephonyCarrierBPut)
  putCarrierB(@Data() credentials: CarrierBCredentialsDto, @PartnerId() partnerId: string) {
    return this.telephony.putCarrierB(partnerId, credentials);
  }

  @Command(Subjects.calls.telephonyList)
  list(@PartnerId() partnerId: string) {
    return this.telephony.list(partnerId);
  }
}
