import { DynamicModule, Module } from '@nestjs/common';
import { serviceCoreModules, ValidatedConfigs } from '@vap/runtime';
import { BlobStorageConfig, BlobStorageModule } from '@vap/storage';
import { BillingModule } from './charges/charges.module';
import { CallsModule } from './calls/calls.module';
import { CallsConfig } from './config/calls.config';
import { ContactPolicyModule } from './telephony/contact-policy/contact-policy.module';
import { callsDataSourceOptions } from './database/data-source';
import { InboundRoutingModule } from './telephony/inbound-routing/inbound-routing.module';
import { CallsMetricsModule } from './metrics/active-calls.metrics';
import { PhoneNumbersModule } from './telephony/phone-numbers/phone-numbers.module';
import { ResellerLinkModule } from './telephony/reseller-link/reseller-link.module';
import { SecretsModule } from './secrets/secrets.module';
import { TelephonyModule } from './telephony/connections/connections.module';
import { VoiceModule } from './media-sessions/media-sessions.module';

@Module({})
export class AppModule {
  static forRoot(config: CallsConfig, configs: ValidatedConfigs): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ...serviceCoreModules('calls', config, callsDataSourceOptions(config)),
        // Recordings live where the gateway serves their signed download URLs (see BlobStorageConfig).
        BlobStorageModule.forRoot(configs.get(BlobStorageConfig)),
        CallsModule,
        BillingModule,
        SecretsModule,
        TelephonyModule,
        PhoneNumbersModule,
        ContactPolicyModule,
        InboundRoutingModule,
        ResellerLinkModule,
        CallsMetricsModule,
        VoiceModule,
      ],
    };
  }
}
