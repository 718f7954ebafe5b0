import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { BillingUsageService } from '../billing/billing-usage.service';
import { ClientsController } from './clients.controller';
import { ClientsService } from './clients.service';
import { OnBehalfService } from './on-behalf.service';
import { ResellerAuditService } from './reseller-audit.service';

/** Reseller client management, and the on-behalf header the API-key guard applies (hence the export). */
@Module({
  imports: [AccountsModule],
  controllers: [ClientsController],
  providers: [ClientsService, ResellerAuditService, OnBehalfService, BillingUsageService],
  exports: [OnBehalfService],
})
export class ClientsModule {}
