import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ContactPolicySettingsDto, resolveCallingWindow, UpdateContactPolicySettingsDto } from '@vap/api';
import { AppError, DomainEvents } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { toContactPolicySettingsDto } from '../../contact-policy-settings.service';
import { ContactPolicySettingsRow } from '../../entities/contact-policy-settings.entity';

/**
 * calls.contact_policy.settings_update (PATCH /contact-policy/settings): fields left out keep their value, null
 * clears a window or a cap; the new settings are published.
 */
@Injectable()
export class UpdateContactPolicySettings {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
  ) {}

  async execute(
    partnerId: string,
    changes: UpdateContactPolicySettingsDto,
  ): Promise<ContactPolicySettingsDto> {
    let window: ContactPolicySettingsDto['calling_window'] | undefined;
    if (changes.calling_window === null) window = null;
    else if (changes.calling_window !== undefined) {
      const resolved = resolveCallingWindow(changes.calling_window, 'calling_window');
      if ('problems' in resolved) throw AppError.validation(resolved.problems);
      window = resolved.window;
    }
    return this.dataSource.transaction(async (em) => {
      const repo = em.getRepository(ContactPolicySettingsRow);
      // The row lock orders concurrent PATCHes, so each one merges into what the one before it stored. An
      // account's first PATCH has no row to lock: the empty row goes in first, and a concurrent first PATCH
      // waits on that insert, then on the lock, instead of writing over it with its own fields only. The
      // table's defaults are the empty settings.
      await repo.createQueryBuilder().insert().values({ partnerId }).orIgnore().execute();
      const current = await repo.findOne({ where: { partnerId }, lock: { mode: 'pessimistic_write' } });
      const next: ContactPolicySettingsRow = {
        partnerId,
        callingWindow: window !== undefined ? window : (current?.callingWindow ?? null),
        windowsApplyToSingleCalls:
          changes.windows_apply_to_single_calls ?? current?.windowsApplyToSingleCalls ?? false,
        maxAttemptsPerDay:
          changes.max_attempts_per_day !== undefined
            ? changes.max_attempts_per_day
            : (current?.maxAttemptsPerDay ?? null),
        maxAttemptsPer7Days:
          changes.max_attempts_per_7_days !== undefined
            ? changes.max_attempts_per_7_days
            : (current?.maxAttemptsPer7Days ?? null),
        updatedAt: new Date(),
      };
      await repo.upsert(next, ['partnerId']);
      const dto = toContactPolicySettingsDto(next);
      // Campaigns ask their policy-deferred contacts again under the new settings.
      await this.outbox.record(em, DomainEvents.contactPolicySettingsUpdated, partnerId, dto);
      return dto;
    });
  }
}
