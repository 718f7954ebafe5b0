import { PhoneNumberDto, TelephonyProvider } from '@vap/api';
import { PhoneNumber } from './entities/phone-number.entity';

export function toPhoneNumberDto(n: PhoneNumber): PhoneNumberDto {
  return {
    id: n.id,
    number: n.number,
    provider: n.provider as TelephonyProvider,
    connection_id: n.connectionId,
    label: n.label,
    agent_id: n.agentId,
    application_id: n.applicationId,
    is_default: n.isDefault,
    status: n.status,
    created_at: n.createdAt.toISOString(),
    updated_at: n.updatedAt.toISOString(),
  };
}
