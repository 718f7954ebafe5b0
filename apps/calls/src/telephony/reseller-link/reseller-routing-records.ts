import { ResellerCallRoutingRecordDto } from '@vap/api';

const INTEGER_FIELDS = [
  'id',
  'did_id',
  'for_inbound_call',
  'for_outbound_call',
  'outbound_websocket_bot_id',
  'status',
] as const;

/**
 * Reads the reseller API's call-routing answer: `{ "data": [...] }` or a bare array of records. Each record
 * must carry the contract's fields (integers, did_number a string); anything else is a broken upstream.
 */
export function readCallRoutingRecords(payload: unknown): ResellerCallRoutingRecordDto[] {
  const list = Array.isArray(payload) ? payload : (payload as { data?: unknown } | null)?.data;
  if (!Array.isArray(list)) throw new Error('answer has no data array');
  return list.map((item, i) => {
    const r = item as Record<string, unknown> | null;
    if (!r || typeof r !== 'object') throw new Error(`record ${i} is not an object`);
    for (const field of INTEGER_FIELDS) {
      if (!Number.isInteger(r[field])) throw new Error(`record ${i}: ${field} is not an integer`);
    }
    const didNumber = typeof r.did_number === 'number' ? String(r.did_number) : r.did_number;
    if (typeof didNumber !== 'string') throw new Error(`record ${i}: did_number is not a string`);
    return {
      id: r.id as number,
      did_id: r.did_id as number,
      did_number: didNumber,
      for_inbound_call: r.for_inbound_call as number,
      for_outbound_call: r.for_outbound_call as number,
      outbound_websocket_bot_id: r.outbound_websocket_bot_id as number,
      status: r.status as number,
    };
  });
}
