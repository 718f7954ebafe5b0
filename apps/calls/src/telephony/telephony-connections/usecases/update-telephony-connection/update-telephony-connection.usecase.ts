import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TelephonyConnectionResourceDto, UpdateTelephonyConnectionDto } from '@vap/api';
import { AppError, DomainEvents } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { AnyCredentials, CredentialsStore } from '../../../connections/credentials-store.service';
import { ConnectionCredentials } from '../../../connections/entities/connection-credentials.entity';
import { FromNumbers } from '../../../connections/from-numbers';
import { PhoneNumber } from '../../../phone-numbers/entities/phone-number.entity';
import { findOwnTelephonyConnection, TelephonyConnectionViews } from '../../telephony-connection-views';

/**
 * calls.telephony_connection.update: rotates the auth token (the account id stays), changes the from-number (a
 * number of this connection, or one the account does not have yet, which becomes one; another connection's is
 * 409) or the label. The sandbox has none of them (409).
 */
@Injectable()
export class UpdateTelephonyConnection {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly credentials: CredentialsStore,
    private readonly fromNumbers: FromNumbers,
    private readonly views: TelephonyConnectionViews,
  ) {}

  async execute(
    partnerId: string,
    id: string,
    changes: UpdateTelephonyConnectionDto,
  ): Promise<TelephonyConnectionResourceDto> {
    const given = (['auth_token', 'from_number', 'label'] as const).filter((k) => changes[k] !== undefined);
    if (given.length === 0) {
      throw AppError.validation([
        { field: 'body', message: 'give at least one of auth_token, from_number, label' },
      ]);
    }
    return this.dataSource.transaction(async (em) => {
      const connection = await findOwnTelephonyConnection(em, partnerId, id, true);
      if (connection.provider === 'sandbox')
        throw AppError.conflict(
          'The sandbox connection is built in: it has no credentials or label to change',
        );
      const creds = await em.findOne(ConnectionCredentials, { where: { connectionId: connection.id } });
      if (!creds) throw AppError.notFound('Telephony connection');
      if (changes.auth_token !== undefined) {
        const secret = await this.credentials.open<AnyCredentials>(connection.id, em);
        creds.sealed = this.credentials.seal(connection.id, { ...secret, auth_token: changes.auth_token });
      }
      if (changes.from_number !== undefined && changes.from_number !== creds.fromNumber) {
        const existing = await em.findOne(PhoneNumber, {
          where: { partnerId, number: changes.from_number },
          lock: { mode: 'pessimistic_write' },
        });
        if (existing && existing.connectionId !== connection.id) {
          throw AppError.conflict(
            `${changes.from_number} is a number of another connection of the account; use one of this connection`,
          );
        }
        await this.fromNumbers.adopt(em, partnerId, connection, changes.from_number);
        creds.fromNumber = changes.from_number;
      }
      if (changes.label !== undefined) creds.label = changes.label;
      await em.save(creds);
      if (changes.auth_token !== undefined || changes.from_number !== undefined) {
        await this.outbox.record(em, DomainEvents.telephonyConnectionUpdated, partnerId, {
          connection_id: connection.id,
          provider: connection.provider as 'carrier_a' | 'carrier_b',
          account_id_masked: creds.accountIdMasked,
          from_number: creds.fromNumber ?? '',
        });
      }
      return this.views.view(em, connection);
    });
  }
}
