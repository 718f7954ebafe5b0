import { Controller } from '@nestjs/common';
import { ListWebhookDeliveriesRequest } from '@vap/api';
import { ByIdRequest, Subjects } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { DeliveriesService } from './deliveries.service';

/** NATS commands of delivery history, manual retry and send-test (queue group: webhooks). */
@Controller()
export class DeliveriesHandlers {
  constructor(private readonly deliveries: DeliveriesService) {}

  @Command(Subjects.webhooks.deliveryList)
  list(@Data() { endpointId, query }: ListWebhookDeliveriesRequest, @PartnerId() partnerId: string) {
    return this.deliveries.list(partnerId, endpointId, query);
  }

  @Command(Subjects.webhooks.deliveryGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.deliveries.get(partnerId, id);
  }

  @Command(Subjects.webhooks.deliveryRetry)
  retry(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.deliveries.retry(partnerId, id);
  }

  @Command(Subjects.webhooks.endpointTest)
  test(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.deliveries.sendTest(partnerId, id);
  }
}
