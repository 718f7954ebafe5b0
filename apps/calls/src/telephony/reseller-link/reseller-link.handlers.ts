import { Controller } from '@nestjs/common';
import {
  CreateResellerLinkConnectionDto,
  ResellerCallRoutingQueryDto,
  ResellerLinkDeactivateRequest,
} from '@vap/api';
import { Subjects } from '@vap/messages';
import { Command, Data, PartnerId } from '@vap/messaging';
import { CreateResellerLinkConnection } from './usecases/create-reseller-link-connection/create-reseller-link-connection.usecase';
import { DeactivateResellerLinkConnection } from './usecases/deactivate-reseller-link-connection/deactivate-reseller-link-connection.usecase';
import { GetCallRouting } from './usecases/get-call-routing/get-call-routing.usecase';

/** NATS commands of the reseller link; connection management comes from the operator API. */
@Controller()
export class ResellerLinkHandlers {
  constructor(
    private readonly createConnection: CreateResellerLinkConnection,
    private readonly deactivateConnection: DeactivateResellerLinkConnection,
    private readonly getCallRouting: GetCallRouting,
  ) {}

  @Command(Subjects.calls.resellerLinkConnectionCreate)
  create(@Data() data: CreateResellerLinkConnectionDto, @PartnerId() partnerId: string) {
    return this.createConnection.execute(partnerId, data);
  }

  @Command(Subjects.calls.resellerLinkConnectionDeactivate)
  deactivate(@Data() { connectionId }: ResellerLinkDeactivateRequest, @PartnerId() partnerId: string) {
    return this.deactivateConnection.execute(partnerId, connectionId);
  }

  @Command(Subjects.calls.resellerLinkCallRouting)
  callRouting(@Data() query: ResellerCallRoutingQueryDto, @PartnerId() partnerId: string) {
    return this.getCallRouting.execute(partnerId, query);
  }
}
