import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { DomainEvents, PhoneNumberId } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { PhoneNumber } from '../phone-numbers/entities/phone-number.entity';
import { toPhoneNumberDto } from '../phone-numbers/phone-number-dto';
import { Connection } from './entities/connection.entity';

/**
 * A carrier connection's from-number is a number of the account on that connection: saving credentials and
 * changing a connection's from-number both make it one.
 */
@Injectable()
export class FromNumbers {
  constructor(private readonly outbox: OutboxService) {}

  /** The from-number becomes (or stays) a number of the account, on this connection; a new one is published. */
  async adopt(em: EntityManager, partnerId: string, connection: Connection, number: string): Promise<void> {
    const existing = await em.findOne(PhoneNumber, {
      where: { partnerId, number },
      lock: { mode: 'pessimistic_write' },
    });
    if (existing) {
      if (existing.connectionId === connection.id && existing.status === 'active') return;
      existing.connectionId = connection.id;
      existing.provider = connection.provider;
      existing.status = 'active';
      await em.save(existing);
      return;
    }
    const created = em.create(PhoneNumber, {
      id: PhoneNumberId.format(randomUUID()),
      partnerId,
      number,
      connectionId: connection.id,
      provider: connection.provider,
      isDefault: false,
      status: 'active',
      label: `${connection.provider} from-number`,
      agentId: null,
      applicationId: null,
    });
    await em.save(created);
    await this.outbox.record(em, DomainEvents.phoneNumberImported, partnerId, toPhoneNumberDto(created));
  }
}
