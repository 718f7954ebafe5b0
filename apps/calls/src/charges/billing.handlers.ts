import { Controller } from '@nestjs/common';
import { AcknowledgeChargesRequest, Subjects, UnbilledChargesRequest } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { AcknowledgeCharges } from './usecases/acknowledge-charges/acknowledge-charges.usecase';
import { ListUnbilledCharges } from './usecases/list-unbilled-charges/list-unbilled-charges.usecase';

/** NATS commands the gateway's billing reconciler uses (queue group: calls). */
@Controller()
export class BillingHandlers {
  constructor(
    private readonly listUnbilledCharges: ListUnbilledCharges,
    private readonly acknowledgeCharges: AcknowledgeCharges,
  ) {}

  @Command(Subjects.calls.billingUnbilled)
  unbilled(@Data() request: UnbilledChargesRequest | null, @PartnerId() partnerId: string) {
    return this.listUnbilledCharges.execute(partnerId, request ?? {});
  }

  @Command(Subjects.calls.billingAcknowledge)
  acknowledge(@Data() request: AcknowledgeChargesRequest | null, @PartnerId() partnerId: string) {
    return this.acknowledgeCharges.execute(partnerId, request ?? { callIds: [] });
  }
}
