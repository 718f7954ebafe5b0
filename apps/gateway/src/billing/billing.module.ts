import { Module } from '@nestjs/common';
import { BillingReconciler } from './billing-reconciler.service';
import { CallChargeService } from './call-charge.service';
import { CallChargesConsumer } from './call-charges.consumer';

/** Debiting call charges: from session.completed, and by reconciliation with the calls service. */
@Module({ providers: [CallChargeService, CallChargesConsumer, BillingReconciler] })
export class BillingModule {}
