import { Module } from '@nestjs/common';
import { PartnersModule } from '../partners/partners.module';
import { ProviderCredentialsHandlers } from './provider-credentials.handlers';
import { ProviderCredentialsService } from './provider-credentials.service';
import { ProviderKeyChecker } from './provider-key-check';
import { ProviderKeySealer } from './provider-key-sealer';
import { SpeechAccess } from './speech-access';
import { SpeechDeployment } from './speech-deployment';
import { SpeechKeys } from './speech-keys';
import { SpeechPlanService } from './speech-plan.service';

/** Accounts' speech provider keys, the platform's, and what a call speaks with (agents.speech.plan). */
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
  ],
  exports: [SpeechAccess, SpeechKeys],
})
export class ProviderCredentialsModule {}
