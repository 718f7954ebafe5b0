// A partner's number on its sandbox line, as the inbound-call specs route calls to it.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PhoneNumberId } from '@vap/messages';
import { PhoneNumber } from '../telephony/phone-numbers/entities/phone-number.entity';
import { Connection } from '../telephony/connections/entities/connection.entity';
import { saveConnection } from './call-rows';

/** The partner's sandbox connection (made if missing) and a number on it answered by `agentId` (or none). */
export async function saveInboundNumber(
  dataSource: DataSource,
  partnerId: string,
  number: string,
  agentId: string | null,
): Promise<{ connectionId: string; phoneNumberId: string }> {
  const existing = await dataSource.getRepository(Connection).findOneBy({ partnerId, provider: 'sandbox' });
  const connectionId = existing?.id ?? (await saveConnection(dataSource, partnerId, 'sandbox'));
  const phoneNumberId = PhoneNumberId.format(randomUUID());
  await dataSource.getRepository(PhoneNumber).insert({
    id: phoneNumberId,
    partnerId,
    number,
    connectionId,
    provider: 'sandbox',
    isDefault: false,
    status: 'active',
    label: null,
    agentId,
  });
  return { connectionId, phoneNumberId };
}
