// calls.voice.warm_transfer as the voice service sends it (the agent's warm transfer) to the running calls module:
// the transfer is recorded as under way with its consult id and briefing, and the human's leg is dialled at the
// carrier (the fake sandbox carrier) with the agent's ring timeout. A second transfer while one is under way, an
// ended call, a cold-transfer agent, another number and a missing briefing start nothing.
import { DataSource } from 'typeorm';
import { ErrorCode } from '@vap/messages';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import { useCallsOnSandbox, storedCall } from '../../../testing/sandbox-calls';
import { saveWarmTransferCall, TRANSFER_HUMAN } from '../../../testing/warm-transfer-calls';

describe('warm transfer', () => {
  let dataSource: DataSource;
  const carrier = new FakeSandboxCarrier();

  const calls = useCallsOnSandbox(carrier);

  beforeAll(() => {
    dataSource = calls.get(DataSource);
  });

  const warm = (callId: string, fields: { to?: string; briefing?: string } = {}) =>
    calls.send('calls.voice.warm_transfer', null, {
      callId,
      to: TRANSFER_HUMAN,
      reason: 'billing_question',
      briefing: 'Asha asks about a double charge.',
      ...fields,
    });

  /** The human legs the carrier was asked to place to the transfer number. */
  const legsPlaced = (from: string) =>
    carrier.requests.filter(
      (r) => r.path === '/Calls.json' && r.form.get('To') === TRANSFER_HUMAN && r.form.get('From') === from,
    );

  it('records the transfer under way and dials the human; a second one while it is under way starts nothing', async () => {
    const call = await saveWarmTransferCall(dataSource, { fromNumber: '+15550001111' });

    expect(await warm(call.id)).toEqual({ started: true });
    expect(await warm(call.id)).toEqual({ started: false });

    const placed = legsPlaced('+15550001111');
    expect(placed).toHaveLength(1);
    expect(placed[0].form.get('Timeout')).toBe('25');
    expect(placed[0].form.get('Url')).toContain(call.id);
    const { call: stored } = await storedCall(dataSource, call.id);
    expect(stored.transferConsultId).toEqual(expect.any(String));
    expect(stored.transferBriefing).toBe('Asha asks about a double charge.');
    expect(stored.transfer).toMatchObject({
      transfer_type: 'warm',
      to_number: TRANSFER_HUMAN,
      reason: 'billing_question',
      outcome: null,
      legs: [
        { role: 'caller', status: 'answered' },
        { role: 'human', carrier_call_id: placed[0].sid, status: 'ringing' },
      ],
    });
  });

  it('starts nothing for an ended call', async () => {
    const call = await saveWarmTransferCall(dataSource, { status: 'completed', fromNumber: '+15550002222' });

    expect(await warm(call.id)).toEqual({ started: false });
    expect(legsPlaced('+15550002222')).toEqual([]);
    expect((await storedCall(dataSource, call.id)).call.transfer).toBeNull();
  });

  it('refuses a cold-transfer agent, another number, and a transfer without a briefing', async () => {
    const cold = await saveWarmTransferCall(dataSource, { fromNumber: '+15550003333' }, 'cold');
    const call = await saveWarmTransferCall(dataSource, { fromNumber: '+15550003333' });

    await expect(warm(cold.id)).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
    await expect(warm(call.id, { to: '+14155550999' })).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
    await expect(warm(call.id, { briefing: '  ' })).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
    });
    expect(legsPlaced('+15550003333')).toEqual([]);
  });
});
