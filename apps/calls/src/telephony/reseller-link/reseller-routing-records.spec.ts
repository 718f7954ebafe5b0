import { readCallRoutingRecords } from './reseller-routing-records';

const RECORD = {
  id: 1,
  did_id: 10,
  did_number: '+919876543210',
  for_inbound_call: 1,
  for_outbound_call: 0,
  outbound_websocket_bot_id: 7,
  status: 1,
};

describe('readCallRoutingRecords', () => {
  it('reads { data: [...] } and bare arrays, keeping only the contract fields', () => {
    expect(readCallRoutingRecords({ data: [{ ...RECORD, extra: 'x' }] })).toEqual([RECORD]);
    expect(readCallRoutingRecords([RECORD])).toEqual([RECORD]);
    expect(readCallRoutingRecords({ data: [] })).toEqual([]);
  });

  it('accepts a numeric did_number as its digits', () => {
    expect(readCallRoutingRecords([{ ...RECORD, did_number: 919876543210 }])[0].did_number).toBe(
      '919876543210',
    );
  });

  it.each([
    ['no data', {}],
    ['a non-integer field', { data: [{ ...RECORD, status: '1' }] }],
    ['a missing field', { data: [{ ...RECORD, did_id: undefined }] }],
    ['a non-object record', { data: [1] }],
  ])('refuses %s', (_label, payload) => {
    expect(() => readCallRoutingRecords(payload)).toThrow();
  });
});
