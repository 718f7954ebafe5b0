import { Controller } from '@nestjs/common';
import {
  CreateResellerLinkConnectionDto,
  ResellerCallRoutingQueryDto,
  ResellerLinkDeactivateRequest,
} from '@vap/api';
import { Subjects } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { ResellerLinkService } from './reseller-link.service';

/** NATS commands of the reseller link; connection management comes from the operator API. */
@Controller()
export class ResellerLinkHandlers {
  constructor(private readonly resellerLink: ResellerLinkService) {}

  @Command(Subjects.calls.resellerLinkConnectionCreate)
  create(@Data() data: CreateResellerLinkConnectionDto, @PartnerId() partnerId: string) {
    return this.resellerLink.createConnection(partnerId, data);
  }

  @Command(Subjects.calls.resellerLinkConnectionDeactivate)
  deactivate(@Data() { connectionId }: ResellerLinkDeactivateRequest, @PartnerId() partnerId: string) {
    return this.resellerLink.deactivateConnection(partnerId, connectionId);
  }

  @Command(Subjects.calls.resellerLinkCallRouting)
  callRouting(@Data() query: ResellerCallRoutingQueryDto, @PartnerId() partnerId: string) {
    return this.resellerLink.callRouting(partnerId, query);
  }
}
