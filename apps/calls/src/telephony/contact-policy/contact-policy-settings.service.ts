import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ContactPolicySettingsDto } from '@vap/api';
import { ContactPolicySettingsRow } from './entities/contact-policy-settings.entity';

/** The account's settings as answered: an account that never set them has the empty ones. */
export const toContactPolicySettingsDto = (
  row: ContactPolicySettingsRow | null,
): ContactPolicySettingsDto => ({
  calling_window: row?.callingWindow ?? null,
  windows_apply_to_single_calls: row?.windowsApplyToSingleCalls ?? false,
  max_attempts_per_day: row?.maxAttemptsPerDay ?? null,
  max_attempts_per_7_days: row?.maxAttemptsPer7Days ?? null,
  updated_at: row?.updatedAt.toISOString() ?? null,
});

/** The account's calling window and frequency caps, as the contact policy and GET /contact-policy/settings read them. */
@Injectable()
export class ContactPolicySettingsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async get(partnerId: string): Promise<ContactPolicySettingsDto> {
    return toContactPolicySettingsDto(
      await this.dataSource.getRepository(ContactPolicySettingsRow).findOneBy({ partnerId }),
    );
  }
}
