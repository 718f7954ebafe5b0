import { Body, Controller, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { LegacyWebhookDto, LegacyWebhookResultDto } from '@vap/api';
import { ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';

/** The legacy single-webhook route, kept for older integrations. */
@ApiTags('Webhooks')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/config/webhook`)
export class LegacyWebhookController {
  constructor(private readonly rpc: RpcClient) {}

  @Put()
  @ApiOperation({
    summary: 'Set the legacy webhook URL (creates or replaces the `default` endpoint)',
    description:
      'Creates the reserved account-wide `default` endpoint, or replaces its url (enabled, every event type), ' +
      'with a new signing secret each call, shown only in this response. New integrations use /config/webhooks.',
    deprecated: true,
  })
  @ApiEnvelope(LegacyWebhookResultDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.LIMIT_REACHED)
  put(@CurrentPartner() auth: AuthContext, @Body() body: LegacyWebhookDto): Promise<LegacyWebhookResultDto> {
    return this.rpc.request(Subjects.webhooks.legacyEndpointPut, auth.partner, body);
  }
}
