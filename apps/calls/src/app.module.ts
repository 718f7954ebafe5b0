import { DynamicModule, Module } from '@nestjs/common';
import { serviceCoreModules, ValidatedConfigs } from '@vap/runtime';
import { BlobStorageConfig, BlobStorageModule } from '@vap/storage';
import { BillingModule } from './billing/billing.module';
import { CallsModule } from './calls/calls.module';
import { CallsConfig } from './config/calls.config';
import { ContactPolicyModule } from './contact-policy/contact-policy.module';
import { callsDataSourceOptions } from './database/data-source';
import { InboundRoutingModule } from './inbound-routing/inbound-routing.module';
import { CallsMetricsModule } from './metrics/active-calls.metrics';
import { PhoneNumbersModule } from './phone-numbers/phone-numbers.module';
import { ResellerLinkModule } from './reseller-link/reseller-link.module';
import { SecretsModule } from './secrets/secrets.module';
import { TelephonyModule } from './telephony/telephony.module';
import { VoiceModule } from './voice/voice.module';

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
