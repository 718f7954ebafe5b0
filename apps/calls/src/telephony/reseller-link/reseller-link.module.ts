import { Module } from '@nestjs/common';
import { ConnectionsModule } from '../connections/connections.module';
import { ResellerLinkHandlers } from './reseller-link.handlers';
import { CreateResellerLinkConnection } from './usecases/create-reseller-link-connection/create-reseller-link-connection.usecase';
import { DeactivateResellerLinkConnection } from './usecases/deactivate-reseller-link-connection/deactivate-reseller-link-connection.usecase';
import { GetCallRouting } from './usecases/get-call-routing/get-call-routing.usecase';

/** reseller-link connections (the operator manages them) and the call-routing table read from the reseller. */
@Module({
  imports: [ConnectionsModule],
  controllers: [ResellerLinkHandlers],
  providers: [CreateResellerLinkConnection, DeactivateResellerLinkConnection, GetCallRouting],
})
export class ResellerLinkModule {}
