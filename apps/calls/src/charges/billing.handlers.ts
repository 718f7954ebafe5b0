import { Controller } from '@nestjs/common';
import { AcknowledgeChargesRequest, Subjects, UnbilledChargesRequest } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { UnbilledChargesService } from './unbilled-charges.service';

/** NATS commands the gateway's billing reconciler uses (queue group: calls). */
@Controller()
export class BillingHandlers {
  constructor(private readonly charges: UnbilledChargesService) {}

  @Command(Subjects.calls.billingUnbilled)
  unbilled(@Data() request: UnbilledChargesRequest | null, @PartnerId() partnerId: string) {
    return this.charges.list(partnerId, request ?? {});
  }

  @Command(Subjects.calls.billingAcknowledge)
  acknowledge(@Data() request: AcknowledgeChargesRequest | null, @PartnerId() partnerId: string) {
    return this.charges.acknowledge(partnerId, request ?? { callIds: [] });
  }
}
