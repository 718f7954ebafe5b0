import { MessageDto } from '@vap/api';
import { Message } from './entities/message.entity';

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function toMessageDto(m: Message): MessageDto {
  return {
    id: m.id,
    direction: m.direction,
    status: m.status,
    to: m.toNumber,
    from: m.fromNumber,
    body: m.body,
    segments: m.segments,
    carrier: m.provider,
    carrier_message_id: m.carrierMessageId,
    error_code: m.errorCode,
    error_message: m.errorMessage,
    call_id: m.callId,
    agent_id: m.agentId,
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
    sent_at: iso(m.sentAt),
    delivered_at: iso(m.deliveredAt),
  };
}
