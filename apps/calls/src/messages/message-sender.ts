import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { MESSAGE_CARRIERS, MessageCarrier } from '@vap/api';
import { AppError, ErrorCode } from '@vap/messages';
import { DefaultLineService } from '../telephony/connections/default-line.service';
import { ConnectionCredentials } from '../telephony/connections/entities/connection-credentials.entity';
import { Connection } from '../telephony/connections/entities/connection.entity';
import { PhoneNumber } from '../telephony/phone-numbers/entities/phone-number.entity';

/** The number and connection a message goes out on. */
export interface MessageSender {
  from: string;
  connectionId: string;
  provider: MessageCarrier;
}

const isMessageCarrier = (provider: string): provider is MessageCarrier =>
  (MESSAGE_CARRIERS as readonly string[]).includes(provider);

/**
 * The sender of a message: `from`, one of the account's numbers (its connection; with `carrier`, it must be on
 * that carrier); else `carrier`'s connection and its from_number; else the account's default number (the sandbox
 * one unless another was made default).
 */
@Injectable()
export class MessageSenderResolver {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lines: DefaultLineService,
  ) {}

  async resolve(
    partnerId: string,
    input: { from?: string; carrier?: MessageCarrier },
  ): Promise<MessageSender> {
    // The sandbox line exists before any lookup, so its number can be named too.
    const fallback = await this.lines.defaultNumber(partnerId);
    if (input.from !== undefined) return this.byNumber(partnerId, input.from, input.carrier);
    if (input.carrier !== undefined) return this.byCarrier(partnerId, input.carrier);
    return this.senderOf(fallback, 'from');
  }

  private async byNumber(partnerId: string, from: string, carrier?: MessageCarrier): Promise<MessageSender> {
    const number = await this.dataSource
      .getRepository(PhoneNumber)
      .findOne({ where: { partnerId, number: from } });
    if (!number) {
      throw AppError.validation([
        { field: 'from', message: `${from} is not a phone number of this account` },
      ]);
    }
    if (carrier !== undefined && number.provider !== carrier) {
      throw AppError.validation([
        {
          field: 'from',
          message: `${from} is a number of the ${number.provider} connection, not ${carrier}`,
        },
      ]);
    }
    return this.senderOf(number, 'from');
  }

  private async byCarrier(partnerId: string, carrier: MessageCarrier): Promise<MessageSender> {
    const connection = await this.dataSource
      .getRepository(Connection)
      .findOne({ where: { partnerId, provider: carrier } });
    if (!connection) {
      throw AppError.validation([
        {
          field: 'carrier',
          message: `this account has no ${carrier} connection (PUT /config/telephony/${carrier})`,
        },
      ]);
    }
    const creds = await this.dataSource
      .getRepository(ConnectionCredentials)
      .findOne({ where: { connectionId: connection.id } });
    const numbers = this.dataSource.getRepository(PhoneNumber);
    const number =
      (creds?.fromNumber
        ? await numbers.findOne({
            where: { partnerId, number: creds.fromNumber, connectionId: connection.id },
          })
        : null) ??
      (await numbers.findOne({
        where: { partnerId, connectionId: connection.id, status: 'active' },
        order: { isDefault: 'DESC', createdAt: 'ASC' },
      }));
    if (!number) {
      throw AppError.validation([
        { field: 'carrier', message: `the ${carrier} connection has no number to send from; give from` },
      ]);
    }
    return this.senderOf(number, 'carrier');
  }

  private async senderOf(number: PhoneNumber, field: string): Promise<MessageSender> {
    if (number.status !== 'active') {
      throw new AppError(ErrorCode.CALLER_ID_INACTIVE, `${number.number} is not active`);
    }
    const connection = await this.dataSource.getRepository(Connection).findOneBy({ id: number.connectionId });
    if (!connection || connection.status !== 'active' || !isMessageCarrier(connection.provider)) {
      throw AppError.validation([
        { field, message: `${number.number} is not on a carrier connection that sends messages` },
      ]);
    }
    return { from: number.number, connectionId: connection.id, provider: connection.provider };
  }
}
