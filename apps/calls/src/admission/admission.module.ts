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
import { CallDialer } from './usecases/start-call/call-dialer';
import { FromNumberResolver } from './usecases/start-call/from-number.resolver';
import { PlacementRecovery } from './usecases/recover-placement/placement-recovery.service';
import { StartCall } from './usecases/start-call/start-call.usecase';
import { StartCallKeysPruner } from './usecases/prune-start-call-keys/start-call-keys-pruner.service';

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
  providers: [StartCall, FromNumberResolver, CallDialer, StartCallKeysPruner, PlacementRecovery],
})
export class AdmissionModule {}
