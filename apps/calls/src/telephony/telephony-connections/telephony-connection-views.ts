import { Injectable } from '@nestjs/common';
import { EntityManager, In, IsNull } from 'typeorm';
import {
  CARRIER_CONNECTION_PROVIDERS,
  CarrierConnectionProvider,
  CONNECTION_NUMBERS_SHOWN,
  ConnectionFailureReason,
  TelephonyConnectionResourceDto,
} from '@vap/api';
import { AppError, TelephonyConnectionId } from '@vap/messages';
import { CallsConfig } from '../../config/calls.config';
import { sandboxNumberOf } from '../connections/default-line.service';
import { ConnectionCredentials } from '../connections/entities/connection-credentials.entity';
import { ConnectionHealthRow } from '../connections/entities/connection-health.entity';
import { Connection } from '../connections/entities/connection.entity';
import { inboundSmsUrl, inboundWebhookUrl } from '../connections/connection-dto';
import { PhoneNumber } from '../phone-numbers/entities/phone-number.entity';

/** The providers whose connections are telephony connections (a reseller-link data link is not one). */
export const CONNECTION_PROVIDERS = CARRIER_CONNECTION_PROVIDERS as readonly string[];

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The connection by its tcn_ id, scoped to the partner and locked for update when asked; another partner's,
 * a deleted one and a reseller-link link are 404.
 */
export async function findOwnTelephonyConnection(
  em: EntityManager,
  partnerId: string,
  id: string,
  lock = false,
): Promise<Connection> {
  const uuid = TelephonyConnectionId.parse(id);
  const connection = uuid
    ? await em.findOne(Connection, {
        where: { id: uuid, partnerId, provider: In([...CONNECTION_PROVIDERS]), deletedAt: IsNull() },
        ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
      })
    : null;
  if (!connection) throw AppError.notFound('Telephony connection');
  return connection;
}

/**
 * The account's carrier connections as one resource (`tcn_<connection uuid>`): the same rows PUT
 * /config/telephony/<carrier> creates, with their numbers and health.
 */
@Injectable()
export class TelephonyConnectionViews {
  constructor(private readonly config: CallsConfig) {}

  async view(em: EntityManager, c: Connection): Promise<TelephonyConnectionResourceDto> {
    const creds = await em.findOne(ConnectionCredentials, { where: { connectionId: c.id } });
    const health = await em.findOne(ConnectionHealthRow, { where: { connectionId: c.id } });
    const numbers = await em.find(PhoneNumber, {
      where: { partnerId: c.partnerId, connectionId: c.id },
      order: { createdAt: 'ASC', id: 'ASC' },
      take: CONNECTION_NUMBERS_SHOWN,
    });
    const total =
      numbers.length < CONNECTION_NUMBERS_SHOWN
        ? numbers.length
        : await em.count(PhoneNumber, { where: { partnerId: c.partnerId, connectionId: c.id } });
    const fromNumber = c.provider === 'sandbox' ? sandboxNumberOf(c.partnerId) : (creds?.fromNumber ?? null);
    return {
      id: TelephonyConnectionId.format(c.id),
      connection_id: c.id,
      provider: c.provider as CarrierConnectionProvider,
      label: creds?.label ?? null,
      account_id_masked: creds?.accountIdMasked ?? null,
      from_number: fromNumber,
      inbound_webhook_url: inboundWebhookUrl(this.config.callbackBaseUrl, c),
      inbound_sms_url: inboundSmsUrl(this.config.callbackBaseUrl, c),
      status: c.status,
      numbers: numbers.map((n) => ({
        id: n.id,
        number: n.number,
        status: n.status,
        label: n.label,
        is_from_number: n.number === fromNumber,
      })),
      numbers_total: total,
      health: {
        last_success:
          health?.lastSuccessAt && health.lastSuccessOperation
            ? { at: iso(health.lastSuccessAt)!, operation: health.lastSuccessOperation }
            : null,
        last_failure:
          health?.lastFailureAt && health.lastFailureOperation
            ? {
                at: iso(health.lastFailureAt)!,
                operation: health.lastFailureOperation,
                status: health.lastFailureStatus,
                reason: health.lastFailureReason as ConnectionFailureReason,
              }
            : null,
        last_callback: health?.lastCallbackAt ? { at: iso(health.lastCallbackAt)! } : null,
      },
      created_at: c.createdAt.toISOString(),
      updated_at: (creds && creds.updatedAt > c.updatedAt ? creds.updatedAt : c.updatedAt).toISOString(),
    };
  }
}
