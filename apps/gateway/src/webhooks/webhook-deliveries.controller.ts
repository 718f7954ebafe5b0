import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { WebhookDeliveryDetailDto, WebhookDeliveryDto } from '@vap/api';
import { ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';

const DELIVERY_ID = { name: 'id', format: 'uuid', description: 'The delivery id (the X-Webhook-Id header)' };

/** Thin HTTP edge of one delivery: its attempts, and a manual retry. */
@ApiTags('Webhooks')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/webhook-deliveries`)
export class WebhookDeliveriesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get(':id')
  @ApiOperation({
    summary: 'A delivery with its body and every attempt',
    description: 'Each attempt: status code, latency, response body (first 1024 characters) and error.',
  })
  @ApiParam(DELIVERY_ID)
  @ApiEnvelope(WebhookDeliveryDetailDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  get(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Webhook delivery')) id: string,
  ): Promise<WebhookDeliveryDetailDto> {
    return this.rpc.request(Subjects.webhooks.deliveryGet, auth.partner, { id });
  }

  @Post(':id/retry')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a finished delivery again',
    description:
      'A failed (or succeeded) delivery is queued again with the same X-Webhook-Id and body and a fresh round of ' +
      'the retry schedule. One still pending or being sent: INVALID_STATE (409).',
  })
  @ApiParam(DELIVERY_ID)
  @ApiEnvelope(WebhookDeliveryDto)
  @ApiErrors(ErrorCode.NOT_FOUND, ErrorCode.INVALID_STATE)
  retry(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Webhook delivery')) id: string,
  ): Promise<WebhookDeliveryDto> {
    return this.rpc.request(Subjects.webhooks.deliveryRetry, auth.partner, { id });
  }
}
