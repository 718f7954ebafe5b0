// calls.voice.hangup as the voice service sends it to the running calls module: a live call is hung up at the
// carrier (the fake sandbox carrier) with the reason kept for its final callback, which ends the call with it (an
// agent's max_call_duration_secs, say); an ended call only takes the reason when it has none; a malformed reason
// or another partner's call is refused.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DomainEvents, ErrorCode, SessionCompletedData } from '@vap/messages';
import { FakeSandboxCarrier } from '../../../testing/fake-sandbox-carrier';
import { placeSandboxCall, statusUpdatesOf } from '../../../testing/placed-sandbox-calls';
import { saveSandboxCall, useCallsOnSandbox } from '../../../testing/sandbox-calls';
import { answerAgents, approvedPartner } from '../../../testing/spec-partners';

/** An agent whose calls last at most a minute. */
const CAPPED_AGENT = randomUUID();

describe('hang up a call', () => {
  let dataSource: DataSource;
  const carrier = new FakeSandboxCarrier();

  const calls = useCallsOnSandbox(carrier);

  beforeAll(() => {
    dataSource = calls.get(DataSource);
    answerAgents(calls.peers, undefined, { [CAPPED_AGENT]: { maxCallDurationSecs: 60 } });
  });

  const reasonsOf = async (id: string) =>
    (
      (await dataSource.query(
        `SELECT status, end_call_reason, end_requested_reason, end_requested_at IS NOT NULL AS requested
           FROM calls.calls WHERE id = $1`,
        [id],
      )) as Record<string, unknown>[]
    )[0];

  it('hangs the live call up at the carrier and keeps the first reason for its final callback', async () => {
    const call = await saveSandboxCall(dataSource);

    expect(
      await calls.send('calls.voice.hangup', null, { callId: call.id, reason: 'agent_ended_call' }),
    ).toEqual({ ok: true });
    await calls.send('calls.voice.hangup', null, { callId: call.id, reason: 'user_idle' });

    expect(carrier.onCall(call.providerCallId!).map((r) => [r.method, r.form.get('Status')])).toEqual([
      ['POST', 'completed'],
      ['POST', 'completed'],
    ]);
    // The carrier's final callback ends the call; until then it is live, with the reason it will end with.
    expect(await reasonsOf(call.id)).toEqual({
      status: 'in_progress',
      end_call_reason: null,
      end_requested_reason: 'agent_ended_call',
      requested: true,
    });
  });

  it('ends a call at its max_call_duration_secs: the carrier cuts it by then, its final callback ends it with the reason', async () => {
    const partner = approvedPartner();
    const { callId, placed, progress, end } = await placeSandboxCall(calls, carrier, partner, {
      agent_id: CAPPED_AGENT,
      to_number: '+919812307007',
    });
    // The carrier is told the cap too: it ends the call by then whatever happens to the agent.
    expect(placed.form.get('TimeLimit')).toBe('60');
    await progress({ CallStatus: 'initiated' });
    await progress({ CallStatus: 'ringing' });
    await progress({ CallStatus: 'in-progress', AnsweredBy: 'human' });

    // The voice service's call cap: its farewell said, it hangs up by the cap.
    await calls.send('calls.voice.hangup', null, { callId, reason: 'max_call_duration_reached' });
    expect(carrier.onCall(placed.sid!).map((r) => r.form.get('Status'))).toEqual(['completed']);
    await end('completed', { CallDuration: '58', HangupCause: 'NORMAL_CLEARING', HangupSource: 'system' });

    const updates = await statusUpdatesOf(calls, callId, 'completed');
    expect(updates.map((u) => u.status)).toEqual(['pending', 'ringing', 'in_progress', 'completed']);
    expect(updates[3]).toMatchObject({ disposition: 'completed', hangup_source: 'system', terminal: true });
    const completed = await calls.waitForEvent<SessionCompletedData>(
      DomainEvents.sessionCompleted,
      (e) => e.data.call_id === callId,
    );
    const call = await calls.send('calls.call.get', partner, { id: callId });
    expect(call).toMatchObject({
      status: 'completed',
      end_call_reason: 'max_call_duration_reached',
      hangup_source: 'system',
      duration_seconds: 58,
      bill_duration_seconds: 58,
    });
    // The answered time is billed, at the default price of a minute (400 paise).
    expect(completed.data.credits_used_paise).toBe(Math.ceil((58 * 400) / 60));
    expect(call.session.credits_used).toBe(completed.data.credits_used_paise / 100);
  });

  it('names the platform as who hung up when the carrier reports a hang-up through its API that the platform asked for', async () => {
    const partner = approvedPartner();
    const answered = async (to: string) => {
      const placed = await placeSandboxCall(calls, carrier, partner, {
        agent_id: CAPPED_AGENT,
        to_number: to,
      });
      await placed.progress({ CallStatus: 'ringing' });
      await placed.progress({ CallStatus: 'in-progress', AnsweredBy: 'human' });
      return placed;
    };
    const byAgent = await answered('+919812307008');
    const byOther = await answered('+919812307009');

    await calls.send('calls.voice.hangup', null, { callId: byAgent.callId, reason: 'agent_ended_call' });
    // The carrier says the hang-up came through its REST API: here the platform's, for the agent.
    await byAgent.end('completed', {
      CallDuration: '12',
      HangupCause: 'NORMAL_CLEARING',
      HangupSource: 'api',
    });
    // Nobody here asked for this one: someone else used the carrier's API (a partner, with its own credentials).
    await byOther.end('completed', {
      CallDuration: '9',
      HangupCause: 'NORMAL_CLEARING',
      HangupSource: 'api',
    });

    await statusUpdatesOf(calls, byAgent.callId, 'completed');
    await statusUpdatesOf(calls, byOther.callId, 'completed');
    expect(await calls.send('calls.call.get', partner, { id: byAgent.callId })).toMatchObject({
      end_call_reason: 'agent_ended_call',
      hangup_source: 'system',
    });
    expect(await calls.send('calls.call.get', partner, { id: byOther.callId })).toMatchObject({
      end_call_reason: null,
      hangup_source: 'api',
    });
  });

  it('gives an ended call the reason only when it has none, without asking the carrier', async () => {
    const bare = await saveSandboxCall(dataSource, { status: 'completed' });
    const reasoned = await saveSandboxCall(dataSource, {
      status: 'completed',
      endCallReason: 'customer_ended_call',
    });

    await calls.send('calls.voice.hangup', null, { callId: bare.id, reason: 'agent_ended_call' });
    await calls.send('calls.voice.hangup', null, { callId: reasoned.id, reason: 'agent_ended_call' });

    expect((await reasonsOf(bare.id)).end_call_reason).toBe('agent_ended_call');
    expect((await reasonsOf(reasoned.id)).end_call_reason).toBe('customer_ended_call');
    expect([...carrier.onCall(bare.providerCallId!), ...carrier.onCall(reasoned.providerCallId!)]).toEqual(
      [],
    );
  });

  it('refuses a reason that is not a snake_case word and another partner’s call', async () => {
    const call = await saveSandboxCall(dataSource);

    await expect(
      calls.send('calls.voice.hangup', null, { callId: call.id, reason: 'Agent Ended' }),
    ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
    await expect(
      calls.send('calls.voice.hangup', randomUUID(), { callId: call.id, reason: 'agent_ended_call' }),
    ).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    expect(carrier.onCall(call.providerCallId!)).toEqual([]);
    expect((await reasonsOf(call.id)).requested).toBe(false);
  });
});
