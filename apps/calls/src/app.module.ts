import { DynamicModule, Module } from '@nestjs/common';
import { serviceCoreModules, SystemClock, ValidatedConfigs } from '@vap/runtime';
import { BlobStorageConfig, BlobStorageModule } from '@vap/storage';
import { AdmissionModule } from './admission/admission.module';
import { InboundCallsModule } from './admission/inbound/inbound-calls.module';
import { BalanceGuardModule } from './balance-guard/balance-guard.module';
import { BrowserSessionsModule } from './browser-sessions/browser-sessions.module';
import { CallsModule } from './calls/calls.module';
import { CarriersModule } from './carriers/carriers.module';
import { ChargesModule } from './charges/charges.module';
import { CallsConfig } from './config/calls.config';
import { callsDataSourceOptions } from './database/data-source';
import { LifecycleHooksModule } from './lifecycle-hooks/lifecycle-hooks.module';
import { MediaSessionsModule } from './media-sessions/media-sessions.module';
import { MessagesModule } from './messages/messages.module';
import { CallsMetricsModule } from './metrics/active-calls.metrics';
import { PostCallModule } from './post-call/post-call.module';
import { ProgressModule } from './progress/progress.module';
import { SecretsModule } from './secrets/secrets.module';
import { ConnectionsModule } from './telephony/connections/connections.module';
import { ContactPolicyModule } from './telephony/contact-policy/contact-policy.module';
import { InboundRoutingModule } from './telephony/inbound-routing/inbound-routing.module';
import { PhoneNumbersModule } from './telephony/phone-numbers/phone-numbers.module';
import { ResellerLinkModule } from './telephony/reseller-link/reseller-link.module';
import { TelephonyConnectionsModule } from './telephony/telephony-connections/telephony-connections.module';

/** The wall clock, or (tests only) one that starts at CONTACT_POLICY_CLOCK_START to try calling windows. */
function callsClock(config: CallsConfig): SystemClock {
  const start = config.CONTACT_POLICY_CLOCK_START;
  return new SystemClock(start ? new Date(start) : undefined);
}

@Module({})
export class AppModule {
  static forRoot(config: CallsConfig, configs: ValidatedConfigs): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ...serviceCoreModules('calls', config, callsDataSourceOptions(config), {}, callsClock(config)),
        // Recordings live where the gateway serves their signed download URLs (see BlobStorageConfig).
        BlobStorageModule.forRoot(configs.get(BlobStorageConfig)),
        SecretsModule,
        // A call's stages, in the order a call meets them.
        AdmissionModule,
        InboundCallsModule,
        LifecycleHooksModule,
        BrowserSessionsModule,
        CarriersModule,
        ProgressModule,
        MediaSessionsModule,
        PostCallModule,
        ChargesModule,
        BalanceGuardModule,
        CallsModule,
        // The telephony configuration calls are placed and received with.
        ConnectionsModule,
        PhoneNumbersModule.withCarriers(CarriersModule),
        TelephonyConnectionsModule.withCarriers(CarriersModule),
        InboundRoutingModule,
        ResellerLinkModule,
        ContactPolicyModule,
        MessagesModule,
        CallsMetricsModule,
      ],
    };
  }
}
