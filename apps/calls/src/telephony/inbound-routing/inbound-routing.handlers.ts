import { Controller } from '@nestjs/common';
import {
  CreateInboundRoutePolicyDto,
  ListInboundRouteDecisionsQueryDto,
  UpdateInboundRoutePolicyDto,
} from '@vap/api';
import { ByIdRequest, Subjects, UpdateRequest } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { InboundDecisionsService } from './inbound-decisions.service';
import { InboundPoliciesService } from './inbound-policies.service';

/** NATS commands of inbound routing's configuration (queue group: calls). */
@Controller()
export class InboundRoutingHandlers {
  constructor(
    private readonly policies: InboundPoliciesService,
    private readonly decisions: InboundDecisionsService,
  ) {}

  @Command(Subjects.calls.inboundPolicyCreate)
  create(@Data() data: CreateInboundRoutePolicyDto, @PartnerId() partnerId: string) {
    return this.policies.create(partnerId, data);
  }

  @Command(Subjects.calls.inboundPolicyList)
  list(@PartnerId() partnerId: string) {
    return this.policies.list(partnerId);
  }

  @Command(Subjects.calls.inboundPolicyGet)
  get(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.policies.get(partnerId, id);
  }

  @Command(Subjects.calls.inboundPolicyUpdate)
  update(
    @Data() { id, changes }: UpdateRequest<UpdateInboundRoutePolicyDto>,
    @PartnerId() partnerId: string,
  ) {
    return this.policies.update(partnerId, id, changes);
  }

  @Command(Subjects.calls.inboundPolicyDelete)
  remove(@Data() { id }: ByIdRequest, @PartnerId() partnerId: string) {
    return this.policies.remove(partnerId, id);
  }

  @Command(Subjects.calls.inboundDecisionList)
  listDecisions(@Data() query: ListInboundRouteDecisionsQueryDto, @PartnerId() partnerId: string) {
    return this.decisions.list(partnerId, query);
  }
}
