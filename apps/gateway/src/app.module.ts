import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { SERVICE_NAMES } from '@vap/messages';
import { serviceCoreModules, ValidatedConfigs } from '@vap/runtime';
import { BlobStorageConfig, BlobStorageModule } from '@vap/storage';
import { AccountsModule } from './accounts/accounts.module';
import { AgentsModule } from './agents/agents.module';
import { BillingModule } from './billing/billing.module';
import { AdminTokenGuard } from './auth/admin-token.guard';
import { CallbacksModule } from './callbacks/callbacks.module';
import { BrowserSessionsModule } from './browser-sessions/browser-sessions.module';
import { PublishableKeysModule } from './publishable-keys/publishable-keys.module';
import { CallsModule } from './calls/calls.module';
import { CampaignsModule } from './campaigns/campaigns.module';
import { TestRunsModule } from './test-runs/test-runs.module';
import { ApiKeyGuard } from './auth/api-key.guard';
import { GatewayConfig } from './config/gateway.config';
import { ClientsModule } from './clients/clients.module';
import { CustomersModule } from './customers/customers.module';
import { ConnectorsModule } from './connectors/connectors.module';
import { DocumentsModule } from './documents/documents.module';
import { KnowledgeModule } from './knowledge/knowledge.module';
import { UploadsModule } from './uploads/uploads.module';
import { gatewayDataSourceOptions } from './database/data-source';
import { ExtractionSetsModule } from './extraction-sets/extraction-sets.module';
import { CustomFunctionsModule } from './custom-functions/custom-functions.module';
import { EnvelopeExceptionFilter } from './http/envelope-exception.filter';
import { EnvelopeInterceptor } from './http/envelope.interceptor';
import { UnsupportedBodyGuard } from './http/unsupported-body.guard';
import { BodyParsersGuard } from './http/body-parsers.guard';
import { OperatorLockout } from './auth/operator-lockout.service';
import { AddressRateLimiter, AddressRateLimitGuard } from './rate-limit/address-rate-limit';
import { LimitsPruner } from './rate-limit/limits-pruner';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { RateLimitService } from './rate-limit/rate-limit.service';
import { VoicesModule } from './voices/voices.module';
import { ProviderCredentialsModule } from './provider-credentials/provider-credentials.module';
import { ModelsModule } from './models/models.module';
import { InboundRoutingModule } from './inbound-routing/inbound-routing.module';
import { MessagesModule } from './messages/messages.module';
import { LifecycleHooksModule } from './lifecycle-hooks/lifecycle-hooks.module';
import { PhoneNumbersModule } from './phone-numbers/phone-numbers.module';
import { ContactPolicyModule } from './contact-policy/contact-policy.module';
import { ResellerLinkModule } from './reseller-link/reseller-link.module';
import { SdkModule } from './sdk/sdk.module';
import { TelephonyModule } from './telephony/telephony.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { IntegrationLogsModule } from './integration-logs/integration-logs.module';
import { ConsoleModule } from './console/console.module';
import { LiveViewsModule } from './live-views/live-views.module';
import { ProjectsModule } from './projects/projects.module';
import { DictionariesModule } from './dictionaries/dictionaries.module';

@Module({})
export class AppModule {
  static forRoot(config: GatewayConfig, configs: ValidatedConfigs): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        ...serviceCoreModules('gateway', config, gatewayDataSourceOptions(config), {
          peers: SERVICE_NAMES.filter((s) => s !== 'gateway'),
        }),
        AccountsModule,
        BillingModule,
        CustomersModule,
        ClientsModule,
        ConnectorsModule,
        CallsModule,
        BrowserSessionsModule,
        PublishableKeysModule,
        CampaignsModule,
        TestRunsModule,
        CallbacksModule,
        TelephonyModule,
        PhoneNumbersModule,
        ContactPolicyModule,
        InboundRoutingModule,
        MessagesModule,
        LifecycleHooksModule,
        ResellerLinkModule,
        AgentsModule,
        VoicesModule,
        ProviderCredentialsModule,
        ModelsModule,
        ExtractionSetsModule,
        CustomFunctionsModule,
        ProjectsModule,
        DictionariesModule,
        // The gateway serves the local blob driver's signed URLs, so it shares the agents service's storage.
        BlobStorageModule.forRoot(configs.get(BlobStorageConfig)),
        UploadsModule,
        DocumentsModule,
        KnowledgeModule,
        WebhooksModule,
        IntegrationLogsModule,
        ConsoleModule,
        LiveViewsModule,
        SdkModule.forRoot(config.NODE_ENV),
      ],
      providers: [
        RateLimitService,
        AddressRateLimiter,
        OperatorLockout,
        LimitsPruner,
        AdminTokenGuard,
        // Order matters: the per-address limits of the surfaces without a key come before any work on the
        // request; then a body of a type the route does not take is refused; then authenticate, then count
        // the request against the key's and the account's limits; only then is the body read and parsed.
        { provide: APP_GUARD, useClass: AddressRateLimitGuard },
        { provide: APP_GUARD, useClass: UnsupportedBodyGuard },
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: BodyParsersGuard },
        { provide: APP_FILTER, useClass: EnvelopeExceptionFilter },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
      ],
      exports: [AdminTokenGuard, OperatorLockout],
    };
  }
}
