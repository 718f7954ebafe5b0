import { applyDecorators, Body, Controller, Get, HttpCode, Put, Type } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CarrierACredentialsDto,
  CarrierACredentialsSavedDto,
  CarrierBCredentialsDto,
  CarrierBCredentialsSavedDto,
  TelephonyConnectionListDto,
} from '@vap/api';
import { ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';

const STORAGE_NOTE =
  'Credentials are stored encrypted (AES-256-GCM) and never returned; the account id is masked in every response. ' +
  'Calling it again replaces the credentials of the same connection (its connection_id stays). ' +
  'from_number becomes a phone number of the account on this carrier and cannot be deleted while it is the from-number.';

/** PUT /config/telephony/<carrier>: one shape for every carrier's credentials. */
const CredentialsRoute = (carrier: string, fields: string, saved: Type) =>
  applyDecorators(
    Put(carrier),
    HttpCode(200),
    ApiOperation({
      summary: `Store ${carrier} credentials (${fields}) and from-number`,
      description: STORAGE_NOTE,
    }),
    ApiEnvelope(saved),
    ApiErrors(ErrorCode.VALIDATION_ERROR),
  );

/** Thin HTTP edge for carrier credentials: validates, then sends the command over NATS scoped to the partner. */
@ApiTags('Telephony')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/config/telephony`)
export class TelephonyController {
  constructor(private readonly rpc: RpcClient) {}

  @CredentialsRoute('carrier_a', 'auth_id, auth_token', CarrierACredentialsSavedDto)
  putCarrierA(
    @CurrentPartner() auth: AuthContext,
    @Body() body: CarrierACredentialsDto,
  ): Promise<CarrierACredentialsSavedDto> {
    return this.rpc.request(Subjects.calls.telephonyCarrierAPut, auth.partner, body);
  }

  @CredentialsRoute('carrier_b', 'account_sid, auth_token', CarrierBCredentialsSavedDto)
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
