import { Injectable } from '@nestjs/common';
import { ContactPolicySettingsDto } from '@vap/api';
import { ContactPolicySettingsService } from '../../contact-policy-settings.service';

/** calls.contact_policy.settings_get: the account's calling window and frequency caps (the empty ones if unset). */
@Injectable()
export class GetContactPolicySettings {
  constructor(private readonly settings: ContactPolicySettingsService) {}

  execute(partnerId: string): Promise<ContactPolicySettingsDto> {
    return this.settings.get(partnerId);
  }
}
