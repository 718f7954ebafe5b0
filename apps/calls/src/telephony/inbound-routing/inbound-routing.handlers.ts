import { Controller } from '@nestjs/common';
import {
  CreateInboundRoutePolicyDto,
  ListInboundRouteDecisionsQueryDto,
  UpdateInboundRoutePolicyDto,
} from '@vap/api';
import { ByIdRequest, Subjects, UpdateRequest } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { CreateInboundPolicy } from './usecases/create-inbound-policy/create-inbound-policy.usecase';
import { DeleteInboundPolicy } from './usecases/delete-inbound-policy/delete-inbound-policy.usecase';
import { GetInboundPolicy } from './usecases/get-inbound-policy/get-inbound-policy.usecase';
import { ListInboundDecisions } from './usecases/list-inbound-decisions/list-inbound-decisions.usecase';
import { ListInboundPolicies } from './usecases/list-inbound-policies/list-inbound-policies.usecase';
import { UpdateInboundPolicy } from './usecases/update-inbound-policy/update-inbound-policy.usecase';

/** NATS commands of inbound routing's configuration (queue group: calls). */
@Controller()
export class InboundRoutingHandlers {
  constructor(
    private readonly createPolicy: CreateInboundPolicy,
    private readonly listPolicies: ListInboundPolicies,
    private readonly getPolicy: GetInboundPolicy,
    private readonly updatePolicy: UpdateInboundPolicy,
    private readonly deletePolicy: DeleteInboundPolicy,
    private readonly listDecisions: ListInboundDecisions,
  ) {}

  @Command(Subjects.calls.inboundPolicyCreate)
  create(@Data() data: CreateInboundRoutePolicyDto, @PartnerId() partnerId: string) {
    return this.createPolicy.execute(partnerId, data);
  }

  @Command(Subjects.calls.inboundPolicyList)
  list(@PartnerId() partnerId: string) {
    return this.listPolicies.execute(partnerId);
  }

  @Command(Subjects.calls.inboundPolicyGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.getPolicy.execute(partnerId, id);
  }

  @Command(Subjects.calls.inboundPolicyUpdate)
  update(
    @Data() { id, changes }: UpdateRequest<UpdateInboundRoutePolicyDto>,
    @PartnerId() partnerId: string,
  ) {
    return this.updatePolicy.execute(partnerId, id, changes);
  }

  @Command(Subjects.calls.inboundPolicyDelete)
  remove(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.deletePolicy.execute(partnerId, id);
  }

  @Command(Subjects.calls.inboundDecisionList)
  decisions(@Data() query: ListInboundRouteDecisionsQueryDto, @PartnerId() partnerId: string) {
    return this.listDecisions.execute(partnerId, query);
  }
}
