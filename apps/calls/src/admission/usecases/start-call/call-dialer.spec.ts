import { DataSource } from 'typeorm';
import { AppError, ErrorCode } from '@vap/messages';
import { CallbackUrls } from '../../../carriers/callback-urls';
import { CarrierAdapter, PlacementUnknown } from '../../../carriers/carrier-adapter';
import { CarrierRegistry } from '../../../carriers/carrier-registry';
import { CallsConfig } from '../../../config/calls.config';
import { CallProgressService } from '../../../progress/call-progress.service';
import { CallDialer } from './call-dialer';
import { Call } from '../../../calls/entities/call.entity';

const call = {
  id: 'c-1',
  partnerId: 'p-1',
  agentId: 'a-1',
  fromNumber: '+15550000001',
  toNumber: '+15550000002',
  agentSettings: { introMessage: 'Hi' },
  variables: { name: 'Ada' },
  provider: 'carrier_b',
  connectionId: 'conn-1',
} as unknown as Call;

function setup(
  placeCall: CarrierAdapter['placeCall'],
  options: { saveFails?: boolean; late?: boolean } = {},
) {
  const queries: unknown[][] = [];
  const applied: unknown[] = [];
  const adapter = {
    provider: 'carrier_b',
    placeCall: jest.fn(placeCall),
  } as unknown as CarrierAdapter;
  const dialer = new CallDialer(
    // A data source on the calls schema that records its queries instead of sending them.
    Object.assign(Object.create(DataSource.prototype) as DataSource, {
      options: { schema: 'calls' },
      getMetadata: () => ({ schema: 'calls', tableName: 'calls' }),
      query: async (...args: unknown[]) => {
        const sql = String(args[0]);
        // The claim of the dial answers its row, unless the call waited past its grace.
        if (sql.includes('SET dial_started_at'))
          return options.late ? [[], 0] : [[{ dial_started_at: new Date() }], 1];
        queries.push(args);
        if (options.saveFails) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        return [[], 1];
      },
    }),
    { get: () => adapter } as unknown as CarrierRegistry,
    {
      forCall: (provider: string, id: string) => (event: string) => `https://cb/${provider}/${id}/${event}`,
    } as CallbackUrls,
    { apply: async (_ref: unknown, event: unknown) => applied.push(event) } as unknown as CallProgressService,
    { PLACEMENT_GRACE_SECS: 10 } as CallsConfig,
  );
  return { dialer, adapter, queries, applied };
}

describe('CallDialer', () => {
  it('places the call with its callback URLs and stores the carrier id', async () => {
    const { dialer, adapter, queries, applied } = setup(async () => ({ providerCallId: 'CA9' }));
    await dialer.dial(dialer.carrierFor('carrier_b'), call);
    const [outbound, connection] = (adapter.placeCall as jest.Mock).mock.calls[0];
    expect(outbound).toMatchObject({ callId: 'c-1', toNumber: '+15550000002', variables: { name: 'Ada' } });
    expect(outbound.callbackUrl('answer')).toBe('https://cb/carrier_b/c-1/answer');
    expect(connection).toEqual({ id: 'conn-1', partnerId: 'p-1', provider: 'carrier_b' });
    expect(queries).toEqual([
      [expect.stringContaining('UPDATE "calls"."calls" SET provider_call_id = $2'), ['c-1', 'CA9']],
    ]);
    expect(applied).toEqual([]);
  });

  it('fails the call through progress and answers 502 when the carrier refuses', async () => {
    const { dialer, adapter, applied } = setup(async () => {
      throw AppError.downstream('carrier_b refused the request: HTTP 403');
    });
    await expect(dialer.dial(adapter, call)).rejects.toMatchObject({
      code: ErrorCode.INTERNAL_ERROR,
      message: 'The carrier could not place call c-1; retry',
    });
    expect(applied).toEqual([
      expect.objectContaining({ dedupeKey: 'place-call-failed', providerStatus: 'failed', ended: true }),
    ]);
  });

  it('keeps a client error as it is, after failing the call', async () => {
    const refusal = AppError.validation([{ field: 'to', message: 'bad' }]);
    const { dialer, adapter, applied } = setup(async () => {
      throw refusal;
    });
    await expect(dialer.dial(adapter, call)).rejects.toBe(refusal);
    expect(applied).toHaveLength(1);
  });

  it('never fails a call the carrier placed when its id cannot be saved: recovery finds it again', async () => {
    const { dialer, adapter, applied } = setup(async () => ({ providerCallId: 'CA9' }), { saveFails: true });
    await expect(dialer.dial(adapter, call)).rejects.toThrow('ECONNREFUSED');
    expect(applied).toEqual([]);
  });

  it('leaves pending, unfailed, a call the carrier may have placed (no answer once the request went out)', async () => {
    const { dialer, adapter, queries, applied } = setup(async () => {
      throw new PlacementUnknown('carrier_b', 'carrier_b did not answer: Headers Timeout Error');
    });
    await expect(dialer.dial(adapter, call)).resolves.toBeUndefined();
    // Neither failed through progress nor given an id: the placement recovery looks it up at the carrier.
    expect(applied).toEqual([]);
    expect(queries).toEqual([]);
  });

  it('does not dial a call past its grace (the recovery ends it) and answers 502', async () => {
    const { dialer, adapter, applied } = setup(async () => ({ providerCallId: 'CA9' }), { late: true });
    await expect(dialer.dial(adapter, call)).rejects.toMatchObject({ status: 502 });
    expect(adapter.placeCall).not.toHaveBeenCalled();
    expect(applied).toEqual([]);
  });
});
