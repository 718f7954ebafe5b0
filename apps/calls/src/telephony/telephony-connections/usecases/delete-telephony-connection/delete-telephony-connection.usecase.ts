import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TelephonyConnectionDeletedDto } from '@vap/api';
import { AppError, DomainEvents, ErrorCode, TelephonyConnectionId } from '@vap/messages';
import { OutboxService } from '@vap/messaging';
import { tableOf } from '@vap/persistence';
import { ConnectionCredentials } from '../../../connections/entities/connection-credentials.entity';
import { ConnectionHealthRow } from '../../../connections/entities/connection-health.entity';
import { PhoneNumber } from '../../../phone-numbers/entities/phone-number.entity';
import { findOwnTelephonyConnection } from '../../telephony-connection-views';

const LIVE_STATUSES = ['pending', 'ringing', 'in_progress'];

/**
 * calls.telephony_connection.delete: deletes a carrier connection: 409 while a call on it is live or while it
 * has numbers besides its from-number (delete those first), and for the sandbox. Its credentials, health and
 * from-number go; the row stays (past calls name it) marked deleted, and a PUT of its carrier brings it back.
 */
@Injectable()
export class DeleteTelephonyConnection {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
  ) {}

  async execute(partnerId: string, id: string): Promise<TelephonyConnectionDeletedDto> {
    return this.dataSource.transaction(async (em) => {
      const connection = await findOwnTelephonyConnection(em, partnerId, id, true);
      if (connection.provider === 'sandbox')
        throw AppError.conflict('The sandbox connection is built in and cannot be deleted');
      const [{ live }] = (await em.query(
        `SELECT count(*)::int AS live FROM ${tableOf(em, 'calls')}
          WHERE partner_id = $1 AND connection_id = $2 AND status = ANY($3)`,
        [partnerId, connection.id, LIVE_STATUSES],
      )) as { live: number }[];
      if (live > 0) {
        throw AppError.conflict(`${live} live call(s) use this connection; delete it once they have ended`);
      }
      const creds = await em.findOne(ConnectionCredentials, { where: { connectionId: connection.id } });
      const numbers = await em.find(PhoneNumber, {
        where: { partnerId, connectionId: connection.id },
        order: { createdAt: 'ASC', id: 'ASC' },
        lock: { mode: 'pessimistic_write' },
      });
      const others = numbers.filter((n) => n.number !== creds?.fromNumber);
      if (others.length > 0) {
        const named = others.slice(0, 5).map((n) => n.number);
        throw AppError.conflict(
          `This connection still has ${others.length} number(s) (${named.join(', ')}${others.length > 5 ? ', …' : ''}): ` +
            'delete them first (DELETE /phone-numbers/{id})',
        );
      }
      if (numbers.some((n) => n.isDefault)) {
        throw new AppError(
          ErrorCode.DEFAULT_FROM_NUMBER,
          'The account’s default from-number is on this connection and cannot be deleted',
        );
      }
      for (const n of numbers) {
        await em.delete(PhoneNumber, { id: n.id, partnerId });
        await this.outbox.record(em, DomainEvents.phoneNumberDeleted, partnerId, {
          id: n.id,
          number: n.number,
        });
      }
      await em.delete(ConnectionCredentials, { connectionId: connection.id });
      await em.delete(ConnectionHealthRow, { connectionId: connection.id });
      connection.status = 'disabled';
      connection.deletedAt = new Date();
      await em.save(connection);
      return {
        id: TelephonyConnectionId.format(connection.id),
        deleted: true,
        numbers_deleted: numbers.map((n) => n.number),
        message: 'Telephony connection deleted',
      };
    });
  }
}
