import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { ResellerLinkAdminController } from './reseller-link-admin.controller';
import { ResellerLinkController } from './reseller-link.controller';

@Module({
  imports: [AccountsModule],
  controllers: [ResellerLinkController, ResellerLinkAdminController],
})
export class ResellerLinkModule {}
