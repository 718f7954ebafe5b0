import { Module } from '@nestjs/common';
import { ContactPolicy } from './contact-policy';
import { ContactPolicySettingsService } from './contact-policy-settings.service';
import { ContactPolicyHandlers } from './contact-policy.handlers';
import { DoNotCallService } from './do-not-call.service';
import { PolicyDecisionsService } from './policy-decisions.service';

@Module({
  controllers: [ContactPolicyHandlers],
  providers: [DoNotCallService, PolicyDecisionsService, ContactPolicySettingsService, ContactPolicy],
  exports: [ContactPolicy, DoNotCallService],
})
export class ContactPolicyModule {}
