import { Module } from '@nestjs/common';
import { ContactPolicy } from './contact-policy';
import { ContactPolicySettingsService } from './contact-policy-settings.service';
import { ContactPolicyHandlers } from './contact-policy.handlers';
import { DoNotCallService } from './do-not-call.service';
import { CONTACT_POLICY_USE_CASES } from './usecases';

@Module({
  controllers: [ContactPolicyHandlers],
  providers: [...CONTACT_POLICY_USE_CASES, DoNotCallService, ContactPolicySettingsService, ContactPolicy],
  exports: [ContactPolicy, DoNotCallService],
})
export class ContactPolicyModule {}
