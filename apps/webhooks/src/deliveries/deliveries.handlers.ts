import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ListWebhookDeliveriesQueryDto,
  RpcRequest,
  Subjects,
  WebhookDeliveryDetailDto,
  WebhookDeliveryDto,
  WebhookDeliveryListDto,
} from '@vap/contracts';
import { partnerOf } from '../common/partner-of';
import { DeliveriesService } from './deliveries.service';

/** NATS commands of delivery history, manual retry and send-test (queue group: webhooks). */
@Controller()
export class DeliveriesHandlers {
  constructor(private readonly deliveries: DeliveriesService) {}

  @MessagePattern(Subjects.webhooks.deliveryList)
  list(
    @Payload() req: RpcRequest<{ endpoint_id: string; query: ListWebhookDeliveriesQueryDto }>,
  ): Promise<WebhookDeliveryListDto> {
    return this.deliveries.list(partnerOf(req), req.data.endpoint_id, req.data.query);
  }

  @MessagePattern(Subjects.webhooks.deliveryGet)
  get(@Payload() req: RpcRequest<{ id: string }>): Promise<WebhookDeliveryDetailDto> {
    return this.deliveries.get(partnerOf(req), req.data.id);
  }

  @MessagePattern(Subjects.webhooks.deliveryRetry)
  retry(@Payload() req: RpcRequest<{ id: string }>): Promise<WebhookDeliveryDto> {
    return this.deliveries.retry(partnerOf(req), req.data.id);
  }

  @MessagePattern(Subjects.webhooks.endpointTest)
  test(@Payload() req: RpcRequest<{ id: string }>): Promise<WebhookDeliveryDto> {
    return this.deliveries.sendTest(partnerOf(req), req.data.id);
  }
}
