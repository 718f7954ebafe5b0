import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  TELEPHONY_CONNECTION_ID_EXAMPLE,
  TelephonyConnectionDeletedDto,
  TelephonyConnectionResourceDto,
  TelephonyConnectionResourceListDto,
  TelephonyConnectionTestDto,
  UpdateTelephonyConnectionDto,
} from '@vap/api';
import { ErrorCode, Subjects, TelephonyConnectionId } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { idParam } from '../http/id-param';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';

const ID = idParam('Telephony connection', TelephonyConnectionId);
const ID_DOC = ApiParam({ name: 'id', example: TELEPHONY_CONNECTION_ID_EXAMPLE });

/**
 * Thin HTTP edge for the account's carrier connections (sandbox, carrier_a, carrier_b). PUT
 * /config/telephony/<carrier> creates or replaces the same connections.
 */
@ApiTags('Telephony connections')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/telephony-connections`)
export class TelephonyConnectionsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({
    summary: 'List the account’s carrier connections',
    description:
      'The sandbox connection and the carrier_a / carrier_b ones PUT /config/telephony/<carrier> created, oldest first, each with its numbers and health. Credentials are never returned: the account id is masked.',
  })
  @ApiEnvelope(TelephonyConnectionResourceListDto)
  list(@CurrentPartner() auth: AuthContext): Promise<TelephonyConnectionResourceListDto> {
    return this.rpc.request(Subjects.calls.telephonyConnectionList, auth.partner, {});
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a carrier connection with its numbers and health' })
  @ID_DOC
  @ApiEnvelope(TelephonyConnectionResourceDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(
    @CurrentPartner() auth: AuthContext,
    @Param('id', ID) id: string,
  ): Promise<TelephonyConnectionResourceDto> {
    return this.rpc.request(Subjects.calls.telephonyConnectionGet, auth.partner, { id });
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Rotate a connection’s auth token, change its from-number or label',
    description:
      'auth_token replaces the secret (stored encrypted, never returned); the account id stays (PUT /config/telephony/<carrier> replaces both). ' +
      'from_number must be E.164 and a number of this connection, or one the account does not have yet (it becomes a number of this connection); ' +
      'a number of another connection is 409 CONFLICT. The sandbox connection cannot be changed (409 CONFLICT).',
  })
  @ID_DOC
  @ApiEnvelope(TelephonyConnectionResourceDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT)
  update(
    @CurrentPartner() auth: AuthContext,
    @Param('id', ID) id: string,
    @Body() body: UpdateTelephonyConnectionDto,
  ): Promise<TelephonyConnectionResourceDto> {
    return this.rpc.request(Subjects.calls.telephonyConnectionUpdate, auth.partner, { id, changes: body });
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Delete a carrier connection',
    description:
      '409 CONFLICT while a call on the connection is live, while it has numbers besides its from-number (delete them first with DELETE /phone-numbers/{id}), and for the sandbox connection. ' +
      'Otherwise its credentials, health and from-number are deleted; past calls keep naming it. PUT /config/telephony/<carrier> later brings it back with the same id.',
  })
  @ID_DOC
  @ApiEnvelope(TelephonyConnectionDeletedDto)
  @ApiErrors(ErrorCode.NOT_FOUND, ErrorCode.CONFLICT, ErrorCode.DEFAULT_FROM_NUMBER)
  remove(
    @CurrentPartner() auth: AuthContext,
    @Param('id', ID) id: string,
  ): Promise<TelephonyConnectionDeletedDto> {
    return this.rpc.request(Subjects.calls.telephonyConnectionDelete, auth.partner, { id });
  }

  @Post(':id/test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Test a connection without placing a call',
    description:
      'Reads the carrier account with the stored credentials (carrier_b: GET /2010-04-01/Accounts/{AccountSid}.json, carrier_a: GET /v1/Account/{auth_id}/) and answers ok or failed, ' +
      'with the carrier’s HTTP status, the latency and why: credentials_rejected (401/403), account_not_found (404), carrier_error (any other answer) or unreachable (no answer). ' +
      'A failed test is a 200 with result failed. The sandbox connection is always ok.',
  })
  @ID_DOC
  @ApiEnvelope(TelephonyConnectionTestDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  test(
    @CurrentPartner() auth: AuthContext,
    @Param('id', ID) id: string,
  ): Promise<TelephonyConnectionTestDto> {
    return this.rpc.request(Subjects.calls.telephonyConnectionTest, auth.partner, { id });
  }
}
