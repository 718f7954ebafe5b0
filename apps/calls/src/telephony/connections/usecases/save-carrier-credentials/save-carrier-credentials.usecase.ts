import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import {
  CarrierACredentialsDto,
  CarrierACredentialsSavedDto,
  CarrierBCredentialsDto,
  CarrierBCredentialsSavedDto,
  CredentialProvider,
} from '@vap/api';
import { DomainEvents } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { isUniqueViolation } from '@vap/persistence';
import { AnyCredentials, CredentialsStore } from '../../credentials-store.service';
import { ConnectionCredentials } from '../../entities/connection-credentials.entity';
import { Connection } from '../../entities/connection.entity';
import { FromNumbers } from '../../from-numbers';
import { maskIdentifier } from '../../mask';

/**
 * calls.telephony.carrier_a_put and carrier_b_put (PUT /config/telephony/<carrier>): creates the provider's
 * connection or replaces its credentials in place (the connection id, which calls reference, stays; a deleted
 * connection comes back), and makes from_number a number of the account. The same write for both carriers.
 */
@Injectable()
export class SaveCarrierCredentials {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly credentials: CredentialsStore,
    private readonly outbox: OutboxService,
    private readonly fromNumbers: FromNumbers,
  ) {}

  execute(
    partnerId: string,
    provider: 'carrier_a',
    input: CarrierACredentialsDto,
  ): Promise<CarrierACredentialsSavedDto>;
  execute(
    partnerId: string,
    provider: 'carrier_b',
    input: CarrierBCredentialsDto,
  ): Promise<CarrierBCredentialsSavedDto>;
  async execute(
    partnerId: string,
    provider: CredentialProvider,
    input: CarrierACredentialsDto | CarrierBCredentialsDto,
  ): Promise<CarrierACredentialsSavedDto | CarrierBCredentialsSavedDto> {
    if (provider === 'carrier_a') {
      const a = input as CarrierACredentialsDto;
      const saved = await this.put(partnerId, 'carrier_a', a.auth_id, a.from_number, {
        auth_id: a.auth_id,
        auth_token: a.auth_token,
      });
      return { auth_id: saved.masked, from_number: a.from_number, message: 'carrier_a credentials saved' };
    }
    const b = input as CarrierBCredentialsDto;
    const saved = await this.put(partnerId, 'carrier_b', b.account_sid, b.from_number, {
      account_sid: b.account_sid,
      auth_token: b.auth_token,
    });
    return {
      account_sid: saved.masked,
      from_number: b.from_number,
      message: 'carrier_b credentials saved',
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
    await this.fromNumbers.adopt(em, partnerId, connection, fromNumber);
    await this.outbox.record(em, DomainEvents.telephonyConnectionUpdated, partnerId, {
      connection_id: connection.id,
      provider,
      account_id_masked: masked,
      from_number: fromNumber,
    });
    return { connectionId: connection.id, masked };
  }
}
