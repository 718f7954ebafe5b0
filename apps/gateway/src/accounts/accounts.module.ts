import { Module } from '@nestjs/common';
import { AdminController } from './admin.controller';
import { ApiKeysService } from './api-keys.service';
import { PartnersService } from './partners.service';
import { BillingController } from '../billing/billing.controller';

@Module({
  controllers: [AdminController, BillingController],
  providers: [PartnersService, ApiKeysService],
  exports: [PartnersService, ApiKeysService],
})
export class AccountsModule {}
