// calls.voice.transfer as the voice service sends it (the agent's transfer_call tool) to the running calls module:
// the carrier (the fake sandbox carrier) is asked to dial the agent's transfer number on the caller's leg, the
// transfer is recorded and call.transferred published. Another number, a listed number, an ended call and a
// carrier that no longer knows the call are refused or answered false, and nothing is recorded.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CallTransferredData, DomainEvents, ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { Call } from '../../../calls/entities/call.entity';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import {
  saveAgentSettings,
  saveSandboxCall,
  startCallsOnSandbox,
  storedCall,
} from '../../../testing/sandbox-calls';

const HUMAN = '+14155550123';

describe('transfer a call', () => {
  let dataSource: DataSource;
  const carrier = new FakeSandboxCarrier();

  const calls = useIntegrationApp(() => startCallsOnSandbox(carrier), { afterStop: () => carrier.close() });

  beforeAll(() => {
    dataSource = calls.get(DataSource);
  });

  /** A live sandbox call whose agent transfers to HUMAN. */
  async function transferableCall(fields: Partial<Call> = {}): Promise<Call> {
    const call = await saveSandboxCall(dataSource, fields);
    call.agentSettings = { ...call.agentSettings, transferEnabled: true, transferNumber: HUMAN };
    await saveAgentSettings(dataSource, call.id, call.agentSettings);
    return call;
  }

  const transfer = (callId: string, to = HUMAN) =>
    calls.send('calls.voice.transfer', null, { callId, to, reason: 'caller_asked' });

  it('has the carrier dial the transfer number, records the transfer and publishes it; a retry changes nothing', async () => {
    const call = await transferableCall();

    expect(await transfer(call.id)).toEqual({ transferred: true });
    expect(await transfer(call.id)).toEqual({ transferred: true });

    const asked = carrier.onCall(call.providerCallId!);
    expect(asked).toHaveLength(1);
    expect(asked[0].form.get('Twiml')).toContain(HUMAN);
    const { call: stored } = await storedCall(dataSource, call.id);
    expect(stored.endCallReason).toBe('transferred');
    expect(stored.transfer).toMatchObject({
      transfer_type: 'cold',
      to_number: HUMAN,
      reason: 'caller_asked',
      outcome: 'bridged',
      legs: [
        { role: 'caller', carrier_call_id: call.providerCallId, status: 'bridged' },
        { role: 'human', from_number: call.fromNumber, to_number: HUMAN, status: 'carrier_dialed' },
      ],
    });
    const published = await calls.waitForEvent<CallTransferredData>(
      DomainEvents.callTransferred,
      (e) => e.data.call_id === call.id,
    );
    expect(published.data).toMatchObject({
      transfer_to: HUMAN,
      transfer_type: 'cold',
      reason: 'caller_asked',
      outcome: 'bridged',
      provider: 'sandbox',
    });
    expect(
      (await calls.events(DomainEvents.callTransferred)).filter(
        (e) => (e.event.data as CallTransferredData).call_id === call.id,
      ),
    ).toHaveLength(1);
  });

  it('refuses a number other than the agent’s, a listed one, and an agent that does not transfer', async () => {
    const call = await transferableCall();
    const plain = await saveSandboxCall(dataSource);
    await dataSource.query(
      `INSERT INTO calls.do_not_call (id, partner_id, kind, value, reason, source)
       VALUES ($1, $2, 'number', $3, 'manual', 'api')`,
      [`dnc_${randomUUID()}`, call.partnerId, HUMAN],
    );

    await expect(transfer(call.id, '+14155550999')).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
    await expect(transfer(call.id)).rejects.toMatchObject({ code: ErrorCode.DO_NOT_CALL });
    await expect(transfer(plain.id)).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
    await expect(transfer(call.id, 'not-a-number')).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
    });
    expect([...carrier.onCall(call.providerCallId!), ...carrier.onCall(plain.providerCallId!)]).toEqual([]);
    expect((await storedCall(dataSource, call.id)).call.transfer).toBeNull();
  });

  it('answers false for an ended call and one the carrier no longer knows, recording nothing', async () => {
    const ended = await transferableCall({ status: 'completed' });
    const gone = await transferableCall();
    carrier.gone.add(gone.providerCallId!);

    expect(await transfer(ended.id)).toEqual({ transferred: false });
    expect(await transfer(gone.id)).toEqual({ transferred: false });

    expect(carrier.onCall(ended.providerCallId!)).toEqual([]);
    for (const id of [ended.id, gone.id]) {
      expect((await storedCall(dataSource, id)).call).toMatchObject({ transfer: null, endCallReason: null });
    }
  });
});
