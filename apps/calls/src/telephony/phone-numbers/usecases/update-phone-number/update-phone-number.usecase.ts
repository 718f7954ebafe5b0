import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PhoneNumberDto, UpdatePhoneNumberDto } from '@vap/api';
import { AppError, DomainEvents } from '@vap/messages';
import { assertOwnAgent, OutboxService, RpcClient } from '@vap/messaging';
import { PhoneNumber } from '../../entities/phone-number.entity';
import { toPhoneNumberDto } from '../../phone-number-dto';

/** calls.phone_number.update: a number's label and inbound agent (one of the partner's own agents). */
@Injectable()
export class UpdatePhoneNumber {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly rpc: RpcClient,
  ) {}

  async execute(partnerId: string, id: string, changes: UpdatePhoneNumberDto): Promise<PhoneNumberDto> {
    if (changes.agent_id) await assertOwnAgent(this.rpc, partnerId, changes.agent_id);
    return this.dataSource.transaction(async (em) => {
      const number = await em.findOne(PhoneNumber, {
        where: { id, partnerId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!number) throw AppError.notFound('Phone number');
      if (changes.label !== undefined) number.label = changes.label;
      if (changes.agent_id !== undefined) number.agentId = changes.agent_id;
      await em.save(number);
      const dto = toPhoneNumberDto(number);
      await this.outbox.record(em, DomainEvents.phoneNumberUpdated, partnerId, dto);
      return dto;
    });
  }
}
