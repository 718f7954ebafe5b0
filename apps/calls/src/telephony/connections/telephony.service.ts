import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import {
  CarrierACredentialsDto,
  CarrierACredentialsSavedDto,
  CarrierBCredentialsDto,
  CarrierBCredentialsSavedDto,
  CredentialProvider,
  TelephonyConnectionDto,
  TelephonyConnectionListDto,
  TelephonyProvider,
} from '@vap/api';
import { DomainEvents, PhoneNumberId } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { isUniqueViolation } from '@vap/persistence';
import { CallsConfig } from '../../config/calls.config';
import { DefaultLineService } from './default-line.service';
import { Connection } from './entities/connection.entity';
import { PhoneNumber } from '../phone-numbers/entities/phone-number.entity';
import { toPhoneNumberDto } from '../phone-numbers/phone-number-dto';
import { AnyCredentials, CredentialsStore } from './credentials-store.service';
import { ConnectionCredentials } from './entities/connection-credentials.entity';
import { maskIdentifier } from './mask';

/** Where a carrier sends inbound calls of the connection's numbers (the gateway's inbound webhook route). */
export function inboundWebhookUrl(callbackBase: string, c: Connection): string | null {
  return c.provider === 'carrier_a' || c.provider === 'carrier_b'
    ? `${callbackBase}/callbacks/inbound/${c.provider}/${c.id}/voice`
    : null;
}

/**
 * Where a carrier sends SMS received on the connection's numbers (the gateway's inbound message route), under
 * the same callback base as the voice URL; the sandbox delivers its own (POST /sandbox/inbound-messages).
 */
export function inboundSmsUrl(callbackBase: string, c: Connection): string | null {
  return c.provider === 'carrier_a' || c.provider === 'carrier_b'
    ? `${callbackBase}/callbacks/inbound/${c.provider}/${c.id}/sms`
    : null;
}

export function toConnectionDto(
  c: Connection,
  creds: ConnectionCredentials | null,
  defaultNumber: string | null,
  callbackBase: string,
): TelephonyConnectionDto {
  return {
    id: c.id,
    provider: c.provider as TelephonyProvider,
    account_id_masked: creds?.accountIdMasked ?? null,
    from_number: creds?.fromNumber ?? defaultNumber,
    api_base_url: creds?.apiBaseUrl ?? null,
    label: creds?.label ?? null,
    inbound_webhook_url: inboundWebhookUrl(callbackBase, c),
    inbound_sms_url: inboundSmsUrl(callbackBase, c),
    status: c.status,
    created_at: c.createdAt.toISOString(),
    updated_at: (creds && creds.updatedAt > c.updatedAt ? creds.updatedAt : c.updatedAt).toISOString(),
  };
}

/**
 * Carrier credentials of a partner. PUT creates the provider's connection or replaces its credentials in
 * place (the connection id, which calls reference, stays), and makes from_number a number of the account.
 */
@Injectable()
export class TelephonyService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly credentials: CredentialsStore,
    private readonly outbox: OutboxService,
    private readonly lines: DefaultLineService,
    private readonly config: CallsConfig,
  ) {}

  async putCarrierA(partnerId: string, input: CarrierACredentialsDto): Promise<CarrierACredentialsSavedDto> {
    const saved = await this.put(partnerId, 'carrier_a', input.auth_id, input.from_number, {
      auth_id: input.auth_id,
      auth_token: input.auth_token,
    });
    return { auth_id: saved.masked, from_number: input.from_number, message: 'carrier_a credentials saved' };
  }

  async putCarrierB(partnerId: string, input: CarrierBCredentialsDto): Promise<CarrierBCredentialsSavedDto> {
    const saved = await this.put(partnerId, 'carrier_b', input.account_sid, input.from_number, {
      account_sid: input.account_sid,
      auth_token: input.auth_token,
    });
    return {
      account_sid: saved.masked,
      from_number: input.from_number,
      message: 'carrier_b credentials saved',
    };
  }

  async list(partnerId: string): Promise<TelephonyConnectionListDto> {
    // Every account has its sandbox line; listing shows it even before the first call creates it.
    await this.lines.ensureSandbox(partnerId);
    const connections = await this.dataSource
      .getRepository(Connection)
      .find({ where: { partnerId, deletedAt: IsNull() }, order: { createdAt: 'ASC', id: 'ASC' } });
    const creds = await this.dataSource.getRepository(ConnectionCredentials).find({ where: { partnerId } });
    const defaults = await this.dataSource
      .getRepository(PhoneNumber)
      .find({ where: { partnerId, isDefault: true } });
    return {
      connections: connections.map((c) =>
        toConnectionDto(
          c,
          creds.find((x) => x.connectionId === c.id) ?? null,
          defaults.find((n) => n.connectionId === c.id)?.number ?? null,
          this.config.callbackBaseUrl,
        ),
      ),
    };
  }

  private async put(
    partnerId: string,
    provider: CredentialProvider,
    accountId: string,
    fromNumber: string,
    secret: AnyCredentials,
  ): Promise<{ connectionId: string; masked: string }> {
    // Two first PUTs racing both try to insert the connection; the loser retries and updates instead.
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.dataSource.transaction((em) =>
          this.upsert(em, partnerId, provider, accountId, fromNumber, secret),
        );
      } catch (err) {
        if (attempt < 2 && isUniqueViolation(err)) continue;
        throw err;
      }
    }
  }

  private async upsert(
    em: EntityManager,
    partnerId: string,
    provider: CredentialProvider,
    accountId: string,
    fromNumber: string,
    secret: AnyCredentials,
  ): Promise<{ connectionId: string; masked: string }> {
    let connection = await em.findOne(Connection, {
      where: { partnerId, provider },
      lock: { mode: 'pessimistic_write' },
    });
    if (!connection) {
      connection = em.create(Connection, {
        id: randomUUID(),
        partnerId,
        provider,
        name: provider,
        status: 'active',
      });
    }
    // A deleted connection comes back with its id (past calls name it) and the new credentials.
    connection.status = 'active';
    connection.deletedAt = null;
    await em.save(connection);
    const masked = maskIdentifier(accountId);
    await em.upsert(
      ConnectionCredentials,
      {
        connectionId: connection.id,
        partnerId,
        accountIdMasked: masked,
        sealed: this.credentials.seal(connection.id, secret),
        fromNumber,
        apiBaseUrl: null,
        // label is left out: replacing credentials keeps the label set with PATCH /telephony-connections.
      },
      ['connectionId'],
    );
    await this.adoptNumber(em, partnerId, connection, fromNumber);
    await this.outbox.record(em, DomainEvents.telephonyConnectionUpdated, partnerId, {
      connection_id: connection.id,
      provider,
      account_id_masked: masked,
      from_number: fromNumber,
    });
    return { connectionId: connection.id, masked };
  }

  /** The connection's from-number becomes (or stays) a number of the account, on this connection. */
  async adoptNumber(em: EntityManager, partnerId: string, connection: Connection, number: string) {
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
