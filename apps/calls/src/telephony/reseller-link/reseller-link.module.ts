import { Module } from '@nestjs/common';
import { ConnectionsModule } from '../connections/connections.module';
import { ResellerLinkHandlers } from './reseller-link.handlers';
import { ResellerLinkService } from './reseller-link.service';

@Module({
  imports: [ConnectionsModule],
  controllers: [ResellerLinkHandlers],
  providers: [ResellerLinkService],
})
export class ResellerLinkModule {}
