import { Controller } from '@nestjs/common';
import {
  CreateInboundRoutePolicyDto,
  ListInboundRouteDecisionsQueryDto,
  SandboxInboundCallDto,
  UpdateInboundRoutePolicyDto,
} from '@vap/api';
import { ByIdRequest, CarrierCallbackIngest, Subjects, UpdateRequest } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { InboundCallbackService } from './inbound-callback.service';
import { InboundDecisionsService } from './inbound-decisions.service';
import { InboundPoliciesService } from './inbound-policies.service';
import { SandboxInboundService } from './sandbox-inbound.service';

/** NATS commands of inbound routing (queue group: calls). */
@Controller()
export class InboundRoutingHandlers {
  constructor(
    private readonly policies: InboundPoliciesService,
    private readonly decisions: InboundDecisionsService,
    private readonly sandbox: SandboxInboundService,
    private readonly callbacks: InboundCallbackService,
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

  @Command(Subjects.calls.sandboxInboundCall)
  sandboxInbound(@Data() data: SandboxInboundCallDto, @PartnerId() partnerId: string) {
    return this.sandbox.simulate(partnerId, data);
  }

  /** A carrier's inbound-call webhook forwarded by the gateway (callId holds the connection id). */
  @Command(Subjects.calls.inboundCallbackIngest)
  inboundCallback(@Data() ingest: CarrierCallbackIngest) {
    return this.callbacks.ingest(ingest);
  }
}
