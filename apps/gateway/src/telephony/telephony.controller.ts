import { Body, Controller, Get, HttpCode, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CarrierACredentialsDto,
  CarrierACredentialsSavedDto,
  CarrierBCredentialsDto,
  CarrierBCredentialsSavedDto,
  ErrorCode,
  Subjects,
  TelephonyConnectionListDto,
} from '@vap/contracts';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';

const STORAGE_NOTE =
  'Credentials are stored encrypted (AES-256-GCM) and never returned; the account id is masked in every response. ' +
  'Calling it again replaces the credentials of the same connection (its connection_id stays). ' +
  'from_number becomes a phone number of the account on this carrier and cannot be deleted while it is the from-number.';

/** Thin HTTP edge for carrier credentials: validates, then sends the command over NATS scoped to the partner. */
@ApiTags('Telephony')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/config/telephony`)
export class TelephonyController {
  constructor(private readonly rpc: RpcClient) {}

  @Put('carrier_a')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Store carrier_a credentials (auth_id, auth_token) and from-number',
    description: STORAGE_NOTE,
  })
  @ApiEnvelope(CarrierACredentialsSavedDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  putCarrierA(
    @CurrentPartner() auth: AuthContext,
    @Body() body: CarrierACredentialsDto,
  ): Promise<CarrierACredentialsSavedDto> {
    return this.rpc.request(Subjects.calls.telephonyCarrierAPut, auth.partner, body);
  }

  @Put('carrier_b')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Store carrier_b credentials (account_sid, auth_token) and from-number',
    description: STORAGE_NOTE,
  })
  @ApiEnvelope(CarrierBCredentialsSavedDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR)
  putCarrierB(
    @CurrentPartner() auth: AuthContext,
    @Body() body: CarrierBCredentialsDto,
  ): Promise<CarrierBCredentialsSavedDto> {
    return this.rpc.request(Subjects.calls.telephonyCarrierBPut, auth.partner, body);
  }

  @Get()
  @ApiOperation({
    summary: 'List the account’s carrier connections',
    description:
      'Every connection (sandbox, carrier_a, carrier_b, reseller-link) with its provider, masked account id, from-number and status. No secret is ever returned.',
  })
  @ApiEnvelope(TelephonyConnectionListDto)
  list(@CurrentPartner() auth: AuthContext): Promise<TelephonyConnectionListDto> {
    return this.rpc.request(Subjects.calls.telephonyList, auth.partner, {});
  }
}
