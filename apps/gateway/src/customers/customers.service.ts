import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  CreateCustomerDto,
  CustomerDto,
  CustomerListDto,
  ListCustomersQueryDto,
  UpdateCustomerDto,
} from '@vap/api';
import { AppError, CustomerId, DomainEvents, ErrorCode } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { keysetPage, isUniqueViolation, tableOf } from '@vap/persistence';
import { Customer } from './entities/customer.entity';

export function toCustomerDto(c: Customer): CustomerDto {
  return {
    id: c.id,
    external_id: c.externalId,
    name: c.name,
    email: c.email,
    metadata: c.metadata,
    status: c.status,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

interface CustomerRow {
  id: string;
  external_id: string;
  name: string;
  email: string | null;
  metadata: CustomerDto['metadata'];
  status: CustomerDto['status'];
  created_at: Date;
  updated_at: Date;
}

/** Sub-tenants of a partner. Every query is scoped by partner id; another partner's customer is absent. */
@Injectable()
export class CustomersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
  ) {}

  async create(partnerId: string, input: CreateCustomerDto): Promise<CustomerDto> {
    try {
      return await this.dataSource.transaction(async (em) => {
        const customer = em.create(Customer, {
          id: CustomerId.format(randomUUID()),
          partnerId,
          externalId: input.external_id,
          name: input.name,
          email: input.email ?? null,
          metadata: input.metadata ?? null,
          status: 'ACTIVE',
        });
        await em.save(customer);
        const dto = toCustomerDto(customer);
        await this.outbox.record(em, DomainEvents.customerCreated, partnerId, dto);
        return dto;
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw AppError.conflict(
          `A customer with external_id "${input.external_id}" already exists on this account`,
        );
      }
      throw err;
    }
  }

  async get(partnerId: string, id: string): Promise<CustomerDto> {
    // A hot read: plain SQL costs a fraction of the ORM's query building and hydration.
    const [row] = (await this.dataSource.query(
      `SELECT id, external_id, name, email, metadata, status, created_at, updated_at
         FROM ${tableOf(this.dataSource, 'customers')} WHERE id = $1 AND partner_id = $2`,
      [id, partnerId],
    )) as CustomerRow[];
    if (!row) throw AppError.notFound('Customer');
    return {
      id: row.id,
      external_id: row.external_id,
      name: row.name,
      email: row.email,
      metadata: row.metadata,
      status: row.status,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    };
  }

  /** A customer id a request names (POST /calls/start, browser sessions) must be one of the account's: else 404. */
  async assertExists(partnerId: string, id: string | undefined): Promise<void> {
    if (id === undefined) return;
    const [row] = (await this.dataSource.query(
      `SELECT 1 FROM ${tableOf(this.dataSource, 'customers')} WHERE id = $1 AND partner_id = $2`,
      [id, partnerId],
    )) as unknown[];
    if (!row) throw AppError.notFound('Customer');
  }

  /**
   * A customer a request newly names (POST /calls/start, POST /browser-sessions, a connect link) must be one of
   * the account's (else 404) and not archived: 409 INVALID_STATE. Not 404: GET still shows an archived
   * customer and PATCH status ACTIVE restores it, so it exists; it only takes no new work. What it already has
   * (calls, connections) is left as it is.
   */
  async assertActive(partnerId: string, id: string | undefined): Promise<void> {
    if (id === undefined) return;
    const [row] = (await this.dataSource.query(
      `SELECT status FROM ${tableOf(this.dataSource, 'customers')} WHERE id = $1 AND partner_id = $2`,
      [id, partnerId],
    )) as { status: CustomerDto['status'] }[];
    if (!row) throw AppError.notFound('Customer');
    if (row.status === 'ARCHIVED') {
      throw new AppError(
        ErrorCode.INVALID_STATE,
        `Customer ${id} is archived: restore it (PATCH /customers/{id} with status ACTIVE) to use it`,
      );
    }
  }

  async list(partnerId: string, query: ListCustomersQueryDto): Promise<CustomerListDto> {
    const qb = this.dataSource
      .getRepository(Customer)
      .createQueryBuilder('c')
      .where('c.partner_id = :partnerId', { partnerId });
    if (query.external_id !== undefined)
      qb.andWhere('c.external_id = :externalId', { externalId: query.external_id });
    if (query.status !== undefined) qb.andWhere('c.status = :status', { status: query.status });
    const page = await keysetPage(qb, query, { idKind: 'prefixed' });
    return { customers: page.rows.map(toCustomerDto), next_cursor: page.nextCursor };
  }

  async update(partnerId: string, id: string, input: UpdateCustomerDto): Promise<CustomerDto> {
    return this.dataSource.transaction(async (em) => {
      const customer = await em.findOne(Customer, {
        where: { id, partnerId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!customer) throw AppError.notFound('Customer');
      if (input.name !== undefined) customer.name = input.name;
      if (input.email !== undefined) customer.email = input.email;
      if (input.metadata !== undefined) customer.metadata = input.metadata;
      if (input.status !== undefined) customer.status = input.status;
      await em.save(customer);
      const dto = toCustomerDto(customer);
      await this.outbox.record(em, DomainEvents.customerUpdated, partnerId, dto);
      return dto;
    });
  }
}
