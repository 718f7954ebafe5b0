import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ResellerCallRoutingDto, ResellerCallRoutingQueryDto } from '@vap/api';
import { ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';

/** Allows for the reseller API's own deadline (RESELLER_LINK_TIMEOUT_MS, 10 s by default). */
const RESELLER_RPC_TIMEOUT_MS = 15_000;

/** Thin HTTP edge for the reseller link. */
@ApiTags('Reseller link')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/reseller-link`)
export class ResellerLinkController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('call-routing')
  @ApiOperation({
    summary: 'Read the call-routing table of a reseller-link connection',
    description:
      'Read live from the reseller’s API with the connection’s stored credentials. connection_id is needed only when the account has more than one active ' +
      'reseller-link connection (400 VALIDATION_ERROR without it); 404 when it names none of the account’s active ones or the account has none. ' +
      'Connections are managed through the operator API.',
  })
  @ApiEnvelope(ResellerCallRoutingDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  callRouting(
    @CurrentPartner() auth: AuthContext,
    @Query() query: ResellerCallRoutingQueryDto,
  ): Promise<ResellerCallRoutingDto> {
    return this.rpc.request(Subjects.calls.resellerLinkCallRouting, auth.partner, query, {
      timeoutMs: RESELLER_RPC_TIMEOUT_MS,
    });
  }
}
