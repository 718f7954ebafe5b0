import { Module } from '@nestjs/common';
import { PartnersModule } from '../partners/partners.module';
import { ModelAccess } from './model-access';
import { ModelCatalogService } from './model-catalog.service';
import { ModelDeployment } from './model-deployment';
import { ModelPlanService } from './model-plan.service';
import { ProviderCredentialsHandlers } from './provider-credentials.handlers';
import { ProviderCredentialsService } from './provider-credentials.service';
import { ProviderKeyChecker } from './provider-key-check';
import { ProviderKeySealer } from './provider-key-sealer';
import { SpeechAccess } from './speech-access';
import { SpeechDeployment } from './speech-deployment';
import { SpeechKeys } from './speech-keys';
import { SpeechPlanService } from './speech-plan.service';

/**
 * Accounts' speech and model provider keys (and own model servers), the platform's, what a call speaks with
 * (agents.speech.plan) and thinks with (agents.model.plan), and the model catalog (agents.model.list).
 */
@Module({
  imports: [PartnersModule],
  controllers: [ProviderCredentialsHandlers],
  providers: [
    ProviderCredentialsService,
    ProviderKeyChecker,
    ProviderKeySealer,
    SpeechDeployment,
    SpeechAccess,
    SpeechPlanService,
    SpeechKeys,
    ModelDeployment,
    ModelAccess,
    ModelPlanService,
    ModelCatalogService,
  ],
  exports: [SpeechAccess, SpeechKeys, ModelAccess],
})
export class ProviderCredentialsModule {}
