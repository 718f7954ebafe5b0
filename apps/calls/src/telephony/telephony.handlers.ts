import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CarrierACredentialsDto,
  CarrierACredentialsSavedDto,
  CarrierBCredentialsDto,
  CarrierBCredentialsSavedDto,
  RpcRequest,
  Subjects,
  TelephonyConnectionListDto,
} from '@vap/contracts';
import { partnerOf } from './partner-of';
import { TelephonyService } from './telephony.service';

/** NATS commands of carrier credentials (queue group: calls). */
@Controller()
export class TelephonyHandlers {
  constructor(private readonly telephony: TelephonyService) {}

  @MessagePattern(Subjects.calls.telephonyCarrierAPut)
  putCarrierA(@Payload() req: RpcRequest<CarrierACredentialsDto>): Promise<CarrierACredentialsSavedDto> {
    return this.telephony.putCarrierA(partnerOf(req), req.data);
  }

  @MessagePattern(Subjects.calls.telephonyCarrierBPut)
  putCarrierB(@Payload() req: RpcRequest<CarrierBCredentialsDto>): Promise<CarrierBCredentialsSavedDto> {
    return this.telephony.putCarrierB(partnerOf(req), req.data);
  }

  @MessagePattern(Subjects.calls.telephonyList)
  list(@Payload() req: RpcRequest): Promise<TelephonyConnectionListDto> {
    return this.telephony.list(partnerOf(req));
  }
}
