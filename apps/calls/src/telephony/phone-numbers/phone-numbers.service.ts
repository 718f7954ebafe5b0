import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import {
  ImportPhoneNumberDto,
  ListPhoneNumbersQueryDto,
  PhoneNumberDeletedDto,
  PhoneNumberDto,
  PhoneNumberListDto,
  UpdatePhoneNumberDto,
} from '@vap/api';
import { AppError, DomainEvents, ErrorCode, PhoneNumberId } from '@vap/messages';
import { assertOwnAgent, OutboxService, RpcClient } from '@vap/messaging';
import { isUniqueViolation, keysetPage } from '@vap/persistence';
import { DefaultLineService } from '../connections/default-line.service';
import { Connection } from '../connections/entities/connection.entity';
import { PhoneNumber } from './entities/phone-number.entity';
import { ConnectionCredentials } from '../connections/entities/connection-credentials.entity';
import { NUMBER_DETACHERS, NumberDetachers } from './number-detachers';
import { toPhoneNumberDto } from './phone-number-dto';

/** Imported numbers of a partner. Every query is scoped by partner; another partner's number is absent. */
@Injectable()
export class PhoneNumbersService {
  private readonly logger = new Logger(PhoneNumbersService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly rpc: RpcClient,
    @Inject(NUMBER_DETACHERS) private readonly detachers: NumberDetachers,
    private readonly lines: DefaultLineService,
  ) {}

  async import(partnerId: string, input: ImportPhoneNumberDto): Promise<PhoneNumberDto> {
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

  async get(partnerId: string, id: string): Promise<PhoneNumberDto> {
    return toPhoneNumberDto(await this.find(partnerId, id));
  }

  async list(partnerId: string, query: ListPhoneNumbersQueryDto): Promise<PhoneNumberListDto> {
    // The default from-number exists from the start for the partner, not only after a first call.
    await this.lines.ensureSandbox(partnerId);
    const qb = this.dataSource
      .getRepository(PhoneNumber)
      .createQueryBuilder('n')
      .where('n.partner_id = :partnerId', { partnerId });
    if (query.provider) qb.andWhere('n.provider = :provider', { provider: query.provider });
    const page = await keysetPage(qb, query, { idKind: 'prefixed' });
    return { phone_numbers: page.rows.map(toPhoneNumberDto), next_cursor: page.nextCursor };
  }

  async update(partnerId: string, id: string, changes: UpdatePhoneNumberDto): Promise<PhoneNumberDto> {
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

  /**
   * Deletes an imported number. A default from-number (the account's, or a carrier connection's) is
   * refused with 409 DEFAULT_FROM_NUMBER. A number assigned to a carrier application is detached from it
   * first, best effort: a carrier that fails does not keep the number from being deleted here.
   */
  async remove(partnerId: string, id: string): Promise<PhoneNumberDeletedDto> {
    const number = await this.find(partnerId, id);
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

  private async find(partnerId: string, id: string): Promise<PhoneNumber> {
    const number = await this.dataSource.getRepository(PhoneNumber).findOne({ where: { id, partnerId } });
    if (!number) throw AppError.notFound('Phone number');
    return number;
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
