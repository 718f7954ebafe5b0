import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CreateWebhookEndpointDto,
  ListWebhookDeliveriesQueryDto,
  UpdateWebhookEndpointDto,
  WebhookDeliveryDto,
  WebhookDeliveryListDto,
  WebhookEndpointDeletedDto,
  WebhookEndpointDto,
  WebhookEndpointListDto,
  WebhookEndpointWithSecretDto,
} from '@vap/api';
import { ErrorCode, Subjects } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import { AuthContext, CurrentPartner } from '../auth/auth-context';
import { API_PREFIX } from '../http/api-docs';
import { ApiEnvelope, ApiErrors, ApiPartnerRoute } from '../http/openapi.decorators';
import { idParam } from '../http/id-param';

const ENDPOINT_ID = { name: 'id', format: 'uuid', description: 'The webhook endpoint id' };

/** Thin HTTP edge of webhook endpoints: validates, then sends the command to the webhooks service. */
@ApiTags('Webhooks')
@ApiPartnerRoute()
@Controller(`${API_PREFIX}/config/webhooks`)
export class WebhookEndpointsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a webhook endpoint',
    description:
      'Account-wide unless agent_id binds it to one of the account’s agents. At most 5 endpoints per scope (5 ' +
      'account-wide, 5 per agent; a deleted agent’s endpoints count until deleted): 429 LIMIT_REACHED beyond. ' +
      'The response carries the signing secret (whsec_...) and is the only time it is shown. Deliveries: POST JSON ' +
      '{ event, timestamp, data } with X-Webhook-Signature (sha256=<hex HMAC-SHA256 of "<X-Webhook-Timestamp>.<raw body>">, ' +
      'keyed with the whole secret string), X-Webhook-Timestamp (ISO 8601, the time of the attempt), X-Webhook-Id ' +
      '(the delivery id, the same on every retry) and X-Webhook-Event. Any 2xx within 10 s is success; otherwise ' +
      'the delivery is retried on WEBHOOK_RETRY_SCHEDULE (default 5s, 5m, 30m, 2h, 5h, 10h, 10h, ±20% jitter; twice ' +
      'as long after a 429 or a timeout; a Retry-After is honoured up to 1 h).',
  })
  @ApiEnvelope(WebhookEndpointWithSecretDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.LABEL_TAKEN, ErrorCode.LIMIT_REACHED)
  create(
    @CurrentPartner() auth: AuthContext,
    @Body() body: CreateWebhookEndpointDto,
  ): Promise<WebhookEndpointWithSecretDto> {
    return this.rpc.request(Subjects.webhooks.endpointCreate, auth.partner, body);
  }

  @Get()
  @ApiOperation({ summary: 'List the account’s webhook endpoints (both scopes; secrets are never listed)' })
  @ApiEnvelope(WebhookEndpointListDto)
  list(@CurrentPartner() auth: AuthContext): Promise<WebhookEndpointListDto> {
    return this.rpc.request(Subjects.webhooks.endpointList, auth.partner, {});
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Update label, url, enabled or events',
    description:
      'A body containing agent_id is a 400 VALIDATION_ERROR even when equal to the current scope. Disabling the ' +
      'last enabled endpoint of an agent flips its webhooks_include_account_endpoints back to true.',
  })
  @ApiParam(ENDPOINT_ID)
  @ApiEnvelope(WebhookEndpointDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.LABEL_TAKEN)
  update(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Webhook endpoint')) id: string,
    @Body() body: UpdateWebhookEndpointDto,
  ): Promise<WebhookEndpointDto> {
    return this.rpc.request(Subjects.webhooks.endpointUpdate, auth.partner, { id, changes: body });
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'Delete a webhook endpoint',
    description:
      'Works also when the endpoint’s agent has been deleted. Its delivery history goes with it. Deleting the ' +
      'last enabled endpoint of an agent flips its webhooks_include_account_endpoints back to true.',
  })
  @ApiParam(ENDPOINT_ID)
  @ApiEnvelope(WebhookEndpointDeletedDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  remove(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Webhook endpoint')) id: string,
  ): Promise<WebhookEndpointDeletedDto> {
    return this.rpc.request(Subjects.webhooks.endpointDelete, auth.partner, { id });
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Issue a new signing secret (returned once)',
    description:
      'Deliveries are signed with the new secret at once. For WEBHOOK_SECRET_GRACE (default 24 h) the previous ' +
      'secret stays valid: each request then also carries X-Webhook-Signature-Previous, the same sha256=<hex> ' +
      'signature of the same timestamp and body made with the previous secret; X-Webhook-Signature always uses ' +
      'the new one. previous_secret_expires_at on the endpoint says when the grace ends.',
  })
  @ApiParam(ENDPOINT_ID)
  @ApiEnvelope(WebhookEndpointWithSecretDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  rotate(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Webhook endpoint')) id: string,
  ): Promise<WebhookEndpointWithSecretDto> {
    return this.rpc.request(Subjects.webhooks.endpointRotateSecret, auth.partner, { id });
  }

  @Post(':id/test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send webhook.test to this endpoint',
    description:
      'Queues a webhook.test delivery ({ event: "webhook.test", timestamp, data: { endpoint_id, label, message } }) ' +
      'to this endpoint only, whatever its allowlist and even when it is disabled, signed and retried like any ' +
      'delivery. Follow it with GET /webhook-deliveries/{id}.',
  })
  @ApiParam(ENDPOINT_ID)
  @ApiEnvelope(WebhookDeliveryDto)
  @ApiErrors(ErrorCode.NOT_FOUND)
  test(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Webhook endpoint')) id: string,
  ): Promise<WebhookDeliveryDto> {
    return this.rpc.request(Subjects.webhooks.endpointTest, auth.partner, { id });
  }

  @Get(':id/deliveries')
  @ApiOperation({
    summary: 'Delivery history of an endpoint (newest first; cursor pagination)',
    description: 'Filters: status, event_type, and a created_at window (since inclusive, until exclusive).',
  })
  @ApiParam(ENDPOINT_ID)
  @ApiEnvelope(WebhookDeliveryListDto)
  @ApiErrors(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  deliveries(
    @CurrentPartner() auth: AuthContext,
    @Param('id', idParam('Webhook endpoint')) id: string,
    @Query() query: ListWebhookDeliveriesQueryDto,
  ): Promise<WebhookDeliveryListDto> {
    return this.rpc.request(Subjects.webhooks.deliveryList, auth.partner, { endpointId: id, query });
  }
}
