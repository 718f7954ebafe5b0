import { TelephonyConnectionDto, TelephonyProvider } from '@vap/api';
import { ConnectionCredentials } from './entities/connection-credentials.entity';
import { Connection } from './entities/connection.entity';

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
