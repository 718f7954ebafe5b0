import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, IsNull } from 'typeorm';
import { ImportPhoneNumberDto, PhoneNumberDto } from '@vap/api';
import { AppError, DomainEvents, PhoneNumberId } from '@vap/messages';
import { assertOwnAgent, OutboxService, RpcClient } from '@vap/messaging';
import { isUniqueViolation } from '@vap/persistence';
import { DefaultLineService } from '../../../connections/default-line.service';
import { Connection } from '../../../connections/entities/connection.entity';
import { PhoneNumber } from '../../entities/phone-number.entity';
import { toPhoneNumberDto } from '../../phone-number-dto';

/**
 * calls.phone_number.import: a number the partner has at a carrier, on one of its connections (named, or the
 * only active one of the provider). A number already on the account is 409.
 */
@Injectable()
export class ImportPhoneNumber {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly rpc: RpcClient,
    private readonly lines: DefaultLineService,
  ) {}

  async execute(partnerId: string, input: ImportPhoneNumberDto): Promise<PhoneNumberDto> {
    const connection = await this.connectionFor(partnerId, input);
    if (input.agent_id) await assertOwnAgent(this.rpc, partnerId, input.agent_id);
    try {
      return await this.dataSource.transaction(async (em) => {
        const number = em.create(PhoneNumber, {
          id: PhoneNumberId.format(randomUUID()),
          partnerId,
          number: input.number,
          connectionId: connection.id,
          provider: connection.provider,
          isDefault: false,
          status: connection.status === 'active' ? 'active' : 'inactive',
          label: input.label ?? null,
          agentId: input.agent_id ?? null,
          applicationId: input.application_id ?? null,
        });
        await em.save(number);
        const dto = toPhoneNumberDto(number);
        await this.outbox.record(em, DomainEvents.phoneNumberImported, partnerId, dto);
        return dto;
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw AppError.conflict(`${input.number} is already a phone number of this account`);
      }
      throw err;
    }
  }

  private async connectionFor(partnerId: string, input: ImportPhoneNumberDto): Promise<Connection> {
    const repo = this.dataSource.getRepository(Connection);
    if (input.connection_id) {
      const connection = await repo.findOne({
        where: { id: input.connection_id, partnerId, deletedAt: IsNull() },
      });
      if (!connection) throw AppError.notFound('Connection');
      if (input.provider && input.provider !== connection.provider) {
        throw AppError.validation([
          {
            field: 'provider',
            message: `provider ${input.provider} does not match the connection (${connection.provider})`,
          },
        ]);
      }
      return connection;
    }
    if (input.provider === 'sandbox') await this.lines.ensureSandbox(partnerId);
    const matches = await repo.find({ where: { partnerId, provider: input.provider!, status: 'active' } });
    if (matches.length === 1) return matches[0];
    throw AppError.validation([
      matches.length === 0
        ? {
            field: 'provider',
            message: `the account has no active ${input.provider} connection (see GET /config/telephony)`,
          }
        : {
            field: 'connection_id',
            message: `connection_id is required: the account has several ${input.provider} connections`,
          },
    ]);
  }
}
