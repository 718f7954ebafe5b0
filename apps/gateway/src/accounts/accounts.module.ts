import { Module } from '@nestjs/common';
import { ApiKeyCache } from '../auth/api-key-cache';
import { AdminController } from './admin.controller';
import { ApiKeysService } from './api-keys.service';
import { PartnersService } from './partners.service';
import { BillingController } from '../billing/billing.controller';
import { BillingTransactionsService } from '../billing/billing-transactions.service';
import { BillingUsageService } from '../billing/billing-usage.service';

@Module({
  controllers: [AdminController, BillingController],
  providers: [PartnersService, ApiKeysService, ApiKeyCache, BillingTransactionsService, BillingUsageService],
  exports: [PartnersService, ApiKeysService, ApiKeyCache],
})
export class AccountsModule {}
