import { Module } from '@nestjs/common';
import { BillingHandlers } from './billing.handlers';
import { UnbilledChargesService } from './unbilled-charges.service';

/** Charges of ended calls, handed to the gateway on request until it acknowledges them. */
@Module({
  controllers: [BillingHandlers],
  providers: [UnbilledChargesService],
})
export class BillingModule {}
