import { Module } from '@nestjs/common';
import { TelephonyModule } from '../connections/connections.module';
import { ResellerLinkHandlers } from './reseller-link.handlers';
import { ResellerLinkService } from './reseller-link.service';

@Module({
  imports: [TelephonyModule],
  controllers: [ResellerLinkHandlers],
  providers: [ResellerLinkService],
})
export class ResellerLinkModule {}
