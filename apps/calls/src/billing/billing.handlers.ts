import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AcknowledgeChargesReply,
  AcknowledgeChargesRequest,
  AppError,
  ErrorCode,
  RpcRequest,
  Subjects,
  UnbilledChargesPage,
  UnbilledChargesRequest,
} from '@vap/contracts';
import { UnbilledChargesService } from './unbilled-charges.service';

function partnerIdOf(req: RpcRequest): string {
  if (!req.partnerId) throw new AppError(ErrorCode.VALIDATION_ERROR, 'This command needs a partner');
  return req.partnerId;
}

/** NATS commands the gateway's billing reconciler uses (queue group: calls). */
@Controller()
export class BillingHandlers {
  constructor(private readonly charges: UnbilledChargesService) {}

  @MessagePattern(Subjects.calls.billingUnbilled)
  unbilled(@Payload() req: RpcRequest<UnbilledChargesRequest>): Promise<UnbilledChargesPage> {
    return this.charges.list(partnerIdOf(req), req.data ?? {});
  }

  @MessagePattern(Subjects.calls.billingAcknowledge)
  acknowledge(@Payload() req: RpcRequest<AcknowledgeChargesRequest>): Promise<AcknowledgeChargesReply> {
    return this.charges.acknowledge(partnerIdOf(req), req.data ?? { call_ids: [] });
  }
}
