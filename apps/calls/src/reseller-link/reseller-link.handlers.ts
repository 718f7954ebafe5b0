import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateResellerLinkConnectionDto,
  ResellerCallRoutingDto,
  ResellerCallRoutingQueryDto,
  RpcRequest,
  Subjects,
  TelephonyConnectionDto,
} from '@vap/contracts';
import { partnerOf } from '../telephony/partner-of';
import { ResellerLinkService } from './reseller-link.service';

/** NATS commands of the reseller link; connection management comes from the operator API. */
@Controller()
export class ResellerLinkHandlers {
  constructor(private readonly resellerLink: ResellerLinkService) {}

  @MessagePattern(Subjects.calls.resellerLinkConnectionCreate)
  create(@Payload() req: RpcRequest<CreateResellerLinkConnectionDto>): Promise<TelephonyConnectionDto> {
    return this.resellerLink.createConnection(partnerOf(req), req.data);
  }

  @MessagePattern(Subjects.calls.resellerLinkConnectionDeactivate)
  deactivate(@Payload() req: RpcRequest<{ connectionId: string }>): Promise<TelephonyConnectionDto> {
    return this.resellerLink.deactivateConnection(partnerOf(req), req.data.connectionId);
  }

  @MessagePattern(Subjects.calls.resellerLinkCallRouting)
  callRouting(@Payload() req: RpcRequest<ResellerCallRoutingQueryDto>): Promise<ResellerCallRoutingDto> {
    return this.resellerLink.callRouting(partnerOf(req), req.data);
  }
}
