import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PhoneNumberDeletedDto } from '@vap/api';
import { AppError, DomainEvents, ErrorCode } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { ConnectionCredentials } from '../../../connections/entities/connection-credentials.entity';
import { PhoneNumber } from '../../entities/phone-number.entity';
import { NUMBER_DETACHERS, NumberDetachers } from '../../number-detachers';
import { findOwnPhoneNumber } from '../../own-phone-number';

/**
 * calls.phone_number.delete: deletes an imported number. A default from-number (the account's, or a carrier
 * connection's) is refused with 409 DEFAULT_FROM_NUMBER. A number assigned to a carrier application is detached
 * from it first, best effort: a carrier that fails does not keep the number from being deleted here.
 */
@Injectable()
export class DeletePhoneNumber {
  private readonly logger = new Logger(DeletePhoneNumber.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    @Inject(NUMBER_DETACHERS) private readonly detachers: NumberDetachers,
  ) {}

  async execute(partnerId: string, id: string): Promise<PhoneNumberDeletedDto> {
    const number = await findOwnPhoneNumber(this.dataSource, partnerId, id);
    await this.assertNotDefault(number);
    const detached = number.applicationId ? await this.detach(number) : null;
    await this.dataSource.transaction(async (em) => {
      const locked = await em.findOne(PhoneNumber, {
        where: { id, partnerId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!locked) throw AppError.notFound('Phone number');
      await this.assertNotDefault(locked, em);
      await em.delete(PhoneNumber, { id, partnerId });
      await this.outbox.record(em, DomainEvents.phoneNumberDeleted, partnerId, { id, number: locked.number });
    });
    return { id, deleted: true, detached, message: 'Phone number deleted' };
  }

  private async assertNotDefault(
    number: PhoneNumber,
    em: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    const fromNumberOf = await em.findOne(ConnectionCredentials, {
      where: { partnerId: number.partnerId, connectionId: number.connectionId, fromNumber: number.number },
    });
    if (number.isDefault || fromNumberOf) {
      throw new AppError(
        ErrorCode.DEFAULT_FROM_NUMBER,
        `${number.number} is a default from-number and cannot be deleted; set another from_number first`,
      );
    }
  }

  private async detach(number: PhoneNumber): Promise<boolean> {
    const detacher = this.detachers.detacherOf(number.provider);
    if (!detacher || !number.applicationId) return false;
    try {
      await detacher.detachNumber(number.connectionId, number.number, number.applicationId);
      return true;
    } catch (err) {
      this.logger.warn(`detaching ${number.id} from application failed: ${(err as Error).message}`);
      return false;
    }
  }
}
