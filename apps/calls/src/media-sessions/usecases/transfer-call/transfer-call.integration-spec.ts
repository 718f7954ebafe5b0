// calls.voice.transfer as the voice service sends it (the agent's transfer_call tool) to the running calls module:
// the carrier (the fake sandbox carrier) is asked to dial the agent's transfer number on the caller's leg, the
// transfer is recorded and call.transferred published, and the carrier's final callback ends the call as
// transferred. Another number, a listed number, an agent that does not transfer (its call goes on), an ended call
// and a carrier that no longer knows the call are refused or answered false, and nothing is recorded.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CallTransferredData, DomainEvents, ErrorCode, SessionCompletedData } from '@vap/messages';
import { Call } from '../../../calls/entities/call.entity';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import { placeSandboxCall, statusUpdatesOf } from '../../../testing/placed-sandbox-calls';
import {
  saveAgentSettings,
  saveSandboxCall,
  useCallsOnSandbox,
  storedCall,
} from '../../../testing/sandbox-calls';
import { answerAgents, approvedPartner } from '../../../testing/spec-partners';

const HUMAN = '+14155550123';
/** An agent that transfers to HUMAN; any other agent does not transfer. */
const TRANSFERRING_AGENT = randomUUID();

describe('transfer a call', () => {
  let dataSource: DataSource;
  const carrier = new FakeSandboxCarrier();

  const calls = useCallsOnSandbox(carrier);

  beforeAll(() => {
    dataSource = calls.get(DataSource);
    answerAgents(calls.peers, undefined, {
      [TRANSFERRING_AGENT]: { transferEnabled: true, transferNumber: HUMAN },
    });
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

  const transferredOf = async (callId: string) =>
    (await calls.events(DomainEvents.callTransferred))
      .map((e) => (e.event as { data: CallTransferredData }).data)
      .filter((data) => data.call_id === callId);

  it('a started call transferred by its agent: the carrier’s final callback ends it as transferred, with its legs', async () => {
    const partner = approvedPartner();
    const to = '+919812308008';
    const { callId, placed, progress, end } = await placeSandboxCall(calls, carrier, partner, {
      agent_id: TRANSFERRING_AGENT,
      to_number: to,
      client_reference_id: 'transfer-ref',
    });
    await progress({ CallStatus: 'initiated' });
    await progress({ CallStatus: 'ringing' });
    await progress({ CallStatus: 'in-progress', AnsweredBy: 'human' });

    expect(await transfer(callId)).toEqual({ transferred: true });
    expect(carrier.onCall(placed.sid!).map((r) => r.form.get('Twiml'))).toEqual([
      expect.stringContaining(HUMAN),
    ]);
    // The caller talks with the human until one of them hangs up; the sandbox carrier names the transfer.
    await end('completed', {
      CallDuration: '14',
      HangupCause: 'NORMAL_CLEARING',
      HangupSource: 'callee',
      Disposition: 'transferred',
      EndCallReason: 'transferred',
    });

    const updates = await statusUpdatesOf(calls, callId, 'completed');
    expect(updates.map((u) => u.status)).toEqual(['pending', 'ringing', 'in_progress', 'completed']);
    await calls.waitForEvent<SessionCompletedData>(
      DomainEvents.sessionCompleted,
      (e) => e.data.call_id === callId,
    );
    const call = await calls.send('calls.call.get', partner, { id: callId });
    expect(call).toMatchObject({
      status: 'completed',
      disposition: 'transferred',
      end_call_reason: 'transferred',
      duration_seconds: 14,
    });
    expect(call.transfer).toMatchObject({ transfer_type: 'cold', to_number: HUMAN, outcome: 'bridged' });
    expect(call.transfer!.legs).toEqual([
      expect.objectContaining({ role: 'caller', status: 'completed', ended_at: expect.any(String) }),
      expect.objectContaining({ role: 'human', carrier_call_id: null, to_number: HUMAN }),
    ]);
    const transferred = await transferredOf(callId);
    expect(transferred).toHaveLength(1);
    expect(transferred[0]).toEqual({
      call_id: callId,
      session_id: call.session_id,
      agent_id: TRANSFERRING_AGENT,
      agent_name: 'Support',
      client_reference_id: 'transfer-ref',
      direction: 'outbound',
      from_number: call.from_number,
      to_number: to,
      transfer_to: HUMAN,
      transfer_type: 'cold',
      // The model's own words for why it transferred (its transfer_call tool's reason).
      reason: 'caller_asked',
      // A cold transfer: bridged by the carrier's own dial, with the caller's leg and the human's (the carrier
      // dials it on the same call, so it has no id of its own), as the call keeps them.
      outcome: 'bridged',
      requested_at: expect.any(String),
      answered_at: null,
      bridged_at: expect.any(String),
      // As they stood when the transfer was made: the caller's leg bridged, not yet ended with the call.
      legs: [{ ...call.transfer!.legs[0], status: 'bridged', ended_at: null }, call.transfer!.legs[1]],
      provider: 'sandbox',
      occurred_at: expect.any(String),
    });
  });

  it('a started call whose agent does not transfer goes on when asked to, and completes as any call', async () => {
    const partner = approvedPartner();
    const { callId, placed, progress, end } = await placeSandboxCall(calls, carrier, partner, {
      agent_id: randomUUID(),
      to_number: '+919812308018',
    });
    await progress({ CallStatus: 'initiated' });
    await progress({ CallStatus: 'ringing' });
    await progress({ CallStatus: 'in-progress', AnsweredBy: 'human' });

    await expect(transfer(callId)).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
    expect(await calls.send('calls.call.get', partner, { id: callId })).toMatchObject({
      status: 'in_progress',
      transfer: null,
    });
    // The agent carries on, then ends the call itself.
    await calls.send('calls.voice.hangup', null, { callId, reason: 'agent_ended_call' });
    await end('completed', { CallDuration: '30', HangupCause: 'NORMAL_CLEARING', HangupSource: 'system' });

    await calls.waitForEvent<SessionCompletedData>(
      DomainEvents.sessionCompleted,
      (e) => e.data.call_id === callId,
    );
    expect(await calls.send('calls.call.get', partner, { id: callId })).toMatchObject({
      status: 'completed',
      disposition: 'completed',
      end_call_reason: 'agent_ended_call',
      transfer: null,
    });
    // The carrier was never asked to dial anyone.
    expect(carrier.onCall(placed.sid!).filter((r) => r.form.has('Twiml'))).toEqual([]);
    expect(await transferredOf(callId)).toEqual([]);
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
