import { Module } from '@nestjs/common';
import { ContactPolicySettingsController } from './contact-policy-settings.controller';
import { DoNotCallController } from './do-not-call.controller';
import { DoNotCallImporter } from './do-not-call-import';
import { PolicyDecisionsController } from './policy-decisions.controller';

@Module({
  controllers: [DoNotCallController, PolicyDecisionsController, ContactPolicySettingsController],
  providers: [DoNotCallImporter],
})
export class ContactPolicyModule {}
