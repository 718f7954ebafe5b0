import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CarrierCallbackIngest,
  CarrierCallbackReply,
  CreateInboundRoutePolicyDto,
  InboundRouteDecisionDto,
  InboundRouteDecisionListDto,
  InboundRoutePolicyDeletedDto,
  InboundRoutePolicyDto,
  InboundRoutePolicyListDto,
  ListInboundRouteDecisionsQueryDto,
  RpcRequest,
  SandboxInboundCallDto,
  Subjects,
  UpdateInboundRoutePolicyDto,
} from '@vap/contracts';
import { partnerOf } from '../telephony/partner-of';
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

  @MessagePattern(Subjects.calls.inboundPolicyCreate)
  create(@Payload() req: RpcRequest<CreateInboundRoutePolicyDto>): Promise<InboundRoutePolicyDto> {
    return this.policies.create(partnerOf(req), req.data);
  }

  @MessagePattern(Subjects.calls.inboundPolicyList)
  list(@Payload() req: RpcRequest): Promise<InboundRoutePolicyListDto> {
    return this.policies.list(partnerOf(req));
  }

  @MessagePattern(Subjects.calls.inboundPolicyGet)
  get(@Payload() req: RpcRequest<{ id: string }>): Promise<InboundRoutePolicyDto> {
    return this.policies.get(partnerOf(req), req.data.id);
  }

  @MessagePattern(Subjects.calls.inboundPolicyUpdate)
  update(
    @Payload() req: RpcRequest<{ id: string; changes: UpdateInboundRoutePolicyDto }>,
  ): Promise<InboundRoutePolicyDto> {
    return this.policies.update(partnerOf(req), req.data.id, req.data.changes);
  }

  @MessagePattern(Subjects.calls.inboundPolicyDelete)
  remove(@Payload() req: RpcRequest<{ id: string }>): Promise<InboundRoutePolicyDeletedDto> {
    return this.policies.remove(partnerOf(req), req.data.id);
  }

  @MessagePattern(Subjects.calls.inboundDecisionList)
  listDecisions(
    @Payload() req: RpcRequest<ListInboundRouteDecisionsQueryDto>,
  ): Promise<InboundRouteDecisionListDto> {
    return this.decisions.list(partnerOf(req), req.data);
  }

  @MessagePattern(Subjects.calls.sandboxInboundCall)
  sandboxInbound(@Payload() req: RpcRequest<SandboxInboundCallDto>): Promise<InboundRouteDecisionDto> {
    return this.sandbox.simulate(partnerOf(req), req.data);
  }

  /** A carrier's inbound-call webhook forwarded by the gateway (callId holds the connection id). */
  @MessagePattern(Subjects.calls.inboundCallbackIngest)
  inboundCallback(@Payload() req: RpcRequest<CarrierCallbackIngest>): Promise<CarrierCallbackReply> {
    return this.callbacks.ingest(req.data);
  }
}
