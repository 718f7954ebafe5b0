import { Module } from '@nestjs/common';
import { CallsModule } from '../calls/calls.module';
import { CarriersModule } from '../carriers/carriers.module';
import { BalanceGuardModule } from '../balance-guard/balance-guard.module';
import { LifecycleHooksModule } from '../lifecycle-hooks/lifecycle-hooks.module';
import { PartnersModule } from '../partners/partners.module';
import { ProgressModule } from '../progress/progress.module';
import { ConnectionsModule } from '../telephony/connections/connections.module';
import { ContactPolicyModule } from '../telephony/contact-policy/contact-policy.module';
import { AdmissionHandlers } from './admission.handlers';
import { CallDialer } from './call-dialer';
import { FromNumberResolver } from './from-number.resolver';
import { PlacementRecovery } from './placement-recovery.service';
import { StartCallService } from './start-call.service';
import { StartCallKeysPruner } from './start-call-keys-pruner.service';

/**
 * The start of an outbound call: the idempotency key, the partner's standing, concurrency and balance, the
 * contact policy and the caller ID, then the pre-call hook and the dial at the carrier; and the recovery of
 * calls whose start failed after their admission.
 */
@Module({
  imports: [
    CallsModule,
    PartnersModule,
    BalanceGuardModule,
    ContactPolicyModule,
    ConnectionsModule,
    CarriersModule,
    ProgressModule,
    LifecycleHooksModule,
  ],
  controllers: [AdmissionHandlers],
  providers: [StartCallService, FromNumberResolver, CallDialer, StartCallKeysPruner, PlacementRecovery],
})
export class AdmissionModule {}
